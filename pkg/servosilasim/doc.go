// Package servosilasim simulates the vendor server of a Servosila Engineer
// robot on UDP, for tests and for running the driver without a robot.
//
// It listens for remote-control packets, reads the gamepad channels with
// the same Mapping and Calibration as the driver, integrates the chassis
// pose (exact arcs, package odometry) and the joint angles from them, and
// sends telemetry to the last client at TelemetryRate (1 Hz like the robot
// by default). Like the robot, it stops everything after LinkTimeout (1 s)
// without packets, and its tracks do not move below StallVelocity. Its true
// state is available to tests through State.
package servosilasim
