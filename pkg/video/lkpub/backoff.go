package lkpub

import "time"

// Backoff is the wait before each reconnect: Min after the first failure,
// doubling after each further one up to Max, each wait scaled by a
// jitter factor in [0.75, 1.25). Reset after a connection that worked.
// It takes the random number instead of drawing one, so tests run in lock
// step. Not safe for concurrent use.
type Backoff struct {
	Min, Max time.Duration // bounds of the un-jittered wait [s]
	next     time.Duration // the next un-jittered wait; 0 = Min
}

// Next returns the wait before the next attempt [s]; r is a uniform
// random number in [0, 1) for the jitter.
func (b *Backoff) Next(r float64) time.Duration {
	d := b.next
	if d < b.Min {
		d = b.Min
	}
	if d > b.Max {
		d = b.Max
	}
	b.next = min(2*d, b.Max)
	r = min(max(r, 0), 1)
	return time.Duration(float64(d) * (0.75 + 0.5*r))
}

// Reset makes the next wait Min again.
func (b *Backoff) Reset() { b.next = 0 }
