package trajectory

import (
	"fmt"
	"time"
)

// Code is a control_msgs/action/FollowJointTrajectory result code.
type Code int32

// The result codes of control_msgs/action/FollowJointTrajectory.
const (
	Successful            Code = 0
	InvalidGoal           Code = -1
	InvalidJoints         Code = -2
	OldHeaderTimestamp    Code = -3
	PathToleranceViolated Code = -4
	GoalToleranceViolated Code = -5
)

// String returns the code's constant name in the action definition.
func (c Code) String() string {
	switch c {
	case Successful:
		return "SUCCESSFUL"
	case InvalidGoal:
		return "INVALID_GOAL"
	case InvalidJoints:
		return "INVALID_JOINTS"
	case OldHeaderTimestamp:
		return "OLD_HEADER_TIMESTAMP"
	case PathToleranceViolated:
		return "PATH_TOLERANCE_VIOLATED"
	case GoalToleranceViolated:
		return "GOAL_TOLERANCE_VIOLATED"
	}
	return fmt.Sprintf("Code(%d)", int32(c))
}

// Error is a goal refused by Validate or Start: the result code the
// action reports and a message for its error_string.
type Error struct {
	Code Code   // the action's error_code
	Msg  string // its error_string
}

// Error implements error.
func (e *Error) Error() string { return "trajectory: " + e.Code.String() + ": " + e.Msg }

func errorf(c Code, format string, args ...any) *Error {
	return &Error{Code: c, Msg: fmt.Sprintf(format, args...)}
}

// Point is a trajectory_msgs/JointTrajectoryPoint: the values of the
// goal's joints, in Goal.JointNames order, due TimeFromStart after the
// goal's start. Velocities and Accelerations are empty or one per joint.
type Point struct {
	Positions     []float64 // [rad or m]
	Velocities    []float64 // [rad/s or m/s]
	Accelerations []float64 // [rad/s² or m/s²]
	TimeFromStart time.Duration
}

// Tolerance is a control_msgs/JointTolerance: for the joint Name, 0 takes
// the arm's default (Config), a negative value means no tolerance (not
// checked), a positive one is the bound on |desired − actual|.
type Tolerance struct {
	Name         string
	Position     float64 // [rad or m]
	Velocity     float64 // [rad/s or m/s]
	Acceleration float64 // [rad/s² or m/s²]; not checked (no measured acceleration)
}

// Goal is a FollowJointTrajectory goal (or a JointTrajectory message,
// without tolerances).
type Goal struct {
	// JointNames name the joints of every point, in its order.
	JointNames []string
	// Points, with strictly increasing TimeFromStart.
	Points []Point
	// Start is header.stamp: when TimeFromStart counts from. Zero: when
	// the goal is accepted.
	Start time.Time
	// PathTolerance and GoalTolerance, by joint name; joints not listed
	// take the arm's defaults.
	PathTolerance, GoalTolerance []Tolerance
	// GoalTime is goal_time_tolerance: how long after the last point the
	// joints may take to come within the goal tolerance. Zero: the arm's
	// default (Config.GoalTime).
	GoalTime time.Duration
}

// End is the goal's last TimeFromStart (zero without points).
func (g *Goal) End() time.Duration {
	if len(g.Points) == 0 {
		return 0
	}
	return g.Points[len(g.Points)-1].TimeFromStart
}
