package console

import (
	"context"
	"fmt"
	"math"
)

// MsgJoy is the page's gamepad as the browser reads it (the Gamepad API's
// standard mapping): {"type": "joy", "machine": "servosila", "axes":
// [4 values in [-1, 1]], "buttons": [17 values in [0, 1]]}. The hub hands
// it to the page's JoyBackend after JoyFromPad; the deadman applies.
const MsgJoy = "joy"

// Sizes of the standard mapping: the pad's axes and buttons the page
// sends (at most), and the published Joy's axes (sticks, then triggers).
const (
	PadAxes    = 4
	PadButtons = 17
	JoyAxes    = PadAxes + 2
)

// JoyDeadzone is the sticks' and triggers' centre band removed (the rest
// rescaled to [0, 1]) before publishing, as ROS's joy_node does with its
// default deadzone.
const JoyDeadzone = 0.05

// Joy is a gamepad's state as a ROS joystick driver publishes it
// (sensor_msgs/Joy), for the machine the pad drives.
//
// Axes [-1, 1], JoyAxes of them: 0 left stick left +, 1 left stick up +,
// 2 right stick left +, 3 right stick up + (ROS's signs: the browser's
// are opposite), 4 LT and 5 RT, 0 released to 1 pressed. Buttons 0 or
// 1, PadButtons of them in the standard mapping's order (A, B, X, Y, LB,
// RB, LT, RT, Back, Start, LS, RS, Up, Down, Left, Right, Home; a
// trigger counts as pressed beyond half way).
type Joy struct {
	Machine string // "servosila" or "furbot"
	Axes    [JoyAxes]float64
	Buttons [PadButtons]int32
}

// Neutral reports whether nothing is deflected or pressed.
func (j Joy) Neutral() bool {
	for _, a := range j.Axes {
		if a != 0 {
			return false
		}
	}
	for _, b := range j.Buttons {
		if b != 0 {
			return false
		}
	}
	return true
}

// JoyBackend is implemented by a Backend that publishes the page's
// gamepad (pkg/console/graph: sensor_msgs/Joy in the machine's
// namespace). The console only passes it on from the page in control;
// a non-neutral one needs the drive role and holds the deadman, so that
// a neutral Joy is published when the page's stop coming, the page goes
// or the e-stop is pressed.
type JoyBackend interface {
	PublishJoy(ctx context.Context, j Joy) error
}

type joyMessage struct {
	Type    string    `json:"type"`
	Machine string    `json:"machine"`
	Axes    []float64 `json:"axes"`
	Buttons []float64 `json:"buttons"`
}

// JoyFromPad maps a standard-mapping pad (the browser's axes and button
// values) into a Joy for machine. Fewer axes or buttons than the
// standard's count as centred and released; more, or a value out of
// range, are refused (ErrBadMessage).
func JoyFromPad(machine string, axes, buttons []float64) (Joy, error) {
	j := Joy{Machine: machine}
	if len(axes) > PadAxes || len(buttons) > PadButtons {
		return j, fmt.Errorf("%w: joy: %d axes and %d buttons, at most %d and %d", ErrBadMessage, len(axes), len(buttons), PadAxes, PadButtons)
	}
	for i, a := range axes {
		if math.IsNaN(a) || !(a >= -1 && a <= 1) {
			return j, fmt.Errorf("%w: joy: axis %d = %g out of [-1, 1]", ErrBadMessage, i, a)
		}
		if v := joyDeadzone(a); v != 0 {
			j.Axes[i] = -v // the browser's down and right are +; ROS's up and left (no -0)
		}
	}
	for i, b := range buttons {
		if math.IsNaN(b) || !(b >= 0 && b <= 1) {
			return j, fmt.Errorf("%w: joy: button %d = %g out of [0, 1]", ErrBadMessage, i, b)
		}
		if b > 0.5 {
			j.Buttons[i] = 1
		}
	}
	if len(buttons) > padLT {
		j.Axes[PadAxes] = joyDeadzone(buttons[padLT])
	}
	if len(buttons) > padRT {
		j.Axes[PadAxes+1] = joyDeadzone(buttons[padRT])
	}
	return j, nil
}

// padLT and padRT are the triggers' buttons in the standard mapping.
const padLT, padRT = 6, 7

func joyDeadzone(v float64) float64 {
	m := math.Abs(v)
	if m <= JoyDeadzone {
		return 0
	}
	return math.Copysign((m-JoyDeadzone)/(1-JoyDeadzone), v)
}
