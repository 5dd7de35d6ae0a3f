//go:build linux && cgo

package wire

import (
	"errors"
	"fmt"

	"github.com/vladimirvivien/go4vl/v4l2"
)

// V4L2 control types (enum v4l2_ctrl_type), checked against the header by
// TestABIMatchesHeader.
const (
	ctrlTypeInteger     = 1
	ctrlTypeBoolean     = 2
	ctrlTypeMenu        = 3
	ctrlTypeButton      = 4
	ctrlTypeInteger64   = 5
	ctrlTypeClass       = 6
	ctrlTypeString      = 7
	ctrlTypeBitmask     = 8
	ctrlTypeIntegerMenu = 9
)

var ctrlTypeNames = map[uint32]string{
	ctrlTypeInteger: "integer", ctrlTypeBoolean: "boolean", ctrlTypeMenu: "menu",
	ctrlTypeButton: "button", ctrlTypeInteger64: "integer64", ctrlTypeString: "string",
	ctrlTypeBitmask: "bitmask", ctrlTypeIntegerMenu: "integer_menu",
}

// QueryControls lists the controls of the device open at fd with their
// current values (VIDIOC_QUERY_EXT_CTRL, VIDIOC_G_CTRL, VIDIOC_QUERYMENU),
// control class headings left out; nil when the device has none.
func QueryControls(fd int) ([]Control, error) {
	raw, err := v4l2.QueryAllControls(uintptr(fd))
	if err != nil && len(raw) == 0 {
		if errors.Is(err, v4l2.ErrorBadArgument) {
			return nil, nil // no controls at all
		}
		return nil, err
	}
	out := make([]Control, 0, len(raw))
	for _, r := range raw {
		if uint32(r.Type) == ctrlTypeClass {
			continue
		}
		typ, ok := ctrlTypeNames[uint32(r.Type)]
		if !ok {
			typ = fmt.Sprintf("type_%d", r.Type)
		}
		c := Control{
			ID: r.ID, Name: r.Name, Param: ControlParamName(r.Name), Type: typ,
			Min: int64(r.Minimum), Max: int64(r.Maximum), Step: int64(r.Step), Default: int64(r.Default),
		}
		if c.Settable() {
			if v, err := v4l2.GetControlValue(uintptr(fd), r.ID); err == nil {
				c.Value, c.Readable = int64(v), true
			}
		}
		if r.IsMenu() {
			if items, err := r.GetMenuItems(); err == nil {
				for _, it := range items {
					c.Menu = append(c.Menu, MenuItem{Index: int64(it.Index), Name: it.Name})
				}
			}
		}
		out = append(out, c)
	}
	return out, nil
}

// ControlValue reads the value of control id (VIDIOC_G_CTRL).
func ControlValue(fd int, id uint32) (int64, error) {
	v, err := v4l2.GetControlValue(uintptr(fd), id)
	return int64(v), err
}

// SetControlValue sets control id to v (VIDIOC_S_CTRL); for a button
// control any value presses it.
func SetControlValue(fd int, id uint32, v int64) error {
	return v4l2.SetControlValue(uintptr(fd), id, v4l2.CtrlValue(v))
}
