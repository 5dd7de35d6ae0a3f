package peer

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/pion/ice/v4"
	"github.com/pion/sdp/v3"
)

// Message types. The page sends TypeWant, TypeCaps, TypeAnswer and
// TypeCandidate; the server sends TypeOffer, TypeCandidate and TypeError.
const (
	TypeOffer     = "offer"     // server to page: SDP offer (Message.SDP)
	TypeAnswer    = "answer"    // page to server: SDP answer (Message.SDP)
	TypeCandidate = "candidate" // both ways: one trickled ICE candidate (Message.Candidate)
	TypeWant      = "want"      // page to server: the cameras to show (Message.Cameras, Message.Chosen)
	TypeCaps      = "caps"      // page to server: one camera's caps (Message.Camera, Message.Caps)
	TypeError     = "error"     // server to page: a refused message or a closed session (Message.Error)
)

// Signalling limits.
const (
	// MaxMessageSize is the largest signalling message accepted [bytes].
	MaxMessageSize = 64 << 10
	// MaxCandidateSize is the largest candidate line accepted [bytes].
	MaxCandidateSize = 512
	// MaxCameraName is the longest camera name accepted [bytes].
	MaxCameraName = 64
	// MaxWanted is the most camera names one TypeWant may carry; the
	// session's own limit (Config.MaxTracksPerPeer) may be lower.
	MaxWanted = 16
)

// Error codes carried by TypeError messages (ErrorBody.Code).
const (
	CodeBadMessage     = "bad-message"      // not a valid signalling message
	CodeTooLarge       = "too-large"        // over MaxMessageSize
	CodeBadSDP         = "bad-sdp"          // SDP that does not parse or does not fit the offer
	CodeBadCandidate   = "bad-candidate"    // candidate that does not parse or was refused
	CodeUnknownCamera  = "unknown-camera"   // the embedder has no such camera
	CodeBadCaps        = "bad-caps"         // caps out of range
	CodeCamera         = "camera"           // a camera's stream failed while shown
	CodeTooManyCameras = "too-many-cameras" // more cameras than Config.MaxTracksPerPeer
	CodeNegotiation    = "negotiation"      // the offer/answer exchange failed
	CodeICETimeout     = "ice-timeout"      // ICE did not connect within Config.ICETimeout
	CodeICEFailed      = "ice-failed"       // ICE connectivity was lost
	CodeClosed         = "closed"           // the session is closed
)

// Message is one signalling message, JSON-encoded with a "type" field.
// Which other fields a type carries is listed with the Type constants;
// Decode refuses any other field.
type Message struct {
	Type      string     `json:"type"`                // one of the Type constants
	SDP       string     `json:"sdp,omitempty"`       // TypeOffer, TypeAnswer: the session description
	Candidate *Candidate `json:"candidate,omitempty"` // TypeCandidate
	Cameras   []string   `json:"cameras,omitempty"`   // TypeWant: the cameras to show, in the page's order (none: no video)
	Chosen    string     `json:"chosen,omitempty"`    // TypeWant: the operator's chosen camera (default: the first)
	Camera    string     `json:"camera,omitempty"`    // TypeCaps: the camera the caps are for
	Caps      *CapsWire  `json:"caps,omitempty"`      // TypeCaps
	Error     *ErrorBody `json:"error,omitempty"`     // TypeError
}

// Candidate is a trickled ICE candidate in the browser's
// RTCIceCandidateInit form. An empty Candidate line means the end of
// candidates.
type Candidate struct {
	Candidate        string  `json:"candidate"`                  // the a=candidate line without "a=", at most MaxCandidateSize bytes
	SDPMid           *string `json:"sdpMid,omitempty"`           // the media section's mid
	SDPMLineIndex    *uint16 `json:"sdpMLineIndex,omitempty"`    // the media section's index
	UsernameFragment *string `json:"usernameFragment,omitempty"` // the ICE ufrag it belongs to
}

// ErrorBody says why a message was refused or a session closed.
type ErrorBody struct {
	Code    string `json:"code"`             // one of the Code constants
	Message string `json:"message"`          // human-readable reason
	Camera  string `json:"camera,omitempty"` // the camera concerned, if any
}

// ErrBadMessage is wrapped by every error Decode returns.
var ErrBadMessage = errors.New("bad signalling message")

// DecodeError is a refused signalling message: Code is one of the Code
// constants. It wraps ErrBadMessage.
type DecodeError struct {
	Code   string // one of the Code constants
	Reason string // human-readable, for the page and the log
	Camera string // the camera concerned, if known
}

// Error returns the reason with a "signalling:" prefix.
func (e *DecodeError) Error() string { return "signalling: " + e.Reason }

// Unwrap returns ErrBadMessage.
func (e *DecodeError) Unwrap() error { return ErrBadMessage }

func badf(code, format string, a ...any) error {
	return &DecodeError{Code: code, Reason: fmt.Sprintf(format, a...)}
}

