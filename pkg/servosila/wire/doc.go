// Package wire is the Servosila Engineer's vendor UDP protocol, bytes in
// and values out: the packet layouts (one table, layout.go), the codecs of
// remote-control and telemetry packets, the Xbox 360 gamepad mapping of
// chassis and joints to axes and buttons, the joints, and the scales
// between SI units and protocol units (Calibration: stick units per m/s
// or rad/s; CountsToRad: 65535 position counts per turn). It has no
// socket, no clock and no goroutine.
//
// Encode into a caller's buffer and decode into a caller's struct: the
// codecs allocate nothing. A malformed packet is an error wrapping
// ErrLength, ErrFrameType or ErrMotorCount. Every decoder has a fuzz
// target seeded from the golden tables (testdata/fuzz/).
package wire
