package wire

// Field describes one field of the protocol: where it sits, its wire type
// and its unit. Layout lists every field; the codecs in status_codec.go
// and control.go implement exactly this table, docs/protocols/furbot.md
// shows it, and tests check all three agree.
type Field struct {
	// Block is "header" (status frame header), a block name (see
	// BlockID.String) or "control" (control frame).
	Block string
	// Name is the field's JSON name in Status or Control.
	Name string
	// Offset is the byte offset from the start of the block's data (for
	// header and control, from the start of the frame).
	Offset int
	// Type is the wire type: u8, i8, u16, i16, u32, i32, or bytes4.
	Type string
	// Scale is the size of one count in Unit, as written in the
	// documentation ("1" for plain counts).
	Scale string
	// Unit is the unit of Scale ("-" when the field is a code or bit set).
	Unit string
	// Known is true when the field (name, position and type) comes from the
	// known layout; its scale is an assumption unless Unit is "-" or "ms".
	Known bool
}

// Layout is the protocol in one table, in wire order within each block.
var Layout = []Field{
	{"header", "magic", 0, "bytes4", "1", "-", true},
	{"header", "timestamp", 4, "u32", "1", "ms", true},
	{"header", "count", 8, "u8", "1", "-", true},
	{"header", "reserved", 9, "bytes3", "1", "-", true},

	{"comm", "state", 0, "u8", "1", "-", false},
	{"comm", "flags", 1, "u8", "1", "-", false},
	{"comm", "rx_frames", 2, "u16", "1", "-", false},
	{"comm", "rejected", 4, "u16", "1", "-", false},

	{"bms", "state", 0, "u8", "1", "-", true},
	{"bms", "charge", 1, "u8", "1", "%", true},
	{"bms", "current", 2, "u16", "0.1", "A", true},
	{"bms", "voltage", 4, "u16", "0.01", "V", true},
	{"bms", "temp_high", 6, "i8", "1", "degC", true},
	{"bms", "temp_low", 7, "i8", "1", "degC", true},

	{"motion", "state", 0, "u8", "1", "-", false},
	{"motion", "mode", 1, "u8", "1", "-", false},
	{"motion", "flags", 2, "u8", "1", "-", false},
	{"motion", "last_seq", 3, "u32", "1", "-", false},

	{"traction", "state", 0, "u8", "1", "-", true},
	{"traction", "mode", 1, "u8", "1", "-", true},
	{"traction", "speed", 2, "i16", "0.001", "m/s", true},
	{"traction", "wheel_left", 4, "i16", "0.01", "rad/s", true},
	{"traction", "wheel_right", 6, "i16", "0.01", "rad/s", true},
	{"traction", "throttle", 8, "i16", "0.1", "%", true},
	{"traction", "brake", 10, "i16", "0.1", "%", true},
	{"traction", "reverse", 12, "u8", "1", "-", true},
	{"traction", "odometer", 13, "i32", "0.01", "m", true},

	{"steering", "state", 0, "u8", "1", "-", true},
	{"steering", "angle", 1, "i16", "0.01", "deg", true},
	{"steering", "target", 3, "i16", "0.01", "deg", true},

	{"hydraulics", "state", 0, "u8", "1", "-", false},
	{"hydraulics", "pump", 1, "u8", "1", "-", false},
	{"hydraulics", "pressure", 2, "u16", "0.1", "bar", false},
	{"hydraulics", "oil_temp", 4, "i8", "1", "degC", false},
	{"hydraulics", "oil_level", 5, "u8", "1", "%", false},
	{"hydraulics", "valves", 6, "u16", "1", "-", false},

	{"suspension", "state", 0, "u8", "1", "-", false},
	{"suspension", "height", 1, "i16", "0.001", "m", false},
	{"suspension", "target", 3, "i16", "0.001", "m", false},
	{"suspension", "pressure", 5, "u16", "0.1", "bar", false},

	{"fork", "state", 0, "u8", "1", "-", false},
	{"fork", "lift", 1, "u16", "0.001", "m", false},
	{"fork", "tilt", 3, "i16", "0.01", "deg", false},
	{"fork", "shift", 5, "i16", "0.001", "m", false},
	{"fork", "load", 7, "u16", "1", "kg", false},
	{"fork", "flags", 9, "u16", "1", "-", false},

	{"control", "magic", 0, "bytes4", "1", "-", false},
	{"control", "seq", 4, "u32", "1", "-", false},
	{"control", "timestamp", 8, "u32", "1", "ms", false},
	{"control", "steer", 12, "i32", "0.01", "deg", true},
	{"control", "throttle", 16, "i32", "0.1", "%", true},
	{"control", "brake", 20, "i16", "0.1", "%", true},
	{"control", "flags", 22, "u8", "1", "-", false},
	{"control", "reserved", 23, "u8", "1", "-", false},
}

// layoutBlock maps a block id to its name in Layout: the four suspension
// units share "suspension" and the two forks share "fork".
func layoutBlock(id BlockID) string {
	switch {
	case id >= BlockSuspRL && id <= BlockSuspFR:
		return "suspension"
	case id >= BlockRearFork && int(id) < NumBlocks:
		return "fork"
	}
	return id.String()
}