// Decode parses and validates one signalling message from the page (or, in
// tests, from the server): one JSON object of at most MaxMessageSize
// bytes, no unknown, misplaced or repeated fields (names match exactly,
// unlike encoding/json's case folding), SDP parsed with pion/sdp,
// candidates with pion/ice, camera names and caps checked. It returns a
// *DecodeError on any fault. Safe for concurrent use.
func Decode(raw []byte) (Message, error) {
	var m Message
	if len(raw) > MaxMessageSize {
		return m, badf(CodeTooLarge, "message of %d bytes over the limit of %d", len(raw), MaxMessageSize)
	}
	if err := checkKeys(raw); err != nil {
		return m, err
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&m); err != nil {
		return Message{}, badf(CodeBadMessage, "json: %v", err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return Message{}, badf(CodeBadMessage, "data after the JSON object")
	}
	if err := m.Validate(); err != nil {
		return Message{}, err
	}
	if len(m.Cameras) == 0 {
		m.Cameras = nil // [] and absent mean the same: no camera
	}
	return m, nil
}

// Encode returns m as JSON.
func Encode(m Message) ([]byte, error) {
	b, err := json.Marshal(m)
	if err != nil {
		return nil, fmt.Errorf("signalling: encode %s: %w", m.Type, err)
	}
	return b, nil
}

// Validate checks that m carries exactly the fields of its type, each
// valid; it returns a *DecodeError.
func (m *Message) Validate() error {
	has := map[string]bool{
		"sdp": m.SDP != "", "candidate": m.Candidate != nil, "cameras": m.Cameras != nil,
		"chosen": m.Chosen != "", "camera": m.Camera != "", "caps": m.Caps != nil, "error": m.Error != nil,
	}
	var allowed []string
	switch m.Type {
	case TypeOffer, TypeAnswer:
		allowed = []string{"sdp"}
	case TypeCandidate:
		allowed = []string{"candidate"}
	case TypeWant:
		allowed = []string{"cameras", "chosen"}
	case TypeCaps:
		allowed = []string{"camera", "caps"}
	case TypeError:
		allowed = []string{"error"}
	default:
		return badf(CodeBadMessage, "unknown message type %q", m.Type)
	}
	for f, present := range has {
		if present && !contains(allowed, f) {
			return badf(CodeBadMessage, "field %q not allowed in a %q message", f, m.Type)
		}
	}
	switch m.Type {
	case TypeOffer, TypeAnswer:
		return validateSDP(m.SDP)
	case TypeCandidate:
		return validateCandidate(m.Candidate)
	case TypeWant:
		return validateWant(m.Cameras, m.Chosen)
	case TypeCaps:
		if err := validateName(m.Camera); err != nil {
			return err
		}
		if m.Caps == nil {
			return &DecodeError{Code: CodeBadCaps, Reason: "caps missing", Camera: m.Camera}
		}
		if _, err := m.Caps.Caps(); err != nil {
			return &DecodeError{Code: CodeBadCaps, Reason: err.Error(), Camera: m.Camera}
		}
	case TypeError:
		if m.Error == nil || m.Error.Code == "" {
			return badf(CodeBadMessage, "error without a code")
		}
	}
	return nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// validateSDP parses s with pion/sdp and checks that it has media.
func validateSDP(s string) error {
	if s == "" {
		return badf(CodeBadSDP, "sdp missing")
	}
	var d sdp.SessionDescription
	if err := d.UnmarshalString(s); err != nil {
		return badf(CodeBadSDP, "sdp: %v", err)
	}
	if len(d.MediaDescriptions) == 0 {
		return badf(CodeBadSDP, "sdp has no media sections")
	}
	return nil
}

func validateCandidate(c *Candidate) error {
	if c == nil {
		return badf(CodeBadCandidate, "candidate missing")
	}
	if len(c.Candidate) > MaxCandidateSize {
		return badf(CodeBadCandidate, "candidate of %d bytes over the limit of %d", len(c.Candidate), MaxCandidateSize)
	}
	if c.UsernameFragment != nil && len(*c.UsernameFragment) > 256 {
		return badf(CodeBadCandidate, "usernameFragment too long")
	}
	if c.SDPMid != nil && len(*c.SDPMid) > 32 {
		return badf(CodeBadCandidate, "sdpMid too long")
	}
	if c.Candidate == "" { // end of candidates
		return nil
	}
	if _, err := ice.UnmarshalCandidate(c.Candidate); err != nil {
		return badf(CodeBadCandidate, "candidate: %v", err)
	}
	return nil
}

func validateWant(cams []string, chosen string) error {
	if len(cams) > MaxWanted {
		return badf(CodeTooManyCameras, "%d cameras over the limit of %d", len(cams), MaxWanted)
	}
	seen := make(map[string]bool, len(cams))
	for _, c := range cams {
		if err := validateName(c); err != nil {
			return err
		}
		if seen[c] {
			return badf(CodeBadMessage, "camera %q listed twice", c)
		}
		seen[c] = true
	}
	if chosen != "" && !seen[chosen] {
		return badf(CodeBadMessage, "chosen camera %q not among the cameras", chosen)
	}
	return nil
}

// validateName accepts 1 to MaxCameraName bytes of [A-Za-z0-9._:/-].
func validateName(s string) error {
	if s == "" || len(s) > MaxCameraName {
		return badf(CodeBadMessage, "camera name must be 1 to %d bytes", MaxCameraName)
	}
	if strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("._:/-", r))
	}) >= 0 {
		return badf(CodeBadMessage, "camera name %q has characters outside [A-Za-z0-9._:/-]", s)
	}
	return nil
}

// errorMessage builds a TypeError message.
func errorMessage(code, camera, format string, a ...any) Message {
	return Message{Type: TypeError, Error: &ErrorBody{Code: code, Message: fmt.Sprintf(format, a...), Camera: camera}}
}

// errorFrom turns err into a TypeError message, keeping a DecodeError's
// code.
func errorFrom(err error, fallback string) Message {
	var de *DecodeError
	if errors.As(err, &de) {
		return errorMessage(de.Code, de.Camera, "%s", de.Reason)
	}
	return errorMessage(fallback, "", "%v", err)
}
