package wire

import "fmt"

// ControlMagic starts every control frame ("ATCF"; assumed, by analogy
// with the status frame's "ATSF").
var ControlMagic = [4]byte{0x41, 0x54, 0x43, 0x46}

// ControlSize is the size of a control frame [bytes].
const ControlSize = 24

// Flag bits of a control frame.
const (
	// FlagEnable asks the vehicle to apply this frame's steering, throttle
	// and brake. Without it the vehicle holds itself with full brake.
	FlagEnable = 1 << 0
	// FlagEStop is an emergency stop: the vehicle cuts throttle, brakes
	// fully and latches until a frame without it arrives.
	FlagEStop = 1 << 1
	// FlagReverse selects the reverse gear; the vehicle changes gear only
	// at standstill.
	FlagReverse = 1 << 2
	// controlFlagsMask is every defined bit; others must be zero.
	controlFlagsMask = FlagEnable | FlagEStop | FlagReverse
)

// Control is one control frame, in raw protocol units. It is a plain value.
type Control struct {
	Seq       uint32 `json:"seq"`       // incremented by one per frame sent
	Timestamp uint32 `json:"timestamp"` // sender clock [ms], wraps
	Steer     int32  `json:"steer"`     // road-wheel angle, positive left [0.01 deg], |Steer| <= SteerMax
	Throttle  int32  `json:"throttle"`  // [0.1 %], 0..PedalMax
	Brake     int16  `json:"brake"`     // [0.1 %], 0..PedalMax
	Flags     uint8  `json:"flags"`     // FlagEnable, FlagEStop, FlagReverse
}

// Enabled reports whether FlagEnable is set and FlagEStop is not.
func (c *Control) Enabled() bool { return c.Flags&FlagEnable != 0 && c.Flags&FlagEStop == 0 }

// Validate checks the ranges and reserved bits of c; the error wraps
// ErrRange or ErrFlags.
func (c *Control) Validate() error {
	switch {
	case c.Steer < -SteerMax || c.Steer > SteerMax:
		return fmt.Errorf("furbot: control: steer %d outside ±%d: %w", c.Steer, SteerMax, ErrRange)
	case c.Throttle < 0 || c.Throttle > PedalMax:
		return fmt.Errorf("furbot: control: throttle %d outside 0..%d: %w", c.Throttle, PedalMax, ErrRange)
	case c.Brake < 0 || c.Brake > PedalMax:
		return fmt.Errorf("furbot: control: brake %d outside 0..%d: %w", c.Brake, PedalMax, ErrRange)
	case c.Flags&^controlFlagsMask != 0:
		return fmt.Errorf("furbot: control: flags %#02x: %w", c.Flags, ErrFlags)
	}
	return nil
}

// DecodeControl parses one control frame into c. It checks the size, the
// magic, the reserved byte and the field ranges (Validate); the error
// wraps ErrShort, ErrTrailing, ErrMagic, ErrFlags or ErrRange. It
// allocates nothing for a valid frame and does not retain b.
func DecodeControl(b []byte, c *Control) error {
	if len(b) < ControlSize {
		return fmt.Errorf("furbot: decode control: %d bytes, want %d: %w", len(b), ControlSize, ErrShort)
	}
	if len(b) > ControlSize {
		return fmt.Errorf("furbot: decode control: %d bytes, want %d: %w", len(b), ControlSize, ErrTrailing)
	}
	if [4]byte(b[0:4]) != ControlMagic {
		return fmt.Errorf("furbot: decode control: magic % x: %w", b[0:4], ErrMagic)
	}
	*c = Control{
		Seq:       be.Uint32(b[4:]),
		Timestamp: be.Uint32(b[8:]),
		Steer:     int32(be.Uint32(b[12:])),
		Throttle:  int32(be.Uint32(b[16:])),
		Brake:     int16(be.Uint16(b[20:])),
		Flags:     b[22],
	}
	if b[23] != 0 {
		return fmt.Errorf("furbot: decode control: reserved byte %#02x: %w", b[23], ErrFlags)
	}
	if err := c.Validate(); err != nil {
		return fmt.Errorf("furbot: decode %w", err)
	}
	return nil
}

// AppendControl appends the control frame for c to dst. It does not
// validate c (call Validate); it allocates only if dst lacks capacity.
func AppendControl(dst []byte, c *Control) []byte {
	dst = append(dst, ControlMagic[:]...)
	dst = be.AppendUint32(dst, c.Seq)
	dst = be.AppendUint32(dst, c.Timestamp)
	dst = be.AppendUint32(dst, uint32(c.Steer))
	dst = be.AppendUint32(dst, uint32(c.Throttle))
	dst = be.AppendUint16(dst, uint16(c.Brake))
	return append(dst, c.Flags, 0)
}
