//go:build ros2

// Package rosfjt is the ROS 2 side of the trajectory follower (package
// trajectory, run on an arm by trajectory/server): it converts
// trajectory_msgs/JointTrajectory messages and
// control_msgs/action/FollowJointTrajectory goals into trajectory.Goal
// values, and serves the FollowJointTrajectory action (Serve) with a
// server's goals, feedback and results, as ros2_control's
// joint_trajectory_controller does on <controller>/follow_joint_trajectory.
//
// rclgo's action server sends a result message only with a succeeded
// goal: an aborted or canceled goal reaches the client with its status
// (ABORTED, CANCELED) and an empty result, its error code and string being
// logged by the node.
package rosfjt
