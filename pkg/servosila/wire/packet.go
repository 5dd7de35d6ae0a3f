package wire

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
)

// Sentinel errors of the codecs. Decoders wrap them with the operation and
// the offending value, so callers branch with errors.Is.
var (
	// ErrLength: the packet does not have the size of its layout.
	ErrLength = errors.New("wrong packet length")
	// ErrFrameType: the first byte is not the expected frame type id.
	ErrFrameType = errors.New("wrong frame type")
	// ErrMotorCount: a telemetry packet claims more motors than it holds.
	ErrMotorCount = errors.New("motor count out of range")
)

// FrameTypes are the frame type ids (first byte of every packet). Defaults:
// 1 remote control, 2 telemetry, 4 video frame (as seen in a public client
// of the robot).
type FrameTypes struct {
	RemoteControl uint8 // default 1
	Telemetry     uint8 // default 2
	Video         uint8 // default 4; video frames are recognised and ignored
}

// DefaultFrameTypes returns the default frame type ids.
func DefaultFrameTypes() FrameTypes { return FrameTypes{RemoteControl: 1, Telemetry: 2, Video: 4} }

// RemoteControl is the 57-byte packet the operator side sends five times a
// second: an emulated Xbox 360 gamepad. Axis values are stick positions in
// [-32768, 32767]; a button is pressed when non-zero.
type RemoteControl struct {
	FrameType    uint8             // 1 by default (FrameTypes.RemoteControl)
	Axes         [NumAxes]int16    // stick positions [-32768, 32767]
	Buttons      [NumButtons]uint8 // non-zero while pressed
	VideoBitRate float64           // video bit-rate telemetry echoed to the robot (unit not documented)
}

// Motor is one 24-byte motor record of a telemetry packet. Position is in
// counts (65535 per 360 degrees); speed and current are raw protocol units
// (current in amperes according to the papers).
type Motor struct {
	DeviceID        uint8 // vendor device id
	State           uint8 // vendor state code
	OperationMode   uint8 // vendor operation mode code
	Position        uint32
	Speed           int16  // raw protocol units (scale not documented)
	Current         int16  // [A], according to the papers
	StatusBits      int16  // vendor status bits
	PositionCommand uint32 // [counts], 65535 per turn
	SpeedCommand    int16  // raw protocol units
	CurrentCommand  int16  // raw protocol units
	FaultDetected   uint8  // non-zero while a fault is detected
	FaultCounter    uint16 // faults counted by the motor
}

// Telemetry is the 275-byte packet the robot sends once a second.
type Telemetry struct {
	FrameType  uint8            // 2 by default (FrameTypes.Telemetry)
	Tick       uint64           // the robot's packet counter; restarts at 1 on a reboot
	MotorCount uint8            // valid records at the start of Motors (at most NumMotors)
	Motors     [NumMotors]Motor // the first MotorCount are valid
	// Unused holds the trailing bytes the protocol does not use, kept so
	// that decode -> encode reproduces a packet byte for byte.
	Unused [25]byte
}

var le = binary.LittleEndian

// EncodeRemoteControl writes rc into b, which must hold at least
// RemoteControlSize bytes, and returns the packet (b[:57]). It allocates
// nothing.
func EncodeRemoteControl(b []byte, rc *RemoteControl) ([]byte, error) {
	if len(b) < RemoteControlSize {
		return nil, fmt.Errorf("servosila: encode remote control: %w: buffer of %d bytes, need %d", ErrLength, len(b), RemoteControlSize)
	}
	b = b[:RemoteControlSize]
	b[0] = rc.FrameType
	for i, a := range rc.Axes {
		le.PutUint16(b[offRCAxes+2*i:], uint16(a))
	}
	copy(b[offRCButtons:offRCButtons+NumButtons], rc.Buttons[:])
	le.PutUint64(b[offRCVideo:], math.Float64bits(rc.VideoBitRate))
	return b, nil
}

// DecodeRemoteControl parses a remote-control packet into rc. It checks the
// length and, unless frameType is 0, the frame type id. It allocates
// nothing on success.
func DecodeRemoteControl(rc *RemoteControl, b []byte, frameType uint8) error {
	if len(b) != RemoteControlSize {
		return fmt.Errorf("servosila: decode remote control: %w: %d bytes, want %d", ErrLength, len(b), RemoteControlSize)
	}
	if frameType != 0 && b[0] != frameType {
		return fmt.Errorf("servosila: decode remote control: %w: %d, want %d", ErrFrameType, b[0], frameType)
	}
	rc.FrameType = b[0]
	for i := range rc.Axes {
		rc.Axes[i] = int16(le.Uint16(b[offRCAxes+2*i:]))
	}
	copy(rc.Buttons[:], b[offRCButtons:offRCButtons+NumButtons])
	rc.VideoBitRate = math.Float64frombits(le.Uint64(b[offRCVideo:]))
	return nil
}

