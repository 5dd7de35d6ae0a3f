package console

import "time"

// group is a set of axes that one kind of held command drives. Each has
// its own deadman: a command of a group is valid for Config.CommandTimeout
// after it arrived.
type group int

const (
	groupDrive  group = iota // Servosila chassis
	groupJoints              // Servosila joint velocities
	groupFurbot              // Furbot Twist
	groupJog                 // jog arm move
	numGroups
)

var groupNames = [numGroups]string{"servosila drive", "servosila joints", "furbot", "jog"}

// deadman tracks, per group, which page drives it and when its command
// arrived. It reads no clock: every method takes now.
type deadman struct {
	timeout time.Duration
	g       [numGroups]struct {
		page   uint64 // 0: idle (zero command)
		at     time.Time
		active bool
	}
}

// drive records a command of group g from page at now; a zero command
// leaves the group idle.
func (d *deadman) drive(g group, page uint64, now time.Time, nonzero bool) {
	s := &d.g[g]
	s.active, s.page, s.at = nonzero, page, now
	if !nonzero {
		s.page = 0
	}
}

// expired returns the active groups whose command is older than the
// timeout at now and marks them idle: the caller zeroes them.
func (d *deadman) expired(now time.Time, out []group) []group {
	for i := range d.g {
		s := &d.g[i]
		if s.active && now.Sub(s.at) >= d.timeout {
			s.active, s.page = false, 0
			out = append(out, group(i))
		}
	}
	return out
}

// release returns the active groups driven by page (every page if page is
// 0) and marks them idle.
func (d *deadman) release(page uint64, out []group) []group {
	for i := range d.g {
		s := &d.g[i]
		if s.active && (page == 0 || s.page == page) {
			s.active, s.page = false, 0
			out = append(out, group(i))
		}
	}
	return out
}

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

// allow takes one token at now and reports whether there was one.
func (b *bucket) allow(now time.Time, rate, burst float64) bool {
	if b.last.IsZero() {
		b.tokens = burst
	} else if dt := now.Sub(b.last).Seconds(); dt > 0 {
		b.tokens = min(burst, b.tokens+dt*rate)
	}
	b.last = now
	if b.tokens < 1 {
		return false
	}
	b.tokens--
	return true
}
