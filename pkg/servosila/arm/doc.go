// Package arm drives the arm of a Servosila Engineer from the jog
// logic: Arm implements jog.Arm (jog.JointSource and jog.Output) on a
// running servosila.Driver, so that jog.Runner moves the robot's waist,
// shoulder, elbow and neck without ROS.
//
// Joint positions come from the driver's latest telemetry [rad]. Each
// point of a jog profile (a target with velocities) is followed with its
// velocities fed forward (servosila.Driver.FollowJointTrajectory): the
// velocity output is the profile's velocity plus the driver's gain times
// the distance to the profile's reference, due at the target's stamp plus
// its TimeFromStart and running on to its Next point, clamped to the
// joint's maximum velocity. The robot so keeps up with the profile
// instead of trailing it by velocity / gain, and a late target lets it
// run on to the next point before holding. A rest point (Hold) or a
// target without velocities becomes a position target
// (servosila.Driver.SetJointTarget): proportional to the error. A joint
// counts as arrived within control.ArmConfig.Tolerance, so a jog
// absolute goal needs jog.Config.GoalTolerance of at least that
// tolerance.
//
// Trajectories takes targets that name any of those joints in any order,
// as servosila_driver's ~/joint_trajectory topic receives them from
// jog_server on ROS.
//
// An Arm is safe for concurrent use; it owns nothing (the caller runs and
// closes the driver).
package arm
