package control

import "time"

// Backoff spaces reopen attempts after a device is lost: Min after the
// first failure, doubling up to Max. The zero value uses 100 ms and 5 s.
// Not safe for concurrent use.
type Backoff struct {
	Min, Max time.Duration
	next     time.Duration
}

// Next returns how long to wait before the next attempt and doubles the
// following wait.
func (b *Backoff) Next() time.Duration {
	lo, hi := b.Min, b.Max
	if lo <= 0 {
		lo = 100 * time.Millisecond
	}
	if hi < lo {
		hi = 5 * time.Second
		if hi < lo {
			hi = lo
		}
	}
	if b.next < lo {
		b.next = lo
	}
	d := b.next
	b.next = min(2*b.next, hi)
	return d
}

// Reset makes the next wait Min again (after a success).
func (b *Backoff) Reset() { b.next = 0 }
