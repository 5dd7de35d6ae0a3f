// Package wire is the Furbot's UDP protocol, bytes in and values out: the
// status frame (one block per subsystem: communication, BMS, motion
// control, traction, steering, hydraulics, four suspension units, two
// forks) and the control frame (steering angle, throttle, brake, enable
// and emergency-stop flags), their block ids and state codes, the scales
// of the integer fields and the SI views of them. It has no clock, no
// socket and no goroutine.
//
// The vehicle sends a status frame to UDP port 18003 (StatusPort) at
// 100 Hz (FrameRate) and accepts control frames on port 18004
// (ControlPort). Both are big-endian. Layout is the protocol in one table;
// docs/protocols/furbot.md shows the same table, with which parts are known
// and which are assumptions, and the tests check that the codecs, Layout,
// the scales and the document agree.
//
// DecodeStatus, AppendStatus, DecodeControl and AppendControl work on
// caller-owned values and buffers and allocate nothing for valid input.
// Invalid input returns an error wrapping one of the sentinel errors
// (ErrShort, ErrMagic, ...); it never panics. Each decoder has a fuzz
// target seeded from the golden and malformed tables; inputs the fuzzer
// finds that add coverage go to testdata/fuzz/<Target>/.
//
// # Units
//
// The structs keep the raw integer counts of the protocol (units in their
// field comments: [0.01 deg], [mm/s], [0.1 %] ...); the scale constants
// (SpeedScale, AngleScale, ...) and the SI accessors (Traction.SpeedMPS,
// Steering.AngleRad, BMS.Battery, ...) convert to SI units (m, m/s, rad,
// rad/s, A, V, Pa) following REP 103: x forward, y left, z up, positive
// yaw and steering angles to the left.
package wire
