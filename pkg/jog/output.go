package jog

import "time"

// JointTarget is one command to the arm, shaped for a
// trajectory_msgs/JointTrajectory with a single point: reach Positions
// TimeFromStart after Stamp.
type JointTarget struct {
	// Stamp is when the target was computed (the header stamp).
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
	// Hold is true for the target that ends a motion: the measured
	// position, to be held.
	Hold bool
	// Relative is set on every point of an incremental Cartesian move
	// (and its stop) when cartesian_delta_command_type is REL, RELW or
	// RELT: the same point as the increment from the tool's measured pose,
	// for a robot that takes relative Cartesian commands (see Write).
	Relative RelativeCommand
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
