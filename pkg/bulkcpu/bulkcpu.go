// Package bulkcpu holds the gate that keeps a process's bulk work (video:
// pattern frames, pixel conversion, JPEG and H.264 encoding) to all but
// one of its processors, so that latency-critical goroutines (the
// operator's commands, the deadman, the drivers' UDP senders) always find
// one free when they wake.
//
// Go's scheduler has no priorities: a goroutine that a command wakes
// waits in a run queue behind every runnable goroutine, 10 ms each, on
// the processors (Ps) it shares with them; on a loaded machine, where
// each P gets only part of a core, four encoders ahead of it delay a held
// key's re-send by hundreds of milliseconds, past the console's deadman.
// Bulk work that holds a slot of this gate leaves at least one P (and one
// kernel thread's share of the CPU) to everything else. Frames are
// skipped, never commands.
package bulkcpu

import (
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

var (
	once  sync.Once
	slots chan struct{}
	// waited is the total time bulk work waited for a slot [ns].
	waited atomic.Int64
)

func gate() chan struct{} {
	once.Do(func() { slots = make(chan struct{}, Slots()) })
	return slots
}

// Slots returns how many bulk jobs run at once: GOMAXPROCS - 1, at least
// one.
func Slots() int { return max(1, runtime.GOMAXPROCS(0)-1) }

// Acquire waits for a slot of the gate; call Release when the bulk job is
// done. Jobs must not acquire a second slot while holding one.
func Acquire() {
	g := gate()
	select {
	case g <- struct{}{}:
		return
	default:
	}
	start := time.Now()
	g <- struct{}{}
	waited.Add(int64(time.Since(start)))
}

// Release gives back the slot taken by Acquire.
func Release() { <-gate() }

// Waited returns the total time bulk jobs waited for a slot since the
// process started.
func Waited() time.Duration { return time.Duration(waited.Load()) }
