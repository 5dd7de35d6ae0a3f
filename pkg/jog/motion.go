package jog

import (
	"fmt"
	"math"
	"time"

	"github.com/telebridge/telebridge/pkg/geom"
)

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
	if m == CartesianDelta && IsRelative(c.p.CartesianDelta.CommandType) {
		c.relType = c.p.CartesianDelta.CommandType
	}
	c.havePose, c.holdPending, c.hasPending, c.retarget = false, false, false, true
	c.haveCur, c.havePend = false, false
	c.queue = c.queue[:0]
}

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
	c.brk.at(c.brk.t, c.stopTarget, c.stopVel)
	c.brakeMoved = true
	c.holds++
	t = c.emitBuf(now, max(time.Duration(c.brk.t*float64(time.Second))-now.Sub(c.brkStart), c.period), true, c.stopTarget, c.stopVel)
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
	copy(c.brk.q0, c.qc)
	copy(c.brk.v0, c.vc)
	c.brk.t = brakeTime(c.vc, c.amax, c.p.MaxStopTime)
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

func (c *Controller) emitBuf(now time.Time, d time.Duration, hold bool, pos, vel []float64) JointTarget {
	c.sent++
	c.out.Stamp, c.out.Positions, c.out.Velocities, c.out.TimeFromStart, c.out.Hold = now, pos, vel, d, hold
	c.out.Next, c.out.NextVelocities, c.out.NextTimeFromStart = nil, nil, 0
	c.out.Relative = c.relative(pos)
	return c.out
}

// relative returns the point pos as a relative command of the current
// incremental Cartesian move's type, or none; the caller holds the lock.
// The increment is taken from the measured tool, as a robot that takes
// relative commands applies it to where its tool is.
func (c *Controller) relative(pos []float64) RelativeCommand {
	if c.relType == "" || !c.haveState {
		return RelativeCommand{}
	}
	tool, err := c.chain.FK(c.measured)
	if err != nil {
		return RelativeCommand{}
	}
	target, err := c.chain.FK(pos)
	if err != nil {
		return RelativeCommand{}
	}
	rd := c.p.RobotData
	r := RelativeCommand{Type: c.relType, Frame: rd.FixedFrame}
	switch c.relType {
	case CommandRELW:
		r.Frame = rd.WorldFrame
		if w, err := c.lookup(rd.WorldFrame); err == nil {
			c.relWorld = w
		}
	case CommandRELT:
		r.Frame = rd.FlangeFrame
	}
	r.Delta, _ = RelativeDelta(c.relType, tool, target, c.relWorld) // the type is known
	return r
}

// emitCommanded sends the commanded state, due one period from now,
// and, until the motion has arrived, the profile's point one period
// later as Next.
func (c *Controller) emitCommanded(now time.Time) JointTarget {
	copy(c.target, c.qc)
	copy(c.velocity, c.vc)
	t := c.emitBuf(now, c.period, false, c.target, c.velocity)
	if !c.arrived {
		c.lookahead()
		t.Next, t.NextVelocities, t.NextTimeFromStart = c.next, c.nextVel, 2*c.period
	}
	return t
}

// lookahead writes into c.next and c.nextVel the point the current
// profile reaches one period after the commanded one, without changing
// the controller's state; the caller holds the lock.
func (c *Controller) lookahead() {
	dt := c.period.Seconds()
	if c.mode == CartesianLine {
		lp := c.path
		s, sv, _ := axisStep(c.ps, c.pv, lp.length, lp.vmax, lp.amax, dt)
		c.linePoint(s, sv, c.pk, c.next, c.nextVel)
		return
	}
	for i := range c.qc {
		q, v, _ := axisStep(c.qc[i], c.vc[i], c.trk[i], c.tv[i], c.ta[i], dt)
		c.next[i], c.nextVel[i] = math.Max(c.lo[i], math.Min(c.hi[i], q)), v
	}
}

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

