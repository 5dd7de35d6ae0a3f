// Package control is the Furbot's maths, with no socket, no goroutine and
// no clock of its own: every step takes the time or the period from the
// caller.
//
//   - Controller turns a Twist (cmd_vel: V [m/s], W [rad/s]) and the
//     measured speed into steering [rad], throttle and brake [0, 1]: a
//     jerk-limited speed reference, a speed PID with feed-forward and
//     anti-windup, the seed's steering rule with rate and lateral
//     acceleration limits, standstill hold and gear changes.
//     Output.Control rounds a decision into a wire.Control frame.
//   - Odometer integrates status frames into odometry in the odom frame
//     (REP 103/105; base_link in the middle of the rear axle), on the
//     vehicle's clock, from the rear wheel speeds or the bicycle model,
//     and bridges status blackouts with the traction odometer.
//   - Plausibility rejects well-formed status frames whose values jump
//     further than the vehicle can move (the protocol has no checksum).
//   - AckermannAngles and FrontSpeedRatio give the front wheels' angles and
//     rolling speeds for a virtual bicycle steering angle.
//
// ControllerConfig and OdometryConfig take their defaults and ranges from
// one table each (ControllerBindings, OdometryBindings: rows of Param);
// package node turns the same rows into ROS 2 parameters, so that a
// default or a range is written once.
package control
