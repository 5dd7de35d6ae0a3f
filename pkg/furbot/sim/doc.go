// Package sim (pkg/furbot/sim, "furbotsim" in its errors) simulates a
// Furbot vehicle speaking the Furbot UDP protocol of package wire, so that
// the bridge, the controller and the odometry can be tested in closed loop
// without the real vehicle.
//
// Vehicle is the pure model, stepped by the caller: bicycle kinematics on
// the rear axle, first-order throttle and brake actuators, a rate-limited
// steering actuator, rolling resistance and aerodynamic drag, a power
// limit, the reverse gear, a battery that discharges with the traction
// power, and the start-up sequence of the 12 subsystems (cold -> init ->
// running). Sim runs a Vehicle in real time on a UDP socket: it reads
// control frames, applies the vehicle's watchdog, steps at 100 Hz and sends
// a status frame every period; Truth returns the true pose for tests.
//
// Units are SI and frames follow REP 103 (x forward, y left, yaw counter-
// clockwise, origin in the middle of the rear axle), like package furbot.
// Its socket is bound with udplink.Listen; its Manual mode steps it with a
// furbot.Lockstep.
package sim
