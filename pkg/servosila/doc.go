// Package servosila is the runtime of the operator side of the Servosila
// Engineer crawler robot's UDP link, in pure Go: the Driver that sends
// remote-control packets (at most MaxSendRate, at least SendRate) and
// receives telemetry on one socket (bound with udplink.Listen), the
// command sources with their timeouts, the emergency stop, the link
// tracking, the detection of commands that did not reach the robot
// (Status.CommandLoss), dead-reckoning odometry and live reconfiguration.
//
// It is one of four parts: wire (the vendor protocol: packets, gamepad
// mapping, SI scales), control (the maths: arm position control, chassis
// limits, the calibration fit), this package (sockets, goroutines, clocks)
// and node (the ROS contract: names, QoS, parameter tables). Commands are in
// SI units (wire.Command: [m/s], [rad/s]); see docs/servosila.md for the
// protocol, the units and what is assumed.
package servosila
