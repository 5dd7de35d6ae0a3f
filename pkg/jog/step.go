package jog

import (
	"fmt"
	"time"

	"github.com/telebridge/telebridge/pkg/geom"
	"github.com/telebridge/telebridge/pkg/jog/control"
)

// The cycle: Step checks the deadman and the joint state and advances
// the current motion's profile by one period.

// Step runs one cycle at now: it checks the heartbeat and the joint state,
// advances the current motion's profile by one period and returns the
// point to send (ok true). When a motion ends by a stop (heartbeat
// timeout, stale joint state, an unreachable step), Step first returns
// the rest point of the deceleration (Hold true), then the points along
// it until the arm is at rest. While idle it returns nothing. A returned
// error says why a motion stopped. The target's slices are reused by the
// next call.
func (c *Controller) Step(now time.Time) (t JointTarget, ok bool, err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	switch c.mode {
	case Idle:
		if c.holdPending {
			c.holdPending = false
			return c.hold(now, c.target), true, nil
		}
		return JointTarget{}, false, nil
	case Stopping:
		t, ok = c.stepBrake(now)
		return t, ok, nil
	}
	switch {
	case now.Sub(c.beat) > c.timeout:
		c.startBrake(now, "heartbeat timeout")
	case !c.haveState || now.Sub(c.measuredAt) > c.cfg.JointStateTimeout:
		// Where the arm is now is unknown; the deceleration starts from the
		// commanded state, which the arm follows.
		err = fmt.Errorf("jog: step: %w", ErrNoJointState)
		if c.fresh {
			c.stop("no fresh joint state")
			c.holdPending = false
			return JointTarget{}, false, err
		}
		c.startBrake(now, "no fresh joint state")
	default:
		t, ok, err = c.stepMotion(now)
		if err == nil {
			return t, ok, nil
		}
		c.startBrake(now, err.Error())
	}
	t, ok = c.stepBrake(now)
	return t, ok, err
}

// stepMotion advances the current motion by one period; the caller holds
// the lock.
func (c *Controller) stepMotion(now time.Time) (JointTarget, bool, error) {
	if c.fresh {
		copy(c.qc, c.measured)
		clear(c.vc)
		c.fresh = false
	}
	switch c.mode {
	case JointDelta:
		return c.jointDeltaStep(now)
	case JointGoal:
		if c.retarget {
			c.setTarget(c.goal, c.p.JointsGoal.Velocity, c.p.JointsGoal.Acceleration)
		}
		c.track()
		return c.goalStep(now, c.p.JointsGoal)
	case CartesianDelta:
		return c.cartesianStep(now)
	case CartesianGoal:
		goal, err := c.goalInBase(&c.cart)
		if err != nil {
			return JointTarget{}, false, err
		}
		if _, err := c.local.Solve(c.goal, goal, c.goal); err != nil {
			return JointTarget{}, false, fmt.Errorf("%w: %w", ErrUnreachable, err)
		}
		// A moving reference frame moves the goal: follow it.
		if c.retarget || control.MaxAbsDiff(c.goal, c.trk) > 1e-6 {
			c.setTarget(c.goal, c.p.CartesianGoal.Velocity, c.p.CartesianGoal.Acceleration)
		}
		c.track()
		return c.goalStep(now, c.p.CartesianGoal)
	case CartesianLine:
		return c.lineStep(now)
	}
	return JointTarget{}, false, nil
}

// jointDeltaStep moves toward the current step target, step_joints ahead
// along the direction; the next one is taken when the commanded joints
// are within joints_delta_blending of it (command type PTPCP), or once
// they are there at rest (PTP).
func (c *Controller) jointDeltaStep(now time.Time) (JointTarget, bool, error) {
	ms := c.p.JointsDelta
	step := control.ScaledStep(c.p.StepJoints, c.speed, c.p.StepScaleJoints)
	if c.retarget {
		c.nextJointStep(c.qc, step)
	}
	c.track()
	if ms.CommandType != CommandPTPCP || ms.Blending == 0 {
		if c.arrived {
			c.takePending()
			c.nextJointStep(c.trk, step)
		}
		return c.emitCommanded(now), true, nil
	}
	// Blended: the next step target is taken within the blending radius,
	// or earlier if the profile would otherwise start braking for this
	// one, so the arm cruises through the targets at its speed.
	dt := c.period.Seconds()
	for range 64 {
		if !control.NearTarget(c.qc, c.vc, c.trk, c.ta, ms.Blending, dt) {
			break
		}
		c.takePending()
		c.nextJointStep(c.trk, step)
		if !c.stepMoved {
			break // at a joint limit
		}
	}
	return c.emitCommanded(now), true, nil
}

