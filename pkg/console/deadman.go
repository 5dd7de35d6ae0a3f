package console

import "time"

// deadman tracks, per group of axes, which page drives it and when its
// command arrived. A group is a set of axes that one kind of held command
// drives (a panel declares its groups, Panel.Groups); each has its own
// deadman: a command is valid for timeout after it arrived. It reads no
// clock: every method takes now.
type deadman struct {
	timeout time.Duration
	g       []held
}

type held struct {
	page   uint64 // 0: idle (zero command)
	at     time.Time
	active bool
}

// add makes room for n more groups and returns the index of the first.
func (d *deadman) add(n int) int {
	first := len(d.g)
	d.g = append(d.g, make([]held, n)...)
	return first
}

// drive records a command of group g from page at now; a zero command
// leaves the group idle. It returns the interval since the command before
// when this one renews it (the same page's held command), else 0.
func (d *deadman) drive(g int, page uint64, now time.Time, nonzero bool) time.Duration {
	s := &d.g[g]
	var gap time.Duration
	if s.active && nonzero && s.page == page {
		gap = now.Sub(s.at)
	}
	s.active, s.page, s.at = nonzero, page, now
	if !nonzero {
		s.page = 0
	}
	return gap
}

// driver returns the page whose command holds group g (0: none).
func (d *deadman) driver(g int) uint64 { return d.g[g].page }

// expired returns the active groups whose command is older than the
// timeout at now and marks them idle: the caller zeroes them.
func (d *deadman) expired(now time.Time, out []int) []int {
	for i := range d.g {
		s := &d.g[i]
		if s.active && now.Sub(s.at) >= d.timeout {
			s.active, s.page = false, 0
			out = append(out, i)
		}
	}
	return out
}

// release returns the active groups driven by page (every page if page is
// 0) and marks them idle.
func (d *deadman) release(page uint64, out []int) []int {
	for i := range d.g {
		s := &d.g[i]
		if s.active && (page == 0 || s.page == page) {
			s.active, s.page = false, 0
			out = append(out, i)
		}
	}
	return out
}