// stepBrake returns the rest point of the stop once (ok true), then
// nothing: the rest point with zero velocity at the braking time is the
// whole deceleration for a trajectory controller, and a position
// controller heads straight for it. Meanwhile the commanded state follows
// the deceleration, so that a new move takes over from it. The caller
// holds the lock.
func (c *Controller) stepBrake(now time.Time) (JointTarget, bool) {
	if !c.brakeMoved {
		c.brakeMoved = true
		c.brk.at(c.brk.t, c.target, c.velocity)
		c.holds++
		if c.brk.t == 0 {
			c.mode = Idle
			copy(c.qc, c.target)
			clear(c.vc)
		}
		return c.emitBuf(now, max(time.Duration(c.brk.t*float64(time.Second)), c.period), true, c.target, c.velocity), true
	}
	s := now.Sub(c.brkStart).Seconds()
	c.brk.at(s, c.qc, c.vc)
	if s >= c.brk.t-1e-9 { // the arm is at rest now
		c.mode = Idle
	}
	return JointTarget{}, false
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
		if c.retarget || maxAbsDiff(c.goal, c.trk) > 1e-6 {
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
	step := c.p.StepJoints
	if c.p.StepScaleJoints {
		step *= c.speed
	}
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
		near := true
		for i, q := range c.qc {
			reach := ms.Blending
			if c.ta[i] > 0 {
				reach = math.Max(reach, c.vc[i]*c.vc[i]/(2*c.ta[i])+2*math.Abs(c.vc[i])*dt)
			}
			if math.Abs(c.trk[i]-q) > reach {
				near = false
				break
			}
		}
		if !near {
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
	for i, d := range c.dir {
		c.goal[i] = math.Max(c.lo[i], math.Min(c.hi[i], from[i]+step*d))
	}
	c.stepMoved = maxAbsDiff(c.goal, c.trk) > 0
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
				blend = maxAbsDiff(c.qc, c.trk) <= ms.Blending
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
	if c.arrived && c.finalSent && maxAbsDiff(c.measured, goal) <= c.cfg.GoalTolerance {
		c.mode, c.reason = Idle, "goal reached"
		return JointTarget{}, false, nil
	}
	c.finalSent = c.arrived
	return c.emitCommanded(now), true, nil
}

// setTarget points the joint tracker at goal with velocityPercent of each
// joint's velocity limit (times the speed override) and
// accelerationPercent of its acceleration limit. From rest the joints'
// limits are scaled to their distances so that all start, accelerate,
// brake and arrive together (a synchronised trapezoid); in motion every
// joint may use its whole acceleration limit to turn to the new goal.
// The caller holds the lock.
func (c *Controller) setTarget(goal []float64, velocityPercent, accelerationPercent float64) {
	c.retarget, c.arrived, c.finalSent = false, false, false
	copy(c.trk, goal)
	vs, as := math.Inf(1), math.Inf(1)
	moving := false
	for i, g := range goal {
		if d := math.Abs(g - c.qc[i]); d > 0 {
			vs = math.Min(vs, c.vmax[i]*velocityPercent/100*c.speed/d)
			as = math.Min(as, c.amax[i]*accelerationPercent/100/d)
		}
		if c.vc[i] != 0 {
			moving = true
		}
	}
	for i, g := range goal {
		vi := c.vmax[i] * velocityPercent / 100 * c.speed
		ai := c.amax[i] * accelerationPercent / 100
		d := math.Abs(g - c.qc[i])
		c.tv[i], c.ta[i] = vs*d, as*d
		if math.IsInf(vs, 1) {
			c.tv[i], c.ta[i] = 0, 0
		}
		if moving {
			// Let a joint that must turn or brake use its own limits, and
			// keep a little speed for it to come back.
			c.ta[i] = ai
			c.tv[i] = math.Max(c.tv[i], 0.05*vi)
		}
		c.tv[i] = math.Min(c.tv[i], vi)
		c.ta[i] = math.Min(c.ta[i], ai)
	}
}

// track advances every joint one period toward the tracker's target.
func (c *Controller) track() {
	dt := c.period.Seconds()
	all := true
	for i := range c.qc {
		var done bool
		c.qc[i], c.vc[i], done = axisStep(c.qc[i], c.vc[i], c.trk[i], c.tv[i], c.ta[i], dt)
		all = all && done
		// The profile brakes before the target, which is within the
		// limits; this only absorbs rounding.
		c.qc[i] = math.Max(c.lo[i], math.Min(c.hi[i], c.qc[i]))
	}
	c.arrived = all
}

func maxAbsDiff(a, b []float64) float64 {
	var m float64
	for i := range a {
		m = math.Max(m, math.Abs(a[i]-b[i]))
	}
	return m
}

// Target returns the joint target the profile is heading for (the
// current step target of an incremental move, the goal of an absolute
// one, the end of a line) [rad or m]; ok is false while idle or stopping.
func (c *Controller) Target() (q []float64, ok bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	switch c.mode {
	case Idle, Stopping:
		return nil, false
	case CartesianLine:
		return append([]float64(nil), c.path.q[len(c.path.q)-c.path.n:]...), true
	}
	if c.fresh || c.retarget {
		return nil, false // set by the next Step
	}
	return append([]float64(nil), c.trk...), true
}

// Commanded returns the commanded joint positions [rad or m] and
// velocities [rad/s or m/s]: the point last sent.
func (c *Controller) Commanded() (q, v []float64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]float64(nil), c.qc...), append([]float64(nil), c.vc...)
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
