package servosila

import (
	"errors"
	"fmt"
	"math"
)

// ErrInvalidCommand is returned for a command with NaN or infinite values.
var ErrInvalidCommand = errors.New("servosila: invalid command")

// Command is what the operator side asks of the robot, in SI units. The
// zero value is "stand still, headlight off".
type Command struct {
	// Linear is the chassis forward velocity [m/s] (x forward, REP 103).
	Linear float64
	// Angular is the chassis yaw rate [rad/s], positive counter-clockwise
	// (turning left) seen from above.
	Angular float64
	// Joints are joint velocities [rad/s], indexed by Joint. The gripper
	// and flippers signs follow the axis conventions of Mapping: positive
	// opens the gripper and raises the flippers.
	Joints [NumJoints]float64
	// Headlight asks for the headlight on.
	Headlight bool
}

// Validate returns ErrInvalidCommand (wrapped) if any value is NaN or
// infinite.
func (c Command) Validate() error {
	if bad(c.Linear) || bad(c.Angular) {
		return fmt.Errorf("%w: chassis twist (%g m/s, %g rad/s)", ErrInvalidCommand, c.Linear, c.Angular)
	}
	for j, v := range c.Joints {
		if bad(v) {
			return fmt.Errorf("%w: %s velocity %g rad/s", ErrInvalidCommand, Joint(j), v)
		}
	}
	return nil
}

func bad(v float64) bool { return math.IsNaN(v) || math.IsInf(v, 0) }

// IsZero reports whether c asks for no motion (the headlight may be on).
func (c Command) IsZero() bool {
	if c.Linear != 0 || c.Angular != 0 {
		return false
	}
	for _, v := range c.Joints {
		if v != 0 {
			return false
		}
	}
	return true
}

// MinStart applies the minimum start velocity: a non-zero v smaller in
// magnitude than min is raised to min keeping its sign; zero stays zero.
func MinStart(v, min float64) float64 {
	switch {
	case v == 0 || min <= 0:
		return v
	case v > 0 && v < min:
		return min
	case v < 0 && v > -min:
		return -min
	}
	return v
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

func clamp(v, lim float64) float64 {
	if lim <= 0 {
		return v
	}
	return math.Max(-lim, math.Min(lim, v))
}
