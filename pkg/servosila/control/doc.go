// Package control is the Servosila Engineer's maths, pure: arm position
// control from telemetry (ArmController: a proportional controller with
// dead reckoning between telemetry packets and trajectory following, all
// in [rad] and [rad/s]), the chassis limits and minimum start velocity
// (ChassisLimits: [m/s], [rad/s], keeping the curvature), the least-squares
// fit of the calibration scales (FitScale) and the check that commands
// reached the robot, from the telemetry's echoed speed commands, ticks and
// arrival times (CommandCheck).
//
// Every function takes the time (a now) or a dt and returns a value: no
// socket, no goroutine, no reading of a clock, so tests run on an
// injected clock. An ArmController is not safe for concurrent use; the
// driver calls it under its lock.
package control
