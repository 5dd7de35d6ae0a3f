package servosila

import (
	"time"

	"github.com/telebridge/telebridge/pkg/odometry"
)

// VendorLinkTimeout is how long the vendor server keeps executing the last
// remote-control packet without a newer one before it drops the link and
// stops everything (about 1 s, seed 000).
const VendorLinkTimeout = time.Second

// reorderWindow is how far back a reordered or duplicated telemetry tick
// can be; a tick further back is a rebooted robot's counter.
const reorderWindow = 10

// oldTelemetryResync is how many telemetry packets in a row with a tick
// not newer than the latest make the driver follow the robot's counter
// backwards (a reboot restarts it at 1).
const oldTelemetryResync = 10

// LinkState is the driver's view of the link to the robot, from the
// telemetry it receives (the robot sends telemetry only while its own link
// is up).
type LinkState struct {
	// Lost is true while telemetry has been silent for LostAfter; the
	// driver then sends zeros (it does not drive a robot it cannot see),
	// the dead reckoning claims no motion, and its covariance has been
	// inflated by the motion it claimed since the last telemetry. False
	// before the first telemetry.
	Lost bool
	// LostAfter is the silence that counts as a lost link: two telemetry
	// intervals (the largest of the last 8, so one lost packet is
	// tolerated) plus VendorLinkTimeout, at most TelemetryTimeout [s]. At
	// the robot's 1 Hz that is 3 s. The link is declared lost at the
	// second send tick in a row that sees such a silence.
	LostAfter time.Duration
	// Losses counts the times the link was declared lost.
	Losses uint64
	// OldTelemetry counts telemetry packets dropped because their tick was
	// not newer than the latest (duplicated or reordered on the network).
	OldTelemetry uint64
	// Resyncs counts the times the tick went back for good (robot
	// reboot) and was followed.
	Resyncs uint64
}

// telemetryOrder is the receive goroutine's filter of stale telemetry.
type telemetryOrder struct {
	have  bool
	last  uint64    // latest accepted tick
	at    time.Time // its arrival
	older int       // consecutive old packets
}

// accept reports whether a telemetry packet with tick, arriving at, is
// newer than the latest, and whether it resynchronises (the tick went back
// by more than reorderWindow, after a silence of lostAfter, or
// oldTelemetryResync times in a row).
func (o *telemetryOrder) accept(tick uint64, at time.Time, lostAfter time.Duration) (ok, resync bool) {
	if o.have && tick <= o.last {
		o.older++
		if o.last-tick <= reorderWindow && at.Sub(o.at) <= lostAfter && o.older < oldTelemetryResync {
			return false, false
		}
		resync = true
	}
	o.have, o.last, o.at, o.older = true, tick, at, 0
	return true, resync
}

// linkTracker is the send loop's part of the link state (guarded by the
// driver's mutex).
type linkTracker struct {
	state  LinkState
	seq    uint64    // telemetry mailbox sequence seen
	lastAt time.Time // arrival of the latest telemetry
	// intervals are the last arrival intervals; their largest is the
	// telemetry period (packets bunched by a stall look closer together).
	intervals [8]time.Duration
	next      int
	over      int // consecutive ticks with the telemetry older than LostAfter
	atTel     odometry.State
	inflate   [3]float64 // added pose variance: x, y [m²], yaw [rad²]
}

// observe updates the link state at now from the telemetry mailbox; odo
// is the dead reckoning's state at now. It returns true while the link is
// lost.
func (l *linkTracker) observe(now time.Time, seq uint64, telAt time.Time, haveTel bool, odo odometry.State, timeout time.Duration) bool {
	if !haveTel {
		l.state.LostAfter = timeout
		return false
	}
	if seq != l.seq {
		l.seq = seq
		if !l.lastAt.IsZero() && telAt.After(l.lastAt) {
			l.intervals[l.next] = telAt.Sub(l.lastAt)
			l.next = (l.next + 1) % len(l.intervals)
		}
		l.lastAt = telAt
		l.atTel = odo
		l.state.Lost = false
	}
	var interval time.Duration
	for _, d := range l.intervals {
		interval = max(interval, d)
	}
	if interval == 0 {
		interval = time.Second // the robot's rate until measured
	}
	l.state.LostAfter = min(2*interval+VendorLinkTimeout, timeout)
	// Two ticks in a row: after a stall of this process the send loop may
	// run before the receive goroutine has read the telemetry waiting in
	// the socket; the second tick sees it.
	if now.Sub(l.lastAt) > l.state.LostAfter {
		l.over++
	} else {
		l.over = 0
	}
	if !l.state.Lost && l.over >= 2 {
		l.state.Lost = true
		l.state.Losses++
		// The motion claimed since the last telemetry may not have
		// happened, and the robot may have gone on with the command it
		// had then for VendorLinkTimeout: both become pose uncertainty.
		v := claimedVariance(odo, l.atTel, VendorLinkTimeout)
		for i := range v {
			l.inflate[i] += v[i]
		}
	}
	return l.state.Lost
}

// apply adds the inflation to a dead-reckoning state's pose covariance.
func (l *linkTracker) apply(st *odometry.State) {
	st.PoseCovariance[0] += l.inflate[0]
	st.PoseCovariance[7] += l.inflate[1]
	st.PoseCovariance[35] += l.inflate[2]
}
