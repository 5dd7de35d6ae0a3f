// Package control is the camera's arithmetic, pure and small: a camera
// has little maths. It holds the conversion of V4L2 buffer timestamps
// (CLOCK_MONOTONIC) to wall-clock time with an offset estimated from
// clock samples (ClockOffset, EstimateClockOffset; the samples are read
// by pkg/camera's MeasureClockOffset), the count of frames the driver
// dropped from buffer sequence numbers (SequenceGap), the spacing of
// reopen attempts (Backoff) and the subscriber-driven stream on/off state
// machine (Demand).
//
// Nothing here reads a clock, opens a device or starts a goroutine: times
// and counts come in, a value or an action goes out, so every rule is
// tested without a camera. Times are [ns] (ClockSample, ClockOffset) or
// time.Duration.
package control
