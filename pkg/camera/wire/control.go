package wire

import "strings"

// Control is one V4L2 control of a device (exposure, gain, ...), as listed
// by QueryControls (pkg/camera's Device.Controls).
type Control struct {
	ID   uint32 // V4L2 control id (V4L2_CID_*)
	Name string // V4L2 name, e.g. "Exposure, Absolute"
	// Param is the parameter name under the node's ControlPrefix, e.g.
	// "exposure_absolute" (see ControlParamName).
	Param                   string
	Type                    string // "integer", "boolean", "menu", "integer_menu", "bitmask", "button", "integer64", ...
	Min, Max, Step, Default int64  // the control's range, step and default
	// Value is the current value; valid when Readable.
	Value    int64
	Readable bool
	Menu     []MenuItem // items of a menu control
}

// MenuItem is one choice of a menu control.
type MenuItem struct {
	Index int64  // the value that selects it
	Name  string // its V4L2 name
}

// Settable reports whether the control takes an integer value through
// VIDIOC_S_CTRL (integer, boolean, menu, integer menu, bitmask).
func (c Control) Settable() bool {
	switch c.Type {
	case "integer", "boolean", "menu", "integer_menu", "bitmask":
		return true
	}
	return false
}

// ControlParamName turns a V4L2 control name ("Exposure, Absolute", "White
// Balance Temperature") into its parameter form ("exposure_absolute",
// "white_balance_temperature"): lower case, runs of other characters -> '_'.
func ControlParamName(v4l2Name string) string {
	var b strings.Builder
	pending := false
	for _, r := range strings.ToLower(v4l2Name) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			if pending && b.Len() > 0 {
				b.WriteByte('_')
			}
			pending = false
			b.WriteRune(r)
			continue
		}
		pending = true
	}
	s := b.String()
	if s != "" && s[0] >= '0' && s[0] <= '9' {
		s = "c_" + s
	}
	return s
}
