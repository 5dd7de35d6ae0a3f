// Package furbot is the vehicle side of telebridge for the Furbot electric
// freight vehicle, without ROS: the UDP protocol (status and control
// frames), the bridge core that owns the socket, the Twist -> steering /
// throttle / brake controller and the odometry from the rear wheel speeds.
//
// # Protocol
//
// The vehicle sends a status frame to UDP port 18003 at 100 Hz and accepts
// control frames on UDP port 18004, also at 100 Hz. Both are big-endian.
// The status frame carries one block per subsystem (communication, BMS,
// motion control, traction, steering, hydraulics, four suspension units and
// two forks); the control frame carries the steering angle, throttle, brake
// and enable / emergency-stop flags. The complete layout, with which parts
// are known and which are assumptions, is in docs/protocols/furbot.md and
// in code in Layout; the scales are the constants in scales.go.
//
// DecodeStatus, AppendStatus, DecodeControl and AppendControl work on
// caller-owned values and buffers and allocate nothing for valid input.
// Invalid input returns an error wrapping one of the sentinel errors
// (ErrShort, ErrMagic, ...); it never panics.
//
// # Bridge
//
// Bridge (see NewBridge) owns one UDP socket. Its receive goroutine decodes
// status frames from the vehicle, integrates odometry and keeps the latest
// state; its fixed-rate loop (100 Hz) runs the Controller on the latest
// command, sends a control frame every period, and publishes a Snapshot
// to the consumer once every subsystem has reported a working state.
//
// # Units and frames
//
// Everything exported in SI units (m, m/s, rad, rad/s) follows REP 103:
// x forward, y left, z up, positive yaw and steering angles to the left.
// The base frame (base_link) has its origin in the middle of the rear axle.
// Protocol fields keep their raw integer units; the SI accessors convert.
package furbot
