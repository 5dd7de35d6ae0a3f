package jog

import (
	"fmt"
	"math"
	"time"

	"github.com/telebridge/telebridge/pkg/jog/control"
)

// Starting joint moves, and what every start does (begin, the goal queue).

// StartJointMove starts an absolute or incremental joint move at now (it
// counts as a heartbeat). Errors wrap ErrRequest; the previous motion
// then goes on unchanged. An absolute goal arriving during an absolute
// goal move with joints_goal_replace false waits behind it (at most 16);
// otherwise the new move takes over from the current velocities.
func (c *Controller) StartJointMove(now time.Time, req JointMoveRequest) error {
	if err := checkSpeed(req.Speed); err != nil {
		return fmt.Errorf("jog: start joint move: %w", err)
	}
	n := len(c.dir)
	if len(req.JointValues) != n {
		return fmt.Errorf("jog: start joint move: %w: %d joint values for %d joints", ErrRequest, len(req.JointValues), n)
	}
	var norm float64
	for i, v := range req.JointValues {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("jog: start joint move: %w: joint %q value %g", ErrRequest, c.names[i], v)
		}
		norm += v * v
	}
	norm = math.Sqrt(norm)
	c.mu.Lock()
	defer c.mu.Unlock()
	if req.MoveDelta {
		if norm == 0 {
			return fmt.Errorf("jog: start joint move: %w: zero direction", ErrRequest)
		}
		if c.mode == JointDelta && !c.p.JointsDelta.Replace {
			// The step in progress is finished first.
			for i, v := range req.JointValues {
				c.pendingDir[i] = v / norm
			}
			c.hasPending, c.beat, c.speed = true, now, req.Speed
			return nil
		}
		for i, v := range req.JointValues {
			c.dir[i] = v / norm
		}
		c.begin(now, JointDelta, req.Speed)
		return nil
	}
	for i, v := range req.JointValues { // all checked before any is taken
		if v < c.lo[i]-1e-9 || v > c.hi[i]+1e-9 {
			return fmt.Errorf("jog: start joint move: %w: joint %q goal %g not in [%g, %g]", ErrRequest, c.names[i], v, c.lo[i], c.hi[i])
		}
	}
	goal := make([]float64, n)
	for i, v := range req.JointValues {
		goal[i] = math.Max(c.lo[i], math.Min(c.hi[i], v))
	}
	if c.enqueue(now, c.p.JointsGoal.Replace, queued{mode: JointGoal, goal: goal, speed: req.Speed}) {
		return nil
	}
	copy(c.goal, goal)
	c.begin(now, JointGoal, req.Speed)
	return nil
}

// enqueue queues an absolute goal behind the current goal move if
// replace is off and one is running (it counts as a heartbeat); it
// reports whether it did. The caller holds the lock.
func (c *Controller) enqueue(now time.Time, replace bool, q queued) bool {
	if replace || (c.mode != JointGoal && c.mode != CartesianGoal && c.mode != CartesianLine) || len(c.queue) >= maxQueue {
		return false
	}
	c.queue = append(c.queue, q)
	c.beat = now
	return true
}

// begin switches to a new motion; the caller holds the lock. From rest
// the motion starts at the measured joints; during a motion or a stop it
// continues from the commanded position and velocity.
func (c *Controller) begin(now time.Time, m Mode, speed float64) {
	if c.mode == Idle {
		c.fresh = true
	}
	c.mode, c.speed, c.beat, c.reason = m, speed, now, ""
	c.relType = ""
	if m == CartesianDelta && control.IsRelative(c.p.CartesianDelta.CommandType) {
		c.relType = c.p.CartesianDelta.CommandType
	}
	c.havePose, c.holdPending, c.hasPending, c.retarget = false, false, false, true
	c.haveCur, c.havePend = false, false
	c.queue = c.queue[:0]
}
