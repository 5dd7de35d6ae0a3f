package jog

import (
	"fmt"
	"time"

	"github.com/telebridge/telebridge/pkg/kinematics"
	"github.com/telebridge/telebridge/pkg/rosparam"
)

// The controller's limits and parameters, read and changed live, and
// snapshots of its state.

// AccelerationLimits returns each joint's acceleration limit
// (joint_acceleration_limits, or default_joint_acceleration) [rad/s² or
// m/s²].
func (c *Controller) AccelerationLimits() []float64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]float64(nil), c.amax...)
}

// VelocityLimits returns each joint's velocity limit (the URDF's, or
// Config.DefaultVelocity) [rad/s or m/s].
func (c *Controller) VelocityLimits() []float64 {
	return append([]float64(nil), c.vmax...)
}

// Period returns the loop period, 1/update_rate.
func (c *Controller) Period() time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.period
}

// Params returns a copy of the current parameters.
func (c *Controller) Params() Params {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.p.clone()
}

// Limits returns the effective joint limits (URDF within joint_limits)
// [rad or m].
func (c *Controller) Limits() (lower, upper []float64) {
	return append([]float64(nil), c.lo...), append([]float64(nil), c.hi...)
}

// Steps returns each joint's step from joint_limits.step [rad or m]; 0
// where none is given (see JointRanges).
func (c *Controller) Steps() []float64 { return append([]float64(nil), c.steps...) }

// Chain returns the chain with the effective limits.
func (c *Controller) Chain() *kinematics.Chain { return c.chain }

// SetParam changes one parameter live. Read-only parameters (update_rate,
// robot_data.*, joint_limits.*) are refused. Errors wrap ErrParam.
func (c *Controller) SetParam(name string, v rosparam.ParameterValue) error {
	if _, err := lookup(name); err != nil {
		return err
	}
	return c.ApplyParams([]rosparam.Parameter{{Name: name, Value: v}})
}

// ApplyParams applies a live change of parameters (rosparam's OnChange),
// all or nothing. Read-only parameters are refused; parameters that are
// not jog's (use_sim_time) are skipped. Errors wrap ErrParam.
func (c *Controller) ApplyParams(update []rosparam.Parameter) error {
	for _, u := range update {
		if e, err := lookup(u.Name); err == nil && e.ReadOnly {
			return fmt.Errorf("%w: %s is read-only", ErrParam, u.Name)
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	next := c.p.clone()
	if err := next.Apply(update); err != nil {
		return err
	}
	if err := CheckRelative(&next, c.cfg.Relative); err != nil {
		return err
	}
	if len(next.JointAccelerations) != 0 && len(next.JointAccelerations) != len(c.amax) {
		return fmt.Errorf("%w: %d joint_acceleration_limits for %d joints", ErrParam, len(next.JointAccelerations), len(c.amax))
	}
	c.p = next
	c.applyParams()
	return nil
}

// SetHeartbeatTimeout changes heartbeat_timeout live [s] (the
// set_heartbeat_timeout service).
func (c *Controller) SetHeartbeatTimeout(seconds float64) error {
	return c.SetParam("heartbeat_timeout", rosparam.Double(seconds))
}

// Status returns a snapshot of the controller.
func (c *Controller) Status() Status {
	c.mu.Lock()
	defer c.mu.Unlock()
	return Status{Mode: c.mode, Reason: c.reason, Speed: c.speed, Sent: c.sent, Holds: c.holds, Queued: len(c.queue)}
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
		return append([]float64(nil), c.path.End()...), true
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
