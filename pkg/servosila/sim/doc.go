// Package sim simulates the vendor server of a Servosila Engineer
// robot on UDP, for tests and for running the driver without a robot.
//
// It listens for remote-control packets, reads the gamepad channels with
// the same Mapping and Calibration as the driver, integrates the chassis
// pose (exact arcs, package odometry) and the joint angles from them, and
// sends telemetry to the last client at TelemetryRate (1 Hz like the robot
// by default); each record echoes the speed command its motor received
// (wire.ExpectEcho) and reports its speed. Like the robot, it stops
// everything and stops sending after LinkTimeout (1 s) without packets. Its true state is available to tests through State, and
// Updated signals each physics step for lock-step consumers.
//
// The machine the motors drive is a Plant (Config.Plant): nil is the
// kinematic model described here; pkg/trainworld's Plant is the physics
// crawler of a training world, whose truth then fills State and the
// telemetry (joint positions, speeds, currents). The protocol side and
// the stall model are the same for both.
//
// # Tracks and the start velocity
//
// The chassis twist (v [m/s], w [rad/s]) is executed by two tracks, left
// at v - w*B/2 and right at v + w*B/2 (B = TrackSeparation); the true
// chassis twist is integrated from the track speeds that result:
// v = (left+right)/2, w = (right-left)/B.
//
// Each track has static friction (a model, assumption): a track standing
// still starts only when its drive reaches the start threshold S
// (StallVelocity, 0.15); a track already moving has no threshold and keeps
// moving at any small speed while its direction holds (breakaway with
// hysteresis); a zero command or a reversal stops it, and a reversed track
// must break away again. The drive of a track is measured in units of the
// papers' two measured starts: v - w (left) and v + w (right), with v in
// m/s and w in rad/s, so that from standstill driving straight starts at
// S m/s and turning in place at S rad/s, as the papers found (a track that
// turns in place breaks away at a lower track speed than one driving
// straight, S*B/2 = 0.053 m/s against 0.15 m/s: the papers measured it
// so; the model does not explain it). When only one track breaks away the
// robot pivots about the other.
package sim
