// Package trajectory follows joint trajectories as ros2_control's
// joint_trajectory_controller (JTC) does, in pure Go: no clock read, no
// goroutine, no ROS. It is the core behind the FollowJointTrajectory
// action and the ~/joint_trajectory topic of arm_sim and servosila_driver.
//
// A Goal is a control_msgs/action/FollowJointTrajectory goal in Go
// values: joint names, points (positions [rad or m], velocities [rad/s or
// m/s], accelerations [rad/s² or m/s²], TimeFromStart), a start time
// (zero: when it is accepted), path and goal tolerances and a goal time
// tolerance. Config.Validate checks a goal against an arm (its joint
// names, position and velocity limits) and returns an *Error carrying the
// action's result code (Code: InvalidGoal, InvalidJoints,
// OldHeaderTimestamp).
//
// A Follower runs one goal at a time. Start accepts a goal (a running one
// is preempted: it ends Canceled); Sample, given `now` and the arm's
// measured state, returns the setpoint by interpolating between points as
// the JTC does (quintic where both points have accelerations, cubic where
// both have velocities, linear otherwise), checks the path tolerances
// while the trajectory runs and the goal tolerances from its end (for at
// most the goal time tolerance), and keeps the feedback (desired, actual,
// error); Result gives the outcome. Desired evaluates the trajectory at
// any instant without checking anything, for a runtime that sends points
// ahead of time. Every value is in the arm's joint order (Config.Joints).
//
// Sample and Desired allocate nothing; Start copies the goal.
package trajectory
