package jog

import (
	"errors"
	"fmt"
	"time"

	"github.com/telebridge/telebridge/pkg/geom"
	"github.com/telebridge/telebridge/pkg/jog/control"
	"github.com/telebridge/telebridge/pkg/tf"
	"gonum.org/v1/gonum/spatial/r3"
)

// StartCartesianMove starts an absolute or incremental Cartesian move at
// now (it counts as a heartbeat). An absolute goal is solved at once: if
// it is out of reach or its frame unknown the request fails (wrapping
// ErrUnreachable or ErrFrame) and the previous motion goes on unchanged.
func (c *Controller) StartCartesianMove(now time.Time, req CartesianMoveRequest) error {
	if err := checkSpeed(req.Speed); err != nil {
		return fmt.Errorf("jog: start cartesian move: %w", err)
	}
	if !req.Pose.finite() || (req.UseReferenceFrame && !req.ReferenceFrame.finite()) {
		return fmt.Errorf("jog: start cartesian move: %w: non-finite pose", ErrRequest)
	}
	if req.PoseReference == "" {
		req.PoseReference = c.Params().RobotData.WorldFrame
	}
	if !req.MoveDelta {
		return c.startCartesianGoal(now, req)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	p := r3.Vec{X: req.Pose.X, Y: req.Pose.Y, Z: req.Pose.Z}
	r := r3.Vec{X: req.Pose.RX, Y: req.Pose.RY, Z: req.Pose.RZ}
	if r3.Norm(p) == 0 && r3.Norm(r) == 0 {
		return fmt.Errorf("jog: start cartesian move: %w: zero direction", ErrRequest)
	}
	if _, err := c.referenceFrame(&req, geom.Identity()); err != nil {
		return fmt.Errorf("jog: start cartesian move: %w", err)
	}
	if c.mode == CartesianDelta && !c.p.CartesianDelta.Replace && c.havePose {
		// The target in progress stays; the new direction applies from the
		// next one.
		c.dirP, c.dirR = control.Unit(p), control.Unit(r)
		c.cart, c.beat, c.speed = req, now, req.Speed
		return nil
	}
	c.dirP, c.dirR = control.Unit(p), control.Unit(r)
	c.cart = req
	c.begin(now, CartesianDelta, req.Speed)
	return nil
}

// startCartesianGoal solves an absolute goal outside the controller's
// lock, so the loop keeps its rhythm during a long search, and commits it
// only if it succeeds. Lock order: c.req, then c.mu. The command type
// (cartesian_goal_command_type_translational_movement, or
// _rotational_movement when the goal only turns the tool) selects a
// point-to-point move (PTP, PTPCP) or the straight line (LIN).
func (c *Controller) startCartesianGoal(now time.Time, req CartesianMoveRequest) error {
	c.req.Lock()
	defer c.req.Unlock()
	c.mu.Lock()
	if !c.haveState {
		c.mu.Unlock()
		return fmt.Errorf("jog: start cartesian move: %w", ErrNoJointState)
	}
	goal, err := c.goalInBase(&req)
	copy(c.reqSeed, c.measured)
	seedFromQueue := len(c.queue) > 0 && !c.p.CartesianGoal.Replace
	if seedFromQueue {
		copy(c.reqSeed, c.queue[len(c.queue)-1].goal)
	} else if !c.p.CartesianGoal.Replace && (c.mode == JointGoal || c.mode == CartesianGoal) {
		copy(c.reqSeed, c.goal)
	}
	start, ferr := c.chain.FK(c.reqSeed)
	p := c.p
	copy(c.reqAmax, c.amax) // applyParams writes c.amax under mu
	idle := c.mode == Idle
	c.mu.Unlock()
	if err != nil {
		return fmt.Errorf("jog: start cartesian move: %w", err)
	}
	if ferr != nil {
		return fmt.Errorf("jog: start cartesian move: %w", ferr)
	}
	cmd := p.CartesianGoalCommandTypeTranslational
	if d, _ := geom.Distance(start, goal); d < control.LinMinTranslation {
		cmd = p.CartesianGoalCommandTypeRotational
	}
	if cmd == CommandLIN {
		if !idle {
			return fmt.Errorf("jog: start cartesian move: %w: a LIN goal starts from rest: stop the current motion (%v) first", ErrRequest, c.Status().Mode)
		}
		path, err := control.PlanLine(c.chain, c.line, c.reqSeed, goal, c.vmax, c.reqAmax, p.CartesianGoalLinVelocity*req.Speed, p.CartesianGoalLinAcceleration)
		if err != nil {
			return fmt.Errorf("jog: start cartesian move: %w", err)
		}
		c.mu.Lock()
		defer c.mu.Unlock()
		if c.mode != Idle || control.MaxAbsDiff(c.measured, path.Start()) > 10*c.cfg.GoalTolerance {
			return fmt.Errorf("jog: start cartesian move: %w: the arm moved while the line was planned", ErrRequest)
		}
		c.cart = req
		c.begin(now, CartesianLine, req.Speed)
		c.path, c.ps, c.pv, c.pk = path, 0, 0, 0
		c.arrived, c.finalSent = false, false
		return nil
	}
	if _, err := c.solver.Solve(c.reqSol, goal, c.reqSeed); err != nil {
		return fmt.Errorf("jog: start cartesian move: %w: %w", ErrUnreachable, err)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.enqueue(now, c.p.CartesianGoal.Replace, queued{cmd: cmd, mode: CartesianGoal, goal: append([]float64(nil), c.reqSol...), cart: req, speed: req.Speed}) {
		return nil
	}
	copy(c.goal, c.reqSol)
	c.cart = req
	c.begin(now, CartesianGoal, req.Speed)
	c.goalCmd = cmd
	return nil
}

// errNoTF is why a frame is unknown without a tf source (a variable: the
// lookup runs every cycle and allocates nothing).
var errNoTF = errors.New("no tf source")

// lookup returns T_base_frame; the caller holds the lock. The tf source
// is asked first; when it has no tf, or does not know one of the two
// frames (tf.ErrUnknownFrame: nobody publishes the world frame or the
// robot's links), the world frame is taken to be the base and the flange
// frame comes from the forward kinematics of the measured joints.
func (c *Controller) lookup(frame string) (geom.Transform, error) {
	rd := c.p.RobotData
	if frame == rd.FixedFrame || frame == c.chain.Base {
		return geom.Identity(), nil
	}
	cause := errNoTF
	if c.frames != nil {
		t, err := c.frames.Lookup(rd.FixedFrame, frame, time.Time{})
		if err == nil {
			return t, nil
		}
		if !errors.Is(err, tf.ErrUnknownFrame) {
			return geom.Transform{}, fmt.Errorf("%w: %w", ErrFrame, err)
		}
		cause = err
	}
	if frame == rd.WorldFrame {
		return geom.Identity(), nil // the world is the base
	}
	if frame == rd.FlangeFrame || frame == c.chain.TipName {
		return c.chain.FK(c.measured)
	}
	return geom.Transform{}, fmt.Errorf("%w: %q: %w", ErrFrame, frame, cause)
}

// goalInBase returns T_base_goal of an absolute request:
// T_base_ref * T_ref_extra * T_extra_pose. The caller holds the lock.
func (c *Controller) goalInBase(req *CartesianMoveRequest) (geom.Transform, error) {
	ref, err := c.lookup(req.PoseReference)
	if err != nil {
		return geom.Transform{}, err
	}
	return CartesianGoalInBase(ref, *req), nil
}

// CartesianGoalInBase composes an absolute request's goal in the robot
// base from baseToRef, the pose of the request's PoseReference frame in
// the base: baseToRef * ReferenceFrame (if used) * Pose. This is the
// drag&bot rule: the goal (0,0,0.01,0,0,0) in the extra frame
// (-2,0,2,0,0,0) on a frame A at (1,0,0,0,0,0) in the base is
// (-1,0,2.01,0,0,0) in the base.
func CartesianGoalInBase(baseToRef geom.Transform, req CartesianMoveRequest) geom.Transform {
	var extra *geom.Transform
	if req.UseReferenceFrame {
		e := req.ReferenceFrame.Transform()
		extra = &e
	}
	return control.GoalInBase(baseToRef, extra, req.Pose.Transform())
}

// referenceFrame returns the frame in which an incremental step is
// expressed, T_base_F. For the world and fixed frames its origin is the
// tool's (the step turns about the tool) and its axes are the frame's;
// otherwise it is the frame itself. The extra frame is applied after.
func (c *Controller) referenceFrame(req *CartesianMoveRequest, tool geom.Transform) (geom.Transform, error) {
	ref, err := c.lookup(req.PoseReference)
	if err != nil {
		return geom.Transform{}, err
	}
	if req.UseReferenceFrame {
		ref = ref.Mul(req.ReferenceFrame.Transform())
	}
	rd := c.p.RobotData
	if req.PoseReference == rd.WorldFrame || req.PoseReference == rd.FixedFrame {
		ref.Translation = tool.Translation
	}
	return ref, nil
}

// cartesianStep computes the next incremental Cartesian target when it
// is due and moves the joints toward it; the caller holds the lock. A
// target is due once the measured tool is within step_*_factor of a step
// of the last one computed. With cartesian_delta_replace it replaces the
// current target at once; without, it waits until the commanded tool is
// within the blending radius of the current target
// (cartesian_delta_blending [m], or cartesian_delta_blending_rot [rad] for
// rotation-only moves; 0: the arm stops at every target).
func (c *Controller) cartesianStep(now time.Time) (JointTarget, bool, error) {
	ms := c.p.CartesianDelta
	acc, blend := ms.Acceleration, ms.Blending
	rotOnly := c.dirP == (r3.Vec{})
	if rotOnly {
		acc, blend = c.p.CartesianDeltaAccelerationRot, c.p.CartesianDeltaBlendingRot
	}
	tool, err := c.chain.FK(c.measured)
	if err != nil {
		return JointTarget{}, false, err
	}
	stepT := control.ScaledStep(c.p.StepTranslation, c.speed, c.p.StepScaleCartesian)
	stepR := control.ScaledStep(c.p.StepRotation, c.speed, c.p.StepScaleCartesian)
	due := true
	if c.havePose {
		// Recompute only once the tool is close enough to the last target
		// (1e-9 absorbs rounding when the factor is 1 and the arm has not
		// moved at all).
		dT, dR := geom.Distance(tool, c.lastPose)
		due = dT <= c.p.StepTranslationFactor*stepT+1e-9 && dR <= c.p.StepRotationFactor*stepR+1e-9
	}
	replace := ms.Replace || !c.haveCur
	if due && (replace || !c.havePend) {
		next, ok, err := c.nextCartesianTarget(tool, stepT, stepR)
		if err != nil {
			return JointTarget{}, false, err
		}
		if ok && replace {
			c.curPose, c.haveCur = next, true
			c.setTarget(c.goal, ms.Velocity, acc)
		} else if ok {
			copy(c.pend, c.goal)
			c.pendPose, c.havePend = next, true
		}
	}
	if c.havePend {
		// Blend into the waiting target near the current one.
		cmd, err := c.chain.FK(c.qc)
		if err != nil {
			return JointTarget{}, false, err
		}
		dT, dR := geom.Distance(cmd, c.curPose)
		if c.arrived || (rotOnly && dR <= blend) || (!rotOnly && dT <= blend) {
			copy(c.goal, c.pend)
			c.curPose, c.havePend = c.pendPose, false
			c.setTarget(c.goal, ms.Velocity, acc)
		}
	}
	c.track()
	return c.emitCommanded(now), true, nil
}

// nextCartesianTarget computes the pose one step ahead of the tool and
// solves it from the measured joints into c.goal; ok is false if it is
// within min_translation_step and min_rotation_step of the last one.
func (c *Controller) nextCartesianTarget(tool geom.Transform, stepT, stepR float64) (geom.Transform, bool, error) {
	f, err := c.referenceFrame(&c.cart, tool)
	if err != nil {
		return geom.Transform{}, false, err
	}
	next := control.StepPose(f, tool, c.dirP, c.dirR, stepT, stepR)
	if c.havePose {
		if dT, dR := geom.Distance(next, c.lastPose); dT <= c.p.MinTranslationStep && dR <= c.p.MinRotationStep {
			return geom.Transform{}, false, nil
		}
	}
	if _, err := c.local.Solve(c.goal, next, c.measured); err != nil {
		return geom.Transform{}, false, fmt.Errorf("%w: %w", ErrUnreachable, err)
	}
	c.lastPose, c.havePose = next, true
	return next, true, nil
}
