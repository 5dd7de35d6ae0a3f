package wire

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
