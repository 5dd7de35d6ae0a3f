package control

import (
	"fmt"
	"time"

	"github.com/telebridge/telebridge/pkg/servosila/wire"
)

// CommandCheckConfig configures a CommandCheck. Zero fields take the
// stated defaults.
type CommandCheckConfig struct {
	// Window is how long after the driver replaced a command the robot may
	// still echo it (round trip plus the robot's own delay) [s]. A
	// telemetry packet that arrives later than its period allows widens it
	// by that lateness (a stalled receiver or sender is not a loss).
	// Default 500 ms.
	Window time.Duration
	// Tolerance is the largest difference between an echoed and an
	// expected speed command that still matches [raw protocol units].
	// Default 1 (rounding); negative disables the echo comparison, leaving
	// the telemetry gaps.
	Tolerance int
	// Threshold is how much longer than one telemetry period the commands
	// may go unconfirmed before it counts as a loss [s]. Default 500 ms
	// (half the vendor's 1 s link timeout): at the robot's 1 Hz one missing
	// telemetry packet counts, at 10 Hz five in a row do.
	Threshold time.Duration
	// Period is the telemetry period assumed until three intervals are
	// measured (the larger of it and the measured ones is used, so that a
	// slower robot is not taken for a silent one) [s]. Default 1 s, the
	// robot's rate.
	Period time.Duration
}

// WithDefaults returns c with its zero fields set to their defaults and
// checks it.
func (c CommandCheckConfig) WithDefaults() (CommandCheckConfig, error) {
	if c.Window == 0 {
		c.Window = 500 * time.Millisecond
	}
	if c.Tolerance == 0 {
		c.Tolerance = 1
	}
	if c.Threshold == 0 {
		c.Threshold = 500 * time.Millisecond
	}
	if c.Period == 0 {
		c.Period = time.Second
	}
	if c.Window < 0 || c.Threshold < 0 || c.Period < 0 {
		return c, fmt.Errorf("%w: command check: negative window, threshold or period", ErrConfig)
	}
	return c, nil
}

// Verdict is what one telemetry packet says about the commands sent
// before it.
type Verdict struct {
	// Mismatch: the echoed speed commands match no command the driver sent
	// within the window: the robot executes something it was not sent
	// lately (an older command, or zeros after its own link timeout).
	Mismatch bool
	// Stopped: a mismatch with every compared record's echo and speed at
	// zero: the robot stopped on its own.
	Stopped bool
	// Gap: telemetry packets are missing (by tick) and the span since the
	// previous one exceeds the period by Threshold or more: nothing
	// confirmed the commands of that span.
	Gap bool
	// Silence: the robot sent no telemetry for Threshold or more beyond its
	// period, without missing ticks (it sends only while its link is up,
	// so its link was down). Reported one packet late: the packet after
	// the silence must confirm it, so that a stalled receiver, whose
	// packets then arrive bunched, is not taken for one. Looked for only
	// while the period is at least Threshold (the robot's 1 Hz): at a
	// faster rate the robot sends during the second before its link
	// drops, and a silence alone is a stalled process.
	Silence bool
	// New: this packet starts a new loss event (count it once): no loss
	// was reported since the last confirmation. A mismatch that runs into
	// a silence is one event.
	New bool
	// Confirmed: as of this packet the robot executes what was sent (the
	// echo matches and no silence is pending).
	Confirmed bool
	// Missing is the number of telemetry packets missing by tick.
	Missing uint64
	// Unconfirmed is the loss's figure [s]: for a gap or a silence, the
	// span without telemetry beyond one period (about the length of a
	// blackout); for a mismatch, how long ago the driver first sent a
	// command the robot has not shown (if the robot stopped: the time
	// since the last confirmation).
	Unconfirmed time.Duration
}

// Loss reports whether the verdict is a command loss of any kind.
func (v Verdict) Loss() bool { return v.Mismatch || v.Gap || v.Silence }

// Kind names the verdict's loss for reports: "mismatch", "robot stopped",
// "telemetry gap", "robot silent", or "" when there is none.
func (v Verdict) Kind() string {
	switch {
	case v.Stopped:
		return "robot stopped"
	case v.Mismatch:
		return "mismatch"
	case v.Silence:
		return "robot silent"
	case v.Gap:
		return "telemetry gap"
	}
	return ""
}

