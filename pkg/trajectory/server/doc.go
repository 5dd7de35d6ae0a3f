// Package server runs trajectory goals on an arm: the runtime of the
// FollowJointTrajectory action and of the ~/joint_trajectory topic of
// arm_sim and servosila_driver, without ROS.
//
// A Server owns a trajectory.Follower for one jog.Arm (the simulated arm
// of package armsim, or the Servosila arm of package servosila/arm). Submit
// validates a goal against the arm's joints and limits and starts it
// (preempting the running one, which ends Canceled); Cancel ends it; Step,
// called every control period (Run calls it on the wall clock), reads the
// arm's measured joints, samples the follower (tolerances, feedback) and
// writes the arm a joint target: the setpoint one Lead ahead with its
// velocities and the one after it (jog.JointTarget's point and Next), so
// that the arm's own interpolation follows the trajectory's splines. When
// a goal ends the arm gets one Hold target (the last point on success,
// the measured position on an abort or cancel) and the Server writes
// nothing more until the next goal, leaving the arm to other sources. A
// measured state older than StateTimeout (a lost link), or a target the
// arm refuses (an e-stop), aborts the goal.
//
// Handles report each goal's feedback (a callback on every Step) and its
// result (Done, Result). A Server is safe for concurrent use.
package server
