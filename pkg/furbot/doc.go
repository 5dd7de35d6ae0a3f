// Package furbot is the runtime of telebridge's Furbot electric freight
// vehicle, without ROS: the Bridge that owns the UDP socket to the vehicle,
// its configuration, the vehicle clock and the lock-step mode of the tests.
// The protocol is package wire, the maths package control, the ROS 2
// contract package node, and a simulated vehicle package sim.
//
// # Bridge
//
// Bridge (see NewBridge) owns one UDP socket, bound with udplink.Listen.
// Its receive goroutine decodes status frames from the vehicle
// (wire.DecodeStatus), drops old and implausible ones (VehicleClock,
// control.Plausibility), integrates odometry (control.Odometer) and keeps
// the latest state in a mailbox; its fixed-rate loop (100 Hz) runs the
// control.Controller on the latest command, or in External mode forwards
// the control signals handed to SetControl, sends a control frame every
// period, and publishes a Snapshot to the consumer once every subsystem
// has reported a working state. In Manual mode a Lockstep replaces the
// timer, so that closed-loop tests run period by period.
//
// # Units and frames
//
// Everything exported in SI units (m, m/s, rad, rad/s) follows REP 103:
// x forward, y left, z up, positive yaw and steering angles to the left.
// The base frame (base_link) has its origin in the middle of the rear axle.
// Protocol fields keep their raw integer units; the SI accessors of package
// wire convert.
package furbot
