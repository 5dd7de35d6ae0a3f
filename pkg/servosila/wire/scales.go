package wire

import (
	"fmt"
	"math"
)

// Calibration converts SI velocities to protocol units (stick positions).
// The protocol unit is proportional to velocity.
type Calibration struct {
	// Linear is the chassis scale [units per m/s]. Default 71553.837 (the
	// English paper's least-squares fit); the Russian paper measured
	// 72021.739 on the same robot model.
	Linear float64
	// Angular is the chassis yaw scale [units per rad/s]. Default
	// 25171.216 (English paper); the Russian paper gives 24000.
	Angular float64
	// Joints are the joint scales [units per rad/s], indexed by Joint.
	// No paper measured them: the default 65534 assumes full stick
	// (32767) is 0.5 rad/s. Calibrate them against position telemetry.
	Joints [NumJoints]float64
}

// DefaultCalibration returns the English paper's chassis values and the
// assumed joint scales.
func DefaultCalibration() Calibration {
	c := Calibration{Linear: 71553.837, Angular: 25171.216}
	for j := range c.Joints {
		c.Joints[j] = 65534
	}
	return c
}

// RussianCalibration returns the chassis values of the Russian paper
// (72021.739 units per m/s, 24000 per rad/s) with the assumed joint scales.
func RussianCalibration() Calibration {
	c := DefaultCalibration()
	c.Linear, c.Angular = 72021.739, 24000
	return c
}

// Validate checks that every scale is positive and finite.
func (c Calibration) Validate() error {
	ok := func(v float64) bool { return v > 0 && !math.IsInf(v, 0) }
	if !ok(c.Linear) || !ok(c.Angular) {
		return fmt.Errorf("servosila: calibration: chassis scales %g, %g must be positive", c.Linear, c.Angular)
	}
	for j, v := range c.Joints {
		if !ok(v) {
			return fmt.Errorf("servosila: calibration: %s scale %g must be positive", Joint(j), v)
		}
	}
	return nil
}

// CountsPerTurn is the position resolution of the joint motors: 65535
// counts per 360 degrees.
const CountsPerTurn = 65535

// CountsToRad converts a joint position to an angle [rad]: the signed
// 32-bit difference from zero, at 65535 counts per turn.
func CountsToRad(pos, zero uint32) float64 {
	return float64(int32(pos-zero)) * 2 * math.Pi / CountsPerTurn
}

// RadToCounts is the inverse of CountsToRad (rounded to the nearest count).
func RadToCounts(angle float64, zero uint32) uint32 {
	return uint32(int32(math.Round(angle*CountsPerTurn/(2*math.Pi)))) + zero
}

// Saturate converts a velocity to protocol units (v*unitsPer), rounds it
// and clamps it to the axis range [-32768, 32767]. NaN gives 0.
func Saturate(v, unitsPer float64) int16 {
	u := math.Round(v * unitsPer)
	switch {
	case math.IsNaN(u):
		return 0
	case u >= math.MaxInt16:
		return math.MaxInt16
	case u <= math.MinInt16:
		return math.MinInt16
	}
	return int16(u)
}

// Velocities converts protocol channel values back to SI: the velocities
// the robot executes for them (what dead reckoning integrates).
func (cal *Calibration) Velocities(ch *Channels) Command {
	cmd := Command{
		Linear:    float64(ch.Linear) / cal.Linear,
		Angular:   float64(ch.Angular) / cal.Angular,
		Headlight: ch.Headlight,
	}
	for j, u := range ch.Joints {
		cmd.Joints[j] = float64(u) / cal.Joints[j]
	}
	return cmd
}

// DefaultMotorSlots returns the assumed telemetry record of each joint.
func DefaultMotorSlots() [NumJoints]int {
	return [NumJoints]int{Waist: 3, Shoulder: 4, Elbow: 5, Neck: 6, Flippers: 2, Gripper: 7}
}