// sentHistory is how many distinct commands a CommandCheck remembers:
// 2.5 s of commands changing at the driver's 50 Hz maximum.
const sentHistory = 128

// sentCmd is one distinct command: its echo and when it was sent first
// and last (keep-alives of the same command extend last).
type sentCmd struct {
	first, last time.Time
	echo        wire.SpeedEcho
	mask        uint16
}

// CommandCheck tells from telemetry whether the driver's commands reached
// the robot. The driver records every packet it sends (Sent: the speed
// commands each motor should then echo, wire.ExpectEcho) and hands over
// every accepted telemetry packet (Telemetry). It compares the echoed
// speed commands with what it sent and when, and the telemetry ticks and
// arrival times with the robot's period. It reads no clock and allocates
// nothing; it is not safe for concurrent use (the driver calls it under
// its lock).
type CommandCheck struct {
	cfg  CommandCheckConfig
	hist [sentHistory]sentCmd
	n    int // entries stored
	head int // index of the newest

	have   bool
	tick   uint64
	at     time.Time // arrival of the previous packet
	lastOK time.Time // arrival of the last confirming packet
	ivals  [8]time.Duration
	nIvals int
	next   int
	// A silence suspected at the previous packet, confirmed or dropped at
	// this one.
	pending    bool
	pendAt     time.Time // arrival of the packet before the silence
	pendTick   uint64
	pendExcess time.Duration
	pendSpan   time.Duration // the interval that raised it
	pendPeriod time.Duration // the period then
	inLoss     bool          // a loss was reported since the last confirmation
}

// NewCommandCheck fills cfg's defaults and returns a CommandCheck.
func NewCommandCheck(cfg CommandCheckConfig) (*CommandCheck, error) {
	cfg, err := cfg.WithDefaults()
	if err != nil {
		return nil, err
	}
	return &CommandCheck{cfg: cfg}, nil
}

// Sent records a packet sent at at, after which the records in mask should
// echo e.
func (c *CommandCheck) Sent(at time.Time, e *wire.SpeedEcho, mask uint16) {
	if c.n > 0 {
		if h := &c.hist[c.head]; h.mask == mask && h.echo == *e {
			h.last = at
			return
		}
	}
	c.head = (c.head + 1) % sentHistory
	if c.n < sentHistory {
		c.n++
	}
	c.hist[c.head] = sentCmd{first: at, last: at, echo: *e, mask: mask}
}

