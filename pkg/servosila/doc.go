// Package servosila is the operator side of the Servosila Engineer crawler
// robot's UDP protocol, in pure Go: the packet codecs, the command model in
// SI units, the driver that sends remote-control packets at a fixed rate and
// receives telemetry, the safety rules, arm position control from
// telemetry, dead-reckoning odometry and the calibration fit.
//
// The protocol emulates an Xbox 360 gamepad: the robot is driven by stick
// positions (axes, [-32768, 32767]) and buttons, five times a second; the
// robot answers with motor telemetry once a second. Every packet layout is
// in one table (layout.go); see docs/servosila.md for the protocol, the
// units and what is assumed.
package servosila
