package wire

import "math"

// Ports and rate of the protocol.
const (
	// StatusPort is the UDP port the bridge listens on for status frames.
	StatusPort = 18003
	// ControlPort is the UDP port the vehicle listens on for control frames.
	ControlPort = 18004
	// FrameRate is the rate of both directions [Hz].
	FrameRate = 100
)

// Scales of the protocol's integer fields: the SI value is the raw count
// times the scale. They are the one place where protocol units are defined;
// Layout and docs/protocols/furbot.md state the same numbers (a test checks
// that they agree).
const (
	// SpeedScale converts traction speed counts to m/s (1 count = 1 mm/s).
	SpeedScale = 0.001
	// WheelScale converts rear wheel angular speed counts to rad/s
	// (1 count = 0.01 rad/s).
	WheelScale = 0.01
	// AngleScale converts steering, tilt and control steering counts to
	// rad (1 count = 0.01 degree).
	AngleScale = 0.01 * math.Pi / 180
	// PedalScale converts throttle and brake counts to a fraction of full
	// travel (1 count = 0.1 %, 1000 = fully pressed).
	PedalScale = 0.001
	// OdometerScale converts odometer counts to m (1 count = 1 cm).
	OdometerScale = 0.01
	// CurrentScale converts BMS current counts to A (1 count = 0.1 A).
	CurrentScale = 0.1
	// VoltageScale converts BMS voltage counts to V (1 count = 0.01 V).
	VoltageScale = 0.01
	// PressureScale converts hydraulic and suspension pressure counts to
	// bar (1 count = 0.1 bar).
	PressureScale = 0.1
	// LengthScale converts suspension heights, fork lift and shift counts
	// to m (1 count = 1 mm).
	LengthScale = 0.001
)

// Limits of the control frame, in raw counts.
const (
	// PedalMax is full throttle or full brake [0.1 %].
	PedalMax = 1000
	// SteerMax is the largest steering angle magnitude a control frame may
	// carry [0.01 deg] (90 degrees; the vehicle's own limit is smaller).
	SteerMax = 9000
)

// AngleToCounts converts an angle [rad] to 0.01 degree counts, rounded to
// the nearest count. The caller clamps to the field's range.
func AngleToCounts(rad float64) int32 {
	return int32(math.Round(rad / AngleScale))
}

// PedalToCounts converts a pedal fraction in [0, 1] to 0.1 % counts,
// clamped to [0, PedalMax]; NaN gives 0.
func PedalToCounts(frac float64) int16 {
	if !(frac > 0) {
		return 0
	}
	if frac >= 1 {
		return PedalMax
	}
	return int16(math.Round(frac / PedalScale))
}
