// Package servosilaarm drives the arm of a Servosila Engineer from the jog
// logic: Arm implements jog.Arm (jog.JointSource and jog.Output) on a
// running servosila.Driver, so that jog.Runner moves the robot's waist,
// shoulder, elbow and neck without ROS.
//
// Joint positions come from the driver's latest telemetry [rad]; each
// joint target becomes a position target of the driver's arm controller
// (servosila.Driver.SetJointTarget), which moves the joint proportionally
// to its error, clamped to the joint's maximum velocity. The jog
// controller sends one point of its profile per cycle (positions a cycle
// apart, within the joints' velocity and acceleration limits), so the
// robot follows the same profiles as a trajectory controller would, with
// the lag of its proportional controller; a target's Velocities,
// TimeFromStart and Next point are not used. A stop is one target, the rest point of
// the deceleration, which the robot heads for at its own pace
// (servosila.Config.MaxJoint). A
// joint counts as arrived within servosila.ArmConfig.Tolerance, so a jog
// absolute goal needs jog.Config.GoalTolerance of at least that
// tolerance.
//
// An Arm is safe for concurrent use; it owns nothing (the caller runs and
// closes the driver).
package servosilaarm
