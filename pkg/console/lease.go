package console

import "time"

// lease is the one-controller rule: holder is the page that may move the
// machines (0: nobody).
type lease struct{ holder uint64 }

// join gives control to page if nobody holds it, and reports whether page
// controls.
func (l *lease) join(page uint64) bool {
	if l.holder == 0 {
		l.holder = page
	}
	return l.holder == page
}

// leave frees the lease if page held it and reports whether it did.
func (l *lease) leave(page uint64) bool {
	if l.holder != page || page == 0 {
		return false
	}
	l.holder = 0
	return true
}

// take makes page the holder and returns the previous one (0 if none).
func (l *lease) take(page uint64) uint64 {
	prev := l.holder
	l.holder = page
	return prev
}

// bucket is a token bucket: rate tokens per second, at most burst.
type bucket struct {
	tokens float64
	last   time.Time
}

// fill adds the tokens earned since the last call.
func (b *bucket) fill(now time.Time, rate, burst float64) {
	if b.last.IsZero() {
		b.tokens = burst
	} else if dt := now.Sub(b.last).Seconds(); dt > 0 {
		b.tokens = min(burst, b.tokens+dt*rate)
	}
	if now.After(b.last) {
		b.last = now
	}
}

// allow takes one token at now and reports whether there was one.
func (b *bucket) allow(now time.Time, rate, burst float64) bool {
	b.fill(now, rate, burst)
	if b.tokens < 1 {
		return false
	}
	b.tokens--
	return true
}

// has reports whether a token is there at now, taking none.
func (b *bucket) has(now time.Time, rate, burst float64) bool {
	b.fill(now, rate, burst)
	return b.tokens >= 1
}
