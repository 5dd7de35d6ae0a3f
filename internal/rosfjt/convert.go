//go:build ros2

package rosfjt

import (
	"time"

	builtin_interfaces_msg "github.com/telebridge/telebridge/internal/rosmsg/builtin_interfaces/msg"
	control_msgs_action "github.com/telebridge/telebridge/internal/rosmsg/control_msgs/action"
	control_msgs_msg "github.com/telebridge/telebridge/internal/rosmsg/control_msgs/msg"
	trajectory_msgs_msg "github.com/telebridge/telebridge/internal/rosmsg/trajectory_msgs/msg"
	"github.com/telebridge/telebridge/internal/rosnode"
	"github.com/telebridge/telebridge/pkg/trajectory"
)

func dur(d builtin_interfaces_msg.Duration) time.Duration {
	return time.Duration(d.Sec)*time.Second + time.Duration(d.Nanosec)
}

// GoalOf reads a JointTrajectory as a goal without tolerances: its joint
// names, every point (positions, velocities, accelerations,
// time_from_start) and its header stamp (zero: start when accepted). A
// point with efforts is refused (InvalidGoal): the arms are position
// controlled. The goal's slices are the message's.
func GoalOf(msg *trajectory_msgs_msg.JointTrajectory) (trajectory.Goal, *trajectory.Error) {
	g := trajectory.Goal{JointNames: msg.JointNames, Points: make([]trajectory.Point, len(msg.Points))}
	if s := msg.Header.Stamp; s.Sec != 0 || s.Nanosec != 0 {
		g.Start = rosnode.Time(s)
	}
	for k := range msg.Points {
		p := &msg.Points[k]
		if len(p.Effort) != 0 {
			return g, &trajectory.Error{Code: trajectory.InvalidGoal, Msg: "points with efforts: the arm is position controlled"}
		}
		g.Points[k] = trajectory.Point{Positions: p.Positions, Velocities: p.Velocities, Accelerations: p.Accelerations, TimeFromStart: dur(p.TimeFromStart)}
	}
	return g, nil
}

func tolerances(ts []control_msgs_msg.JointTolerance) []trajectory.Tolerance {
	out := make([]trajectory.Tolerance, len(ts))
	for i, t := range ts {
		out[i] = trajectory.Tolerance{Name: t.Name, Position: t.Position, Velocity: t.Velocity, Acceleration: t.Acceleration}
	}
	return out
}

// GoalOfAction reads a FollowJointTrajectory goal: its trajectory (as
// GoalOf), path and goal tolerances and goal time tolerance. A
// multi-DOF trajectory or component tolerances are refused
// (InvalidJoints, InvalidGoal): the arms have single-DOF joints only.
func GoalOfAction(msg *control_msgs_action.FollowJointTrajectory_Goal) (trajectory.Goal, *trajectory.Error) {
	if len(msg.MultiDofTrajectory.JointNames) != 0 || len(msg.MultiDofTrajectory.Points) != 0 {
		return trajectory.Goal{}, &trajectory.Error{Code: trajectory.InvalidJoints, Msg: "multi-DOF joints: the arm has none"}
	}
	if len(msg.ComponentPathTolerance) != 0 || len(msg.ComponentGoalTolerance) != 0 {
		return trajectory.Goal{}, &trajectory.Error{Code: trajectory.InvalidGoal, Msg: "component tolerances (multi-DOF joints): the arm has none"}
	}
	g, e := GoalOf(&msg.Trajectory)
	if e != nil {
		return g, e
	}
	g.PathTolerance = tolerances(msg.PathTolerance)
	g.GoalTolerance = tolerances(msg.GoalTolerance)
	g.GoalTime = dur(msg.GoalTimeTolerance)
	return g, nil
}

// point fills p (reused) with positions and, if given, velocities and
// accelerations.
func point(p *trajectory_msgs_msg.JointTrajectoryPoint, pos, vel, acc []float64) {
	p.Positions = append(p.Positions[:0], pos...)
	p.Velocities = append(p.Velocities[:0], vel...)
	p.Accelerations = append(p.Accelerations[:0], acc...)
}

// FillFeedback fills msg (reused between calls) with fb, stamped now, for
// the arm's joints names.
func FillFeedback(msg *control_msgs_action.FollowJointTrajectory_Feedback, names []string, fb trajectory.Feedback, now time.Time) {
	msg.Header = rosnode.Header(now, "")
	msg.JointNames = names
	point(&msg.Desired, fb.Desired.Positions, fb.Desired.Velocities, fb.Desired.Accelerations)
	point(&msg.Actual, fb.Actual.Positions, fb.Actual.Velocities, nil)
	point(&msg.Error, fb.Error.Positions, fb.Error.Velocities, nil)
}
