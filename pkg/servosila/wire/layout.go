package wire

import (
	"fmt"
)

// Kind is the wire type of one packet field. All multi-byte kinds are
// little-endian.
type Kind uint8

// The wire types used by the Servosila protocol.
const (
	Uint8 Kind = iota + 1
	Uint16
	Int16
	Uint32
	Uint64
	Float64
	Struct // a nested record (a motor record inside telemetry)
	Pad    // bytes the protocol does not use
)

// Size returns the size of one element of k in bytes (0 for Struct and
// Pad, whose size comes from the field).
func (k Kind) Size() int {
	switch k {
	case Uint8:
		return 1
	case Uint16, Int16:
		return 2
	case Uint32:
		return 4
	case Uint64, Float64:
		return 8
	}
	return 0
}

// String returns the name of the kind as it appears in the documentation.
func (k Kind) String() string {
	switch k {
	case Uint8:
		return "u8"
	case Uint16:
		return "u16"
	case Int16:
		return "i16"
	case Uint32:
		return "u32"
	case Uint64:
		return "u64"
	case Float64:
		return "f64"
	case Struct:
		return "struct"
	case Pad:
		return "pad"
	}
	return fmt.Sprintf("kind(%d)", uint8(k))
}

// Field is one field of a packet layout. Fields are packed: each starts
// where the previous one ends.
type Field struct {
	Name  string // snake_case name, as in the JSON of `telebridge decode`
	Kind  Kind   // wire type of one element
	Count int    // number of elements (1 for a scalar)
	// ElemSize is the size of one element for Struct and Pad fields [bytes]
	// (ignored for the other kinds).
	ElemSize int
	Offset   int // byte offset in the packet; filled in from the order
}

// Size returns the total size of the field in bytes.
func (f Field) Size() int {
	n := f.Kind.Size()
	if f.Kind == Struct || f.Kind == Pad {
		n = f.ElemSize
	}
	return n * f.Count
}

// Layout is the byte layout of one packet or record.
type Layout struct {
	Name   string  // the packet's or record's name, for messages
	Fields []Field // in wire order, at their offsets
	Size   int     // total size [bytes]; filled in from the fields
}

// layout computes the offsets and the size of a packed layout.
func layout(name string, fields []Field) Layout {
	off := 0
	for i := range fields {
		fields[i].Offset = off
		off += fields[i].Size()
	}
	return Layout{Name: name, Fields: fields, Size: off}
}

// The protocol, in one place. The codecs read every offset from these
// tables, so correcting a field for a real robot means editing one line
// here (and the golden bytes in the tests).
//
// Field indices of the motor record.
const (
	mDeviceID = iota
	mState
	mMode
	mPosition
	mSpeed
	mCurrent
	mStatusBits
	mPositionCommand
	mSpeedCommand
	mCurrentCommand
	mFaultDetected
	mFaultCounter
	motorFieldCount
)

// MotorLayout is the 24-byte motor record of a telemetry packet.
var MotorLayout = layout("motor", []Field{
	mDeviceID:        {Name: "device_id", Kind: Uint8, Count: 1},
	mState:           {Name: "state", Kind: Uint8, Count: 1},
	mMode:            {Name: "operation_mode", Kind: Uint8, Count: 1},
	mPosition:        {Name: "position", Kind: Uint32, Count: 1},
	mSpeed:           {Name: "speed", Kind: Int16, Count: 1},
	mCurrent:         {Name: "current", Kind: Int16, Count: 1},
	mStatusBits:      {Name: "status_bits", Kind: Int16, Count: 1},
	mPositionCommand: {Name: "position_command", Kind: Uint32, Count: 1},
	mSpeedCommand:    {Name: "speed_command", Kind: Int16, Count: 1},
	mCurrentCommand:  {Name: "current_command", Kind: Int16, Count: 1},
	mFaultDetected:   {Name: "fault_detected", Kind: Uint8, Count: 1},
	mFaultCounter:    {Name: "fault_counter", Kind: Uint16, Count: 1},
})

// Field indices of the remote-control packet.
const (
	rcFrameType = iota
	rcAxes
	rcButtons
	rcVideoBitRate
)

// NumAxes and NumButtons are the gamepad channels of a remote-control
// packet; NumMotors is the number of motor records in a telemetry packet.
const (
	NumAxes    = 16
	NumButtons = 16
	NumMotors  = 10
)

// RemoteControlLayout is the 57-byte packet the operator side sends.
var RemoteControlLayout = layout("remote control", []Field{
	rcFrameType:    {Name: "frame_type", Kind: Uint8, Count: 1},
	rcAxes:         {Name: "axes", Kind: Int16, Count: NumAxes},
	rcButtons:      {Name: "buttons", Kind: Uint8, Count: NumButtons},
	rcVideoBitRate: {Name: "video_bit_rate", Kind: Float64, Count: 1},
})

// Field indices of the telemetry packet.
const (
	tFrameType = iota
	tTick
	tMotorCount
	tMotors
	tUnused
)

// TelemetryLayout is the 275-byte packet the robot sends.
var TelemetryLayout = layout("telemetry", []Field{
	tFrameType:  {Name: "frame_type", Kind: Uint8, Count: 1},
	tTick:       {Name: "tick", Kind: Uint64, Count: 1},
	tMotorCount: {Name: "motor_count", Kind: Uint8, Count: 1},
	tMotors:     {Name: "motors", Kind: Struct, Count: NumMotors, ElemSize: MotorLayout.Size},
	tUnused:     {Name: "unused", Kind: Pad, Count: 1, ElemSize: 25},
})

// Sizes of the packets [bytes], from the tables above.
var (
	RemoteControlSize = RemoteControlLayout.Size // 57
	TelemetrySize     = TelemetryLayout.Size     // 275
	MotorSize         = MotorLayout.Size         // 24
)

// Offsets used by the codecs, read once from the tables.
var (
	offRCAxes    = RemoteControlLayout.Fields[rcAxes].Offset
	offRCButtons = RemoteControlLayout.Fields[rcButtons].Offset
	offRCVideo   = RemoteControlLayout.Fields[rcVideoBitRate].Offset

	offTTick       = TelemetryLayout.Fields[tTick].Offset
	offTMotorCount = TelemetryLayout.Fields[tMotorCount].Offset
	offTMotors     = TelemetryLayout.Fields[tMotors].Offset
	offTUnused     = TelemetryLayout.Fields[tUnused].Offset
	sizeTUnused    = TelemetryLayout.Fields[tUnused].Size()

	offM = func() (o [motorFieldCount]int) {
		for i := range o {
			o[i] = MotorLayout.Fields[i].Offset
		}
		return o
	}()
)
