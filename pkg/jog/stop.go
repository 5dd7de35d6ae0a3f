package jog

import (
	"math"
	"time"

	"github.com/telebridge/telebridge/pkg/jog/control"
)

// Stops: the stop service, the deceleration to rest, holds and aborts.

// Stop ends any motion and returns the target to send right away: the
// rest point of a deceleration within the acceleration limits (or
// max_stop_time, whichever is shorter), with zero velocity and
// TimeFromStart the braking time; while idle, the measured position. ok
// is false if no joint state is known. The following Steps send nothing. The target's slices are Stop's own
// buffers, reused by the next Stop and never by Step, so a stop from a
// service goroutine does not overwrite a Step target being sent.
func (c *Controller) Stop(now time.Time) (t JointTarget, ok bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.queue = c.queue[:0]
	if c.mode == Idle || (c.fresh && c.mode != Stopping) {
		c.stop("stop")
		if !c.haveState {
			return JointTarget{}, false
		}
		c.holdPending = false
		return c.hold(now, c.stopTarget), true
	}
	if c.mode != Stopping {
		c.startBrake(now, "stop")
	}
	c.brk.At(c.brk.T, c.stopTarget, c.stopVel)
	c.brakeMoved = true
	c.holds++
	t = c.emitBuf(now, max(time.Duration(c.brk.T*float64(time.Second))-now.Sub(c.brkStart), c.period), true, c.stopTarget, c.stopVel)
	return t, true
}

// stop ends the motion at once, leaving a hold target pending if one can
// be computed; the caller holds the lock. Used when nothing moves.
func (c *Controller) stop(reason string) {
	if c.mode != Idle {
		c.reason = reason
	} else if c.reason == "" {
		c.reason = reason
	}
	c.mode = Idle
	c.havePose, c.fresh = false, false
	c.holdPending = c.haveState
	c.queue = c.queue[:0]
	clear(c.vc)
}

// startBrake begins a stop from the commanded state: every joint
// decelerates linearly to rest, all together, within the acceleration
// limits unless that takes longer than max_stop_time (then the stop
// wins). The caller holds the lock.
func (c *Controller) startBrake(now time.Time, reason string) {
	if c.fresh {
		copy(c.qc, c.measured)
		clear(c.vc)
		c.fresh = false
	}
	copy(c.brk.Q0, c.qc)
	copy(c.brk.V0, c.vc)
	c.brk.T = control.BrakeTime(c.vc, c.amax, c.p.MaxStopTime)
	c.brkStart, c.brakeMoved = now, false
	c.mode, c.reason = Stopping, reason
	c.havePose = false
	c.queue = c.queue[:0]
}

// hold returns the measured position, clamped into the limits, to be
// reached within one period at rest, written into dst (c.target for
// Step, c.stopTarget for Stop, so that the two never share a buffer).
func (c *Controller) hold(now time.Time, dst []float64) JointTarget {
	for i, v := range c.measured {
		dst[i] = math.Max(c.lo[i], math.Min(c.hi[i], v))
	}
	vel := c.velocity
	if &dst[0] == &c.stopTarget[0] {
		vel = c.stopVel
	}
	clear(vel)
	copy(c.qc, dst)
	clear(c.vc)
	c.holds++
	return c.emitBuf(now, c.period, true, dst, vel)
}

// stepBrake returns the rest point of the stop once (ok true), then
// nothing: the rest point with zero velocity at the braking time is the
// whole deceleration for a trajectory controller, and a position
// controller heads straight for it. Meanwhile the commanded state follows
// the deceleration, so that a new move takes over from it. The caller
// holds the lock.
func (c *Controller) stepBrake(now time.Time) (JointTarget, bool) {
	if !c.brakeMoved {
		c.brakeMoved = true
		c.brk.At(c.brk.T, c.target, c.velocity)
		c.holds++
		if c.brk.T == 0 {
			c.mode = Idle
			copy(c.qc, c.target)
			clear(c.vc)
		}
		return c.emitBuf(now, max(time.Duration(c.brk.T*float64(time.Second)), c.period), true, c.target, c.velocity), true
	}
	s := now.Sub(c.brkStart).Seconds()
	c.brk.At(s, c.qc, c.vc)
	if s >= c.brk.T-1e-9 { // the arm is at rest now
		c.mode = Idle
	}
	return JointTarget{}, false
}

// Abort ends any motion at once, sending nothing: for when the machine has
// stopped by itself or refuses targets (an e-stop latched, a dead link),
// so that no deceleration or stale motion is replayed to it when it comes
// back. The next move starts from the measured joints.
func (c *Controller) Abort(reason string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.mode != Idle {
		c.reason = reason
	}
	c.mode, c.fresh, c.holdPending = Idle, false, false
	c.havePose, c.haveCur, c.havePend = false, false, false
	c.queue = c.queue[:0]
	clear(c.vc)
}