// Period returns the telemetry period in use: the median of the last
// eight intervals between consecutive ticks, or, before three are
// measured, the largest of them and the configured Period.
func (c *CommandCheck) Period() time.Duration {
	if c.nIvals < 3 {
		p := c.cfg.Period
		for _, d := range c.ivals[:c.nIvals] {
			p = max(p, d)
		}
		return p
	}
	var s [len(c.ivals)]time.Duration
	n := copy(s[:], c.ivals[:c.nIvals])
	for i := 1; i < n; i++ { // insertion sort of at most 8
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
	return s[n/2]
}

// Telemetry checks one accepted telemetry packet: its tick, its arrival
// time at, whether the driver resynchronised to it (a rebooted robot), and
// the speed commands and speeds of its records (wire.SpeedEcho).
func (c *CommandCheck) Telemetry(at time.Time, tick uint64, resync bool, echo, speed *wire.SpeedEcho) Verdict {
	var v Verdict
	var late time.Duration
	if c.have && resync {
		c.pending = false
	}
	if c.have && !resync && tick > c.tick {
		late = c.gaps(&v, at, tick)
	}
	matched := true
	if c.cfg.Tolerance >= 0 {
		switch res, lag := c.match(at, c.cfg.Window+late, echo); res {
		case mismatched:
			matched = false
			v.Mismatch = true
			v.Stopped = c.zero(echo) && c.zero(speed)
			if v.Stopped && !c.lastOK.IsZero() {
				lag = at.Sub(c.lastOK)
			}
			v.Unconfirmed = max(v.Unconfirmed, lag)
		case inconclusive:
			matched = false
		}
	}
	if v.Loss() {
		v.New, c.inLoss = !c.inLoss, true
	}
	v.Confirmed = matched && !c.pending
	if v.Confirmed {
		c.lastOK, c.inLoss = at, false
	}
	c.have, c.tick, c.at = true, tick, at
	return v
}

// gaps judges the span since the previous packet (tick after c.tick) and
// returns how late this packet is on the robot's schedule.
func (c *CommandCheck) gaps(v *Verdict, at time.Time, tick uint64) time.Duration {
	n := tick - c.tick
	span := at.Sub(c.at)
	if c.pending {
		// A silence is confirmed when the time since the packet before it
		// still exceeds the schedule (a stalled receiver's packets arrive
		// bunched and catch up) and this packet is back on the robot's
		// cadence (two long intervals in a row are a slower robot than
		// assumed: its period is learnt instead).
		p := c.pendPeriod
		total := at.Sub(c.pendAt) - time.Duration(tick-c.pendTick)*p
		if total >= c.cfg.Threshold && span-time.Duration(n)*p < c.cfg.Threshold {
			v.Silence = true
			v.Unconfirmed = c.pendExcess
		} else {
			c.addInterval(c.pendSpan)
		}
		c.pending = false
	}
	p := c.Period()
	late := max(0, span-time.Duration(n)*p)
	excess := span - p
	switch {
	case excess < c.cfg.Threshold:
		if n == 1 && span > 0 {
			c.addInterval(span)
		}
	case n >= 2:
		v.Gap = true
		v.Missing = n - 1
		v.Unconfirmed = max(v.Unconfirmed, excess)
	case p < c.cfg.Threshold:
		// Faster than that, the robot sends within the second before its
		// link drops, so a loss shows as a gap or a mismatch: a silence
		// alone is a stalled process (the simulator's, in tests).
	default: // held until the next packet says what it was
		c.pending, c.pendAt, c.pendTick, c.pendExcess = true, c.at, c.tick, excess
		c.pendSpan, c.pendPeriod = span, p
	}
	return late
}

// addInterval adds one interval between consecutive ticks to those the
// period is measured from.
func (c *CommandCheck) addInterval(d time.Duration) {
	c.ivals[c.next] = d
	c.next = (c.next + 1) % len(c.ivals)
	c.nIvals = min(c.nIvals+1, len(c.ivals))
}

type matchResult int

const (
	matched matchResult = iota
	mismatched
	inconclusive // the history does not reach back far enough
)

// match compares echo with the commands that may be in force at the robot
// for a packet arriving at at: every command sent within window before it,
// and the one in force when the window began. On a mismatch it also
// returns how long ago the first command the robot has not shown was sent
// (the one after the newest that matches the echo; at least the history's
// span when none does).
func (c *CommandCheck) match(at time.Time, window time.Duration, echo *wire.SpeedEcho) (matchResult, time.Duration) {
	from := at.Add(-window)
	k := 0
	for ; k < c.n; k++ {
		h := &c.hist[(c.head-k+sentHistory)%sentHistory]
		if h.first.After(at) {
			continue // sent after this packet arrived
		}
		if c.equal(h, echo) {
			return matched, 0
		}
		if !h.first.After(from) {
			break // in force when the window began; older ones are not
		}
	}
	if k == c.n {
		return inconclusive, 0
	}
	first := c.hist[(c.head-k+sentHistory)%sentHistory].first
	for k++; k < c.n; k++ {
		h := &c.hist[(c.head-k+sentHistory)%sentHistory]
		if c.equal(h, echo) {
			break
		}
		first = h.first
	}
	return mismatched, at.Sub(first)
}

func (c *CommandCheck) equal(h *sentCmd, echo *wire.SpeedEcho) bool {
	tol := int32(c.cfg.Tolerance)
	for i := range echo {
		if h.mask&(1<<i) == 0 {
			continue
		}
		if d := int32(echo[i]) - int32(h.echo[i]); d > tol || d < -tol {
			return false
		}
	}
	return true
}

// zero reports whether every record in the newest command's mask is zero
// in e.
func (c *CommandCheck) zero(e *wire.SpeedEcho) bool {
	if c.n == 0 {
		return false
	}
	mask := c.hist[c.head].mask
	for i := range e {
		if mask&(1<<i) != 0 && e[i] != 0 {
			return false
		}
	}
	return true
}
