//go:build linux && cgo

package camera

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

// Controls lists the device's controls with their current values (control
// class headings left out).
func (d *Device) Controls() ([]Control, error) {
	if d.fd < 0 {
		return nil, fmt.Errorf("camera: controls: %w", ErrClosed)
	}
	raw, err := v4l2.QueryAllControls(uintptr(d.fd))
	if err != nil && len(raw) == 0 {
		if errors.Is(err, v4l2.ErrorBadArgument) {
			return nil, nil // no controls at all
		}
		return nil, fmt.Errorf("camera: %s: list controls: %w", d.cfg.Device, err)
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
			if v, err := v4l2.GetControlValue(uintptr(d.fd), r.ID); err == nil {
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

// findControl returns the control whose parameter name is name.
func (d *Device) findControl(name string) (Control, error) {
	cs, err := d.Controls()
	if err != nil {
		return Control{}, err
	}
	for _, c := range cs {
		if c.Param == name {
			return c, nil
		}
	}
	return Control{}, fmt.Errorf("camera: %s: control %q: %w", d.cfg.Device, name, ErrNoControl)
}

// Control returns the current value of the control with parameter name
// name (e.g. "brightness").
func (d *Device) Control(name string) (int64, error) {
	c, err := d.findControl(name)
	if err != nil {
		return 0, err
	}
	if !c.Readable {
		return 0, fmt.Errorf("camera: %s: control %q (%s) has no integer value: %w", d.cfg.Device, name, c.Type, ErrNoControl)
	}
	return c.Value, nil
}

// SetControl sets the control with parameter name name, checking its range
// first; it returns the value read back from the driver (drivers round to
// the step).
func (d *Device) SetControl(name string, v int64) (int64, error) {
	c, err := d.findControl(name)
	if err != nil {
		return 0, err
	}
	if !c.Settable() {
		return 0, fmt.Errorf("camera: %s: control %q (%s) is not settable: %w", d.cfg.Device, name, c.Type, ErrNoControl)
	}
	if v < c.Min || v > c.Max {
		return 0, fmt.Errorf("camera: %s: control %q = %d: want %d..%d: %w", d.cfg.Device, name, v, c.Min, c.Max, ErrBadParam)
	}
	if err := v4l2.SetControlValue(uintptr(d.fd), c.ID, v4l2.CtrlValue(v)); err != nil {
		return 0, fmt.Errorf("camera: %s: set control %q = %d: %w", d.cfg.Device, name, v, err)
	}
	got, err := v4l2.GetControlValue(uintptr(d.fd), c.ID)
	if err != nil {
		return 0, fmt.Errorf("camera: %s: read back control %q: %w", d.cfg.Device, name, err)
	}
	return int64(got), nil
}

// PressButton triggers a button control (type "button") by parameter name.
func (d *Device) PressButton(name string) error {
	c, err := d.findControl(name)
	if err != nil {
		return err
	}
	if c.Type != "button" {
		return fmt.Errorf("camera: %s: control %q is a %s, not a button: %w", d.cfg.Device, name, c.Type, ErrNoControl)
	}
	if err := v4l2.SetControlValue(uintptr(d.fd), c.ID, 0); err != nil {
		return fmt.Errorf("camera: %s: press %q: %w", d.cfg.Device, name, err)
	}
	return nil
}

func (d *Device) applyControls() error {
	for name, v := range d.cfg.Controls {
		if _, err := d.SetControl(name, v); err != nil {
			return err
		}
	}
	return nil
}
