package console

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
)

// ErrBadMessage is wrapped by every refusal of a page's message: malformed
// JSON, an unknown type or field, a missing, non-finite or out-of-range
// value, an unknown joint. Nothing moves for a refused message.
var ErrBadMessage = errors.New("bad message")

// ErrViewOnly is returned for a command from a page that does not hold
// control.
var ErrViewOnly = errors.New("view-only: take control first")

// MaxMessage is the largest message a page may send [bytes].
const MaxMessage = 4096

// Message types a page sends. Held commands (the deadman applies) are
// marked *.
const (
	MsgDrive        = "servosila_drive"  // * linear [m/s], angular [rad/s]
	MsgJoints       = "servosila_joints" // * joints: name -> velocity [rad/s]
	MsgTarget       = "servosila_target" // joint, value: angle [rad]
	MsgCancelTarget = "servosila_cancel" // joint
	MsgHeadlight    = "headlight"        // on
	MsgMaxVel       = "max_velocity"     // joint (or "linear", "angular"), value
	MsgFurbot       = "furbot_drive"     // * v [m/s], w [rad/s]
	MsgJogJoint     = "jog_joint"        // * delta, values, speed
	MsgJogCartesian = "jog_cartesian"    // * delta, pose, frame, speed
	MsgJogHeartbeat = "jog_heartbeat"    // keeps the jog move (and its deadman) alive
	MsgJogStop      = "jog_stop"
	MsgStop         = "stop" // every axis this page drives to zero (hidden page, blur)
	MsgEStop        = "estop"
	MsgRelease      = "release"
	MsgTake         = "take_control"
	MsgLeave        = "release_control"
)

// message is the union of every page message. Numbers are pointers so
// that a missing value (JSON null, which is what a page's NaN becomes) is
// told from zero.
type message struct {
	Type    string              `json:"type"`
	Linear  *float64            `json:"linear"`
	Angular *float64            `json:"angular"`
	Joints  map[string]*float64 `json:"joints"`
	Joint   string              `json:"joint"`
	Value   *float64            `json:"value"`
	On      *bool               `json:"on"`
	V       *float64            `json:"v"`
	W       *float64            `json:"w"`
	Delta   bool                `json:"delta"`
	Values  []*float64          `json:"values"`
	Pose    *pose               `json:"pose"`
	Frame   string              `json:"frame"`
	Speed   *float64            `json:"speed"`
}

type pose struct {
	X, Y, Z, RZ, RY, RX *float64
}

// parseMessage decodes one page message strictly: one JSON object, known
// fields only.
func parseMessage(b []byte) (message, error) {
	var m message
	if len(b) > MaxMessage {
		return m, fmt.Errorf("%w: %d bytes, at most %d", ErrBadMessage, len(b), MaxMessage)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&m); err != nil {
		return m, fmt.Errorf("%w: %v", ErrBadMessage, err)
	}
	if dec.More() {
		return m, fmt.Errorf("%w: trailing data after the object", ErrBadMessage)
	}
	if m.Type == "" {
		return m, fmt.Errorf("%w: no type", ErrBadMessage)
	}
	return m, nil
}

// num checks that a required number is present, finite and within
// [-limit, limit] (limit < 0: no range).
func num(name string, v *float64, limit float64) (float64, error) {
	if v == nil {
		return 0, fmt.Errorf("%w: %s: missing or not a number", ErrBadMessage, name)
	}
	x := *v
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return 0, fmt.Errorf("%w: %s: not finite", ErrBadMessage, name)
	}
	// A small tolerance: a page's slider at its end may round up.
	if limit >= 0 && math.Abs(x) > limit*(1+1e-9)+1e-12 {
		return 0, fmt.Errorf("%w: %s = %g out of range [-%g, %g]", ErrBadMessage, name, x, limit, limit)
	}
	return x, nil
}

// speed checks a speed override in (0, 1].
func speed(v *float64) (float64, error) {
	s, err := num("speed", v, -1)
	if err != nil {
		return 0, err
	}
	if !(s > 0 && s <= 1) {
		return 0, fmt.Errorf("%w: speed = %g out of range (0, 1]", ErrBadMessage, s)
	}
	return s, nil
}

// servosilaJoint returns the index of a Servosila joint name.
func servosilaJoint(name string, armOnly bool) (int, error) {
	for i, n := range ServosilaJoints {
		if n == name {
			if armOnly && i >= NumArmJoints {
				return 0, fmt.Errorf("%w: joint %q has no position control", ErrBadMessage, name)
			}
			return i, nil
		}
	}
	return 0, fmt.Errorf("%w: unknown joint %q", ErrBadMessage, name)
}