// EncodeMotor writes m into b (at least MotorSize bytes).
func EncodeMotor(b []byte, m *Motor) {
	_ = b[MotorSize-1]
	b[offM[mDeviceID]] = m.DeviceID
	b[offM[mState]] = m.State
	b[offM[mMode]] = m.OperationMode
	le.PutUint32(b[offM[mPosition]:], m.Position)
	le.PutUint16(b[offM[mSpeed]:], uint16(m.Speed))
	le.PutUint16(b[offM[mCurrent]:], uint16(m.Current))
	le.PutUint16(b[offM[mStatusBits]:], uint16(m.StatusBits))
	le.PutUint32(b[offM[mPositionCommand]:], m.PositionCommand)
	le.PutUint16(b[offM[mSpeedCommand]:], uint16(m.SpeedCommand))
	le.PutUint16(b[offM[mCurrentCommand]:], uint16(m.CurrentCommand))
	b[offM[mFaultDetected]] = m.FaultDetected
	le.PutUint16(b[offM[mFaultCounter]:], m.FaultCounter)
}

// DecodeMotor parses one motor record from b (at least MotorSize bytes).
func DecodeMotor(m *Motor, b []byte) {
	_ = b[MotorSize-1]
	m.DeviceID = b[offM[mDeviceID]]
	m.State = b[offM[mState]]
	m.OperationMode = b[offM[mMode]]
	m.Position = le.Uint32(b[offM[mPosition]:])
	m.Speed = int16(le.Uint16(b[offM[mSpeed]:]))
	m.Current = int16(le.Uint16(b[offM[mCurrent]:]))
	m.StatusBits = int16(le.Uint16(b[offM[mStatusBits]:]))
	m.PositionCommand = le.Uint32(b[offM[mPositionCommand]:])
	m.SpeedCommand = int16(le.Uint16(b[offM[mSpeedCommand]:]))
	m.CurrentCommand = int16(le.Uint16(b[offM[mCurrentCommand]:]))
	m.FaultDetected = b[offM[mFaultDetected]]
	m.FaultCounter = le.Uint16(b[offM[mFaultCounter]:])
}

// EncodeTelemetry writes t into b, which must hold at least TelemetrySize
// bytes, and returns the packet (b[:275]). It allocates nothing.
func EncodeTelemetry(b []byte, t *Telemetry) ([]byte, error) {
	if len(b) < TelemetrySize {
		return nil, fmt.Errorf("servosila: encode telemetry: %w: buffer of %d bytes, need %d", ErrLength, len(b), TelemetrySize)
	}
	b = b[:TelemetrySize]
	b[0] = t.FrameType
	le.PutUint64(b[offTTick:], t.Tick)
	b[offTMotorCount] = t.MotorCount
	for i := range t.Motors {
		EncodeMotor(b[offTMotors+i*MotorSize:], &t.Motors[i])
	}
	copy(b[offTUnused:offTUnused+sizeTUnused], t.Unused[:])
	return b, nil
}

// DecodeTelemetry parses a telemetry packet into t. It checks the length,
// the frame type id (unless frameType is 0) and that the motor count does
// not exceed NumMotors. It allocates nothing on success.
func DecodeTelemetry(t *Telemetry, b []byte, frameType uint8) error {
	if len(b) != TelemetrySize {
		return fmt.Errorf("servosila: decode telemetry: %w: %d bytes, want %d", ErrLength, len(b), TelemetrySize)
	}
	if frameType != 0 && b[0] != frameType {
		return fmt.Errorf("servosila: decode telemetry: %w: %d, want %d", ErrFrameType, b[0], frameType)
	}
	if n := b[offTMotorCount]; n > NumMotors {
		return fmt.Errorf("servosila: decode telemetry: %w: %d motors, at most %d", ErrMotorCount, n, NumMotors)
	}
	t.FrameType = b[0]
	t.Tick = le.Uint64(b[offTTick:])
	t.MotorCount = b[offTMotorCount]
	for i := range t.Motors {
		DecodeMotor(&t.Motors[i], b[offTMotors+i*MotorSize:])
	}
	copy(t.Unused[:], b[offTUnused:offTUnused+sizeTUnused])
	return nil
}
