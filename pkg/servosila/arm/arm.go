package arm

import (
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/telebridge/telebridge/pkg/jog"
	"github.com/telebridge/telebridge/pkg/servosila"
	"github.com/telebridge/telebridge/pkg/servosila/control"
	"github.com/telebridge/telebridge/pkg/servosila/wire"
)

// Errors callers branch on.
var (
	// ErrNoTelemetry: no telemetry has reported the arm's joints yet.
	ErrNoTelemetry = errors.New("servosilaarm: no joint telemetry")
	// ErrTarget: a joint target that does not fit the arm (names, length,
	// NaN); nothing was commanded.
	ErrTarget = errors.New("servosilaarm: bad joint target")
)

// Config configures an Arm.
type Config struct {
	// Driver is the robot link. Required; the caller runs it (Run) and
	// closes it.
	Driver *servosila.Driver
	// Joints names the chain's joints in chain order (the URDF's joint
	// names as jog sees them), each one of the robot's position-controlled
	// joints: "waist", "shoulder", "elbow", "neck". Default: those four in
	// that order.
	Joints []string
}

// Arm is a Servosila arm behind the jog.Arm interface.
type Arm struct {
	drv    *servosila.Driver
	names  []string
	joints []wire.Joint
}

// New validates cfg and returns the arm.
func New(cfg Config) (*Arm, error) {
	if cfg.Driver == nil {
		return nil, errors.New("servosilaarm: new: no driver")
	}
	if len(cfg.Joints) == 0 {
		for _, j := range wire.ArmJoints {
			cfg.Joints = append(cfg.Joints, j.String())
		}
	}
	a := &Arm{drv: cfg.Driver, names: append([]string(nil), cfg.Joints...)}
	seen := map[wire.Joint]bool{}
	for _, name := range cfg.Joints {
		j, err := wire.ParseJoint(name)
		if err != nil {
			return nil, fmt.Errorf("servosilaarm: new: %w", err)
		}
		if !isArmJoint(j) {
			return nil, fmt.Errorf("servosilaarm: new: joint %q has no position control (only waist, shoulder, elbow, neck)", name)
		}
		if seen[j] {
			return nil, fmt.Errorf("servosilaarm: new: joint %q twice", name)
		}
		seen[j] = true
		a.joints = append(a.joints, j)
	}
	return a, nil
}

func bad(v float64) bool { return math.IsNaN(v) || math.IsInf(v, 0) }

func isArmJoint(j wire.Joint) bool {
	for _, a := range wire.ArmJoints {
		if a == j {
			return true
		}
	}
	return false
}

// JointNames returns the arm's joint names, in order.
func (a *Arm) JointNames() []string { return append([]string(nil), a.names...) }

// JointPositions implements jog.JointSource: the joint angles of the
// latest telemetry [rad] in the arm's order, and when it arrived. It
// fails with ErrNoTelemetry before the first telemetry or when a joint's
// motor record is missing. It allocates nothing.
func (a *Arm) JointPositions(dst []float64) (time.Time, error) {
	if len(dst) != len(a.joints) {
		return time.Time{}, fmt.Errorf("servosilaarm: joint positions: %d values for %d joints", len(dst), len(a.joints))
	}
	pos, at, ok := a.drv.JointPositions()
	if !ok {
		return time.Time{}, ErrNoTelemetry
	}
	for i, j := range a.joints {
		if math.IsNaN(pos[j]) {
			return time.Time{}, fmt.Errorf("%w: no record of %s", ErrNoTelemetry, j)
		}
		dst[i] = pos[j]
	}
	return at, nil
}

// WriteJointTarget implements jog.Output. A point of a profile (with
// velocities) is followed: each joint's velocity output is the point's
// velocity plus the driver's gain times its distance to the reference
// through the point (due at t.Stamp + t.TimeFromStart) and on to t.Next,
// so the robot keeps up with the profile instead of trailing it by
// velocity / gain (control.ArmController.Follow). A rest point (Hold) or
// a target without velocities becomes every joint's position target. The
// names must be the arm's, in order; a target that does not fit is
// refused whole (ErrTarget). A target the driver refuses (beyond its
// limits, e-stop latched) is reported, the joints before it having been
// commanded.
func (a *Arm) WriteJointTarget(t jog.JointTarget) error {
	if len(t.JointNames) != len(a.names) || len(t.Positions) != len(a.names) {
		return fmt.Errorf("%w: %d names and %d positions for %d joints", ErrTarget, len(t.JointNames), len(t.Positions), len(a.names))
	}
	for i, name := range t.JointNames {
		if name != a.names[i] {
			return fmt.Errorf("%w: joint %d is %q, want %q", ErrTarget, i, name, a.names[i])
		}
		if v := t.Positions[i]; bad(v) {
			return fmt.Errorf("%w: joint %q target %g", ErrTarget, name, v)
		}
		for _, vs := range [...][]float64{t.Velocities, t.Next, t.NextVelocities} {
			if i < len(vs) && bad(vs[i]) {
				return fmt.Errorf("%w: joint %q velocity or next point %g", ErrTarget, name, vs[i])
			}
		}
	}
	if t.Hold || len(t.Velocities) != len(a.names) {
		for i, j := range a.joints {
			if err := a.drv.SetJointTarget(j, t.Positions[i]); err != nil {
				return fmt.Errorf("servosilaarm: joint %s target: %w", j, err)
			}
		}
		return nil
	}
	// A point of a profile: the joints follow it with its velocities fed
	// forward, on to the next point when there is one.
	stamp := t.Stamp
	if stamp.IsZero() {
		stamp = time.Now()
	}
	withNext := len(t.Next) == len(a.names) && len(t.NextVelocities) == len(a.names)
	for i, j := range a.joints {
		p := control.TrajectoryPoint{Position: t.Positions[i], Velocity: t.Velocities[i], Due: stamp.Add(t.TimeFromStart)}
		var next control.TrajectoryPoint
		if withNext {
			next = control.TrajectoryPoint{Position: t.Next[i], Velocity: t.NextVelocities[i], Due: stamp.Add(t.NextTimeFromStart)}
		}
		if err := a.drv.FollowJointTrajectory(j, p, next); err != nil {
			return fmt.Errorf("servosilaarm: joint %s trajectory: %w", j, err)
		}
	}
	return nil
}
