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

// ErrRole is returned for a command the page's operator has no role for
// (see access.Role).
var ErrRole = errors.New("not allowed for this operator")

// ErrFaster is returned for a command the machine could only execute
// faster than asked (below its start speed, an axis with one fixed speed,
// a position target the driver runs above the operator's maximum): the
// command is refused, zero is sent for its axes instead of a held
// command, and the error says which speed the machine needs.
var ErrFaster = errors.New("refused")

// MaxMessage is the largest message a page may send [bytes].
const MaxMessage = 4096

// Message types of the hub (every machine's own types are in its panel's
// file). The wire names are the page's.
const (
	MsgStop           = "stop" // every axis this page drives to zero (hidden page, blur)
	MsgEStop          = "estop"
	MsgRelease        = "release"         // asks to release the e-stop: the server asks back (confirm_release)
	MsgReleaseConfirm = "release_confirm" // nonce: the page's explicit confirmation
	MsgTake           = "take_control"
	MsgLeave          = "release_control"
)

// hubMessage is a message the hub handles itself.
type hubMessage struct {
	Type  string `json:"type"`
	Nonce string `json:"nonce"`
}

// messageType returns the type of a page message (one JSON object with a
// non-empty "type") and its sequence number (0: none). Its other fields
// are checked by decode, by whoever handles the type.
//
// The page numbers its held commands ("seq", counting up across both of
// its transports): a held command goes on the unordered WebRTC channel
// and its return to zero on the WebSocket too, so an older command can
// arrive after a newer one, and without the number a stale "drive" that
// arrives after the zero would move the machine again after the operator
// let go.
func messageType(b []byte) (string, uint64, error) {
	if len(b) > MaxMessage {
		return "", 0, fmt.Errorf("%w: %d bytes, at most %d", ErrBadMessage, len(b), MaxMessage)
	}
	var env struct {
		Type string `json:"type"`
		Seq  uint64 `json:"seq"`
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	if err := dec.Decode(&env); err != nil {
		return "", 0, fmt.Errorf("%w: %v", ErrBadMessage, err)
	}
	if dec.More() {
		return "", 0, fmt.Errorf("%w: trailing data after the object", ErrBadMessage)
	}
	if env.Type == "" {
		return "", 0, fmt.Errorf("%w: no type", ErrBadMessage)
	}
	if env.Seq > maxSeq {
		return "", 0, fmt.Errorf("%w: seq %d over %d", ErrBadMessage, env.Seq, uint64(maxSeq))
	}
	return env.Type, env.Seq, nil
}

// maxSeq is the largest sequence number a page may send: the largest
// integer a JavaScript number holds exactly.
const maxSeq = 1<<53 - 1

// decode decodes one page message into v strictly: one JSON object, known
// fields only.
func decode(b []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("%w: %v", ErrBadMessage, err)
	}
	if dec.More() {
		return fmt.Errorf("%w: trailing data after the object", ErrBadMessage)
	}
	return nil
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