// takePending applies a direction that waited for the step in progress.
func (c *Controller) takePending() {
	if c.hasPending {
		copy(c.dir, c.pendingDir)
		c.hasPending = false
	}
}

// nextJointStep sets the tracker to from + step·dir, within the limits;
// moved tells whether the target changed.
func (c *Controller) nextJointStep(from []float64, step float64) {
	control.JointStep(c.goal, from, c.dir, step, c.lo, c.hi)
	c.stepMoved = control.MaxAbsDiff(c.goal, c.trk) > 0
	if c.stepMoved || c.retarget {
		c.setTarget(c.goal, c.p.JointsDelta.Velocity, c.p.JointsDelta.Acceleration)
	}
}

// goalStep ends an absolute goal move, or goes on to the next queued
// goal: once the commanded joints are at the goal at rest (and, for the
// last goal, the measured ones within Config.GoalTolerance), or within
// the blending radius of it with command type PTPCP.
func (c *Controller) goalStep(now time.Time, ms MoveSettings) (JointTarget, bool, error) {
	if len(c.queue) > 0 {
		blend := c.arrived
		cmd := ms.CommandType
		if c.mode == CartesianGoal {
			cmd = c.goalCmd // the command type the goal was started with
		}
		if !blend && cmd == CommandPTPCP && ms.Blending > 0 {
			if c.mode == CartesianGoal {
				tool, err1 := c.chain.FK(c.qc)
				goal, err2 := c.chain.FK(c.trk)
				if err1 == nil && err2 == nil {
					d, _ := geom.Distance(tool, goal)
					blend = d <= ms.Blending
				}
			} else {
				blend = control.MaxAbsDiff(c.qc, c.trk) <= ms.Blending
			}
		}
		if blend {
			next := c.queue[0]
			c.queue = append(c.queue[:0], c.queue[1:]...)
			copy(c.goal, next.goal)
			c.mode, c.cart, c.speed, c.retarget, c.goalCmd = next.mode, next.cart, next.speed, true, next.cmd
		}
		return c.emitCommanded(now), true, nil
	}
	return c.finish(now, c.goal)
}

// finish ends a move at its goal once the final point (at rest) has been
// sent and the measured joints are within Config.GoalTolerance of it;
// until then it sends the commanded point.
func (c *Controller) finish(now time.Time, goal []float64) (JointTarget, bool, error) {
	if c.arrived && c.finalSent && control.MaxAbsDiff(c.measured, goal) <= c.cfg.GoalTolerance {
		c.mode, c.reason = Idle, "goal reached"
		return JointTarget{}, false, nil
	}
	c.finalSent = c.arrived
	return c.emitCommanded(now), true, nil
}

// setTarget points the joint tracker at goal with velocityPercent of each
// joint's velocity limit (times the speed override) and
// accelerationPercent of its acceleration limit, the joints synchronised
// from rest (control.TrackLimits). The caller holds the lock.
func (c *Controller) setTarget(goal []float64, velocityPercent, accelerationPercent float64) {
	c.retarget, c.arrived, c.finalSent = false, false, false
	copy(c.trk, goal)
	control.TrackLimits(c.tv, c.ta, c.qc, c.vc, goal, c.vmax, c.amax, velocityPercent, accelerationPercent, c.speed)
}

// lineStep advances along the line of a LIN goal by one period; the
// caller holds the lock.
func (c *Controller) lineStep(now time.Time) (JointTarget, bool, error) {
	lp := c.path
	var done bool
	c.ps, c.pv, done = lp.Advance(c.ps, c.pv, c.period.Seconds())
	c.pk = lp.Point(c.ps, c.pv, c.pk, c.qc, c.vc)
	if done {
		copy(c.qc, lp.End())
		clear(c.vc)
	}
	c.arrived = done
	return c.finish(now, lp.End())
}

// track advances every joint one period toward the tracker's target.
func (c *Controller) track() {
	c.arrived = control.TrackStep(c.qc, c.vc, c.qc, c.vc, c.trk, c.tv, c.ta, c.lo, c.hi, c.period.Seconds())
}
