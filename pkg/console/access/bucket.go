package access

import "time"

// Bucket is a token bucket: rate tokens per second, at most burst; it
// takes now instead of reading a clock. The gate throttles wrong tokens
// with one per source, the console's hub limits each page's messages
// with one. The zero Bucket is full at its first call. Not safe for
// concurrent use: its owner locks.
type Bucket struct {
	tokens float64
	last   time.Time
}

// fill adds the tokens earned since the last call.
func (b *Bucket) fill(now time.Time, rate, burst float64) {
	if b.last.IsZero() {
		b.tokens = burst
	} else if dt := now.Sub(b.last).Seconds(); dt > 0 {
		b.tokens = min(burst, b.tokens+dt*rate)
	}
	if now.After(b.last) {
		b.last = now
	}
}

// Allow takes one token at now and reports whether there was one.
// rate is in tokens per second [1/s].
func (b *Bucket) Allow(now time.Time, rate, burst float64) bool {
	b.fill(now, rate, burst)
	if b.tokens < 1 {
		return false
	}
	b.tokens--
	return true
}

// Has reports whether a token is there at now, taking none.
func (b *Bucket) Has(now time.Time, rate, burst float64) bool {
	b.fill(now, rate, burst)
	return b.tokens >= 1
}
