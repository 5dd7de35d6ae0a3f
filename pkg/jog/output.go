package jog

import (
	"errors"
	"fmt"
	"time"

	"github.com/telebridge/telebridge/pkg/jog/control"
)

// JointTarget is one command to the arm, shaped for a
// trajectory_msgs/JointTrajectory: reach Positions TimeFromStart after
// Stamp, then, if Next is set, go on to Next by NextTimeFromStart.
type JointTarget struct {
	// Stamp is the instant TimeFromStart counts from: the cycle's time as
	// Controller.Step was given it, which Runner sets to the loop tick's
	// deadline, so that the points of successive cycles lie exactly one
	// period apart whatever the loop's latency.
	Stamp time.Time
	// JointNames are the chain's moving joints, base to tip.
	JointNames []string
	// Positions are the joint targets [rad, or m for prismatic joints],
	// always within the joint limits.
	Positions []float64
	// Velocities are the joint velocities at the point [rad/s or m/s]
	// (the profile's), so that a trajectory controller interpolates the
	// profile between points; nil means none (positions only).
	Velocities []float64
	// TimeFromStart is when the point should be reached [s].
	TimeFromStart time.Duration
	// Next is the profile's point one period after this one [rad or m],
	// with NextVelocities [rad/s or m/s], due NextTimeFromStart after
	// Stamp: where the arm goes on if the next target arrives late, so
	// that a late target does not stop the arm at this point (a
	// trajectory controller holds the last point of a trajectory). A
	// newer target replaces it. It is the current profile carried one
	// cycle on; a retarget in the next cycle (a blended step, a new goal)
	// changes that point. nil on a rest point (Hold) and once the motion
	// has arrived.
	Next, NextVelocities []float64
	NextTimeFromStart    time.Duration
	// Hold is true for the target that ends a motion: the measured
	// position, to be held.
	Hold bool
	// Relative is set on every point of an incremental Cartesian move
	// (and its stop) when cartesian_delta_command_type is REL, RELW or
	// RELT: the same point as the increment from the tool's measured pose,
	// for a robot that takes relative Cartesian commands (see Write).
	Relative control.RelativeCommand
}

// Output receives the joint targets. The ROS 2 layer publishes them as
// JointTrajectory messages; an arm adapter (such as the Servosila arm)
// turns them into its own commands. WriteJointTarget may be called from
// the loop goroutine and from a Stop caller, never concurrently (Runner
// serialises the calls). The target's slices are only valid during the
// call: copy what must be kept.
type Output interface {
	WriteJointTarget(JointTarget) error
}

// JointSource gives the arm's measured joint positions, in chain order
// [rad, or m]. It writes them into dst (len DOF) and returns when they
// were measured.
type JointSource interface {
	JointPositions(dst []float64) (time.Time, error)
}

// Arm is a robot arm the jog loop drives directly, without ROS 2: it
// reports its joints and takes joint targets. The Servosila arm adapter
// and the simulated arm (package armsim) implement it.
type Arm interface {
	JointSource
	Output
}

// ErrRelativeOutput is wrapped when a relative command type is set for an
// arm whose output takes joint targets only.
var ErrRelativeOutput = errors.New("jog: the arm output takes joint targets only")

// RelativeOutput is an Output for a robot that also takes relative
// Cartesian commands: WriteRelativeTarget gets the targets whose Relative
// is set (their joint positions and velocities are the same point, for a
// robot that wants both).
type RelativeOutput interface {
	Output
	WriteRelativeTarget(JointTarget) error
}

// Write sends t to out: as a relative command if t.Relative is set and
// out takes them, else as a joint target.
func Write(out Output, t JointTarget) error {
	if t.Relative.Type != "" {
		if ro, ok := out.(RelativeOutput); ok {
			return ro.WriteRelativeTarget(t)
		}
		return fmt.Errorf("%w: cannot send a %s command", ErrRelativeOutput, t.Relative.Type)
	}
	return out.WriteJointTarget(t)
}
