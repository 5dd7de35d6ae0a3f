package console

import "time"

// The command path's jitter budget. The page re-sends a held command
// every 100 ms (RESEND_MS in assets/js/core.js); the deadman stops a
// group whose command is CommandTimeout (300 ms) old, checked every
// TickPeriod (20 ms). A re-send may so be up to 200 ms late, or two in a
// row lost, before the robot stops: that is the budget for the page's
// timer, the network and the console's scheduling together. A re-send
// later than half the timeout (150 ms: one and a half cadences) uses
// half the budget; the page shows "link slow" then, before the deadman
// stops the robot, so the operator knows why it may stutter.

// cmdLink measures how the held commands of the page in control arrive:
// the interval between two re-sends of a held group, and the late ones.
// Guarded by hub.mu.
type cmdLink struct {
	slow     time.Duration // a re-send later than this is late
	late     uint64        // re-sends later than slow, and expiries
	lastLate time.Time     // when the last one came (or expired)
	maxGap   time.Duration // the longest interval since the last report
	lateGap  time.Duration // the interval of the last late re-send (an expiry: the timeout)
}

// linkHold is how long the page keeps showing "link slow" after the
// last late command: long enough to be read.
const linkHold = 2 * time.Second

// arrived records a re-send that came gap after the one before.
func (l *cmdLink) arrived(gap time.Duration, now time.Time) {
	l.maxGap = max(l.maxGap, gap)
	if gap > l.slow {
		l.late++
		l.lastLate, l.lateGap = now, gap
	}
}

// expired records a held command stopped by the deadman.
func (l *cmdLink) expired(now time.Time) {
	l.late++
	l.lastLate, l.lateGap = now, l.slow*2
	l.maxGap = max(l.maxGap, l.slow*2)
}

// linkReport is the state's "link" entry: how the commands of the page
// in control arrive at the console.
type linkReport struct {
	Slow   bool    `json:"slow"`    // a command was late (or expired) within the last 2 s
	Late   uint64  `json:"late"`    // late re-sends and expiries since the console started
	GapMS  float64 `json:"gap_ms"`  // the longest interval between re-sends since the last state [ms]
	SlowMS float64 `json:"slow_ms"` // the interval over which a re-send is late [ms]
	// LateGapMS is the interval of the last late re-send [ms] (the
	// timeout for an expiry).
	LateGapMS float64 `json:"late_gap_ms"`
}

// report returns the figures at now and starts a new interval.
func (l *cmdLink) report(now time.Time) linkReport {
	r := linkReport{Slow: !l.lastLate.IsZero() && now.Sub(l.lastLate) < linkHold, Late: l.late,
		GapMS: float64(l.maxGap.Microseconds()) / 1000, SlowMS: float64(l.slow.Microseconds()) / 1000, LateGapMS: float64(l.lateGap.Microseconds()) / 1000}
	l.maxGap = 0
	return r
}

// linkState returns the command link's report at now.
func (h *hub) linkState(now time.Time) linkReport {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.link.report(now)
}
