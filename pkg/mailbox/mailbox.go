// Package mailbox holds the latest value of something written by one
// goroutine and read by others, with the time it was stored.
//
// It is the hand-over between a receive goroutine (telemetry, commands) and
// a fixed-rate loop: the loop always sees the newest value and its age, and
// older values are overwritten, never queued.
package mailbox

import (
	"sync"
	"time"
)

// Latest is the most recent value of type T and when it was stored. The
// zero value is empty and ready to use. T is copied in and out, so it should
// be a plain value (no slices or maps that the writer keeps mutating).
// All methods are safe for concurrent use and allocate nothing.
type Latest[T any] struct {
	mu  sync.Mutex
	v   T
	at  time.Time
	seq uint64
}

// Store replaces the value; at is when it was received (pass time.Now(),
// whose monotonic reading makes ages immune to wall-clock jumps).
func (l *Latest[T]) Store(v T, at time.Time) {
	l.mu.Lock()
	l.v, l.at = v, at
	l.seq++
	l.mu.Unlock()
}

// Load returns the latest value, when it was stored, and false if nothing
// was ever stored.
func (l *Latest[T]) Load() (v T, at time.Time, ok bool) {
	l.mu.Lock()
	v, at, ok = l.v, l.at, l.seq > 0
	l.mu.Unlock()
	return v, at, ok
}

// Seq returns how many times Store has been called; a reader compares it
// with the previous call to tell a new value from a repeated one.
func (l *Latest[T]) Seq() uint64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.seq
}

// Fresh returns the value if one was stored within maxAge before now, and
// otherwise the zero value and false. It is the command-timeout check.
func (l *Latest[T]) Fresh(now time.Time, maxAge time.Duration) (T, bool) {
	v, at, ok := l.Load()
	if !ok || now.Sub(at) > maxAge {
		var zero T
		return zero, false
	}
	return v, true
}
