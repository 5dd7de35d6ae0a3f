// Package control is the maths of the jog server, apart from its runtime
// (package jog) and its ROS contract (package jog/node): pure functions
// and small value types with no clock, no lock and no goroutine; times
// come in as dt [s].
//
//   - Motion profiles: AxisStep advances one axis one cycle toward a
//     target within its velocity and acceleration limits (a discrete
//     double integrator that a cubic Hermite interpolator reproduces);
//     TrackLimits scales the joints' limits so that a point-to-point
//     move is a synchronised trapezoid; Brake and BrakeTime are a stop
//     at constant deceleration.
//   - Straight lines (LIN goals): PlanLine samples the line every
//     LineResolution [m] (or LineRotationResolution [rad]), solves each
//     sample with inverse kinematics (pkg/kinematics) from the previous
//     one and checks the joint speeds; Line.Advance and Line.Point follow
//     it.
//   - Cartesian frames: GoalInBase composes an absolute goal in the robot
//     base, StepPose the target one incremental step ahead of the tool,
//     RelativeDelta and RelativeCommand.Apply the relative command types
//     REL, RELW and RELT.
//   - Ranges and steps: NarrowJoint narrows a URDF joint to the
//     joint_limits parameter, ScaledStep scales a step by the speed.
//
// Units: joint positions [rad, or m for prismatic joints], velocities
// [rad/s or m/s], accelerations [rad/s² or m/s²], Cartesian positions [m]
// and rotations [rad]; poses are geom.Transforms T_parent_child. The
// functions allocate nothing except PlanLine, and are safe for concurrent
// use on distinct arguments.
package control
