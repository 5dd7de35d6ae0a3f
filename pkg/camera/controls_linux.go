//go:build linux && cgo

package camera

import (
	"fmt"

	"github.com/telebridge/telebridge/pkg/camera/wire"
)

// Controls lists the device's controls with their current values (control
// class headings left out).
func (d *Device) Controls() ([]wire.Control, error) {
	if d.fd < 0 {
		return nil, fmt.Errorf("camera: controls: %w", ErrClosed)
	}
	cs, err := wire.QueryControls(d.fd)
	if err != nil {
		return nil, fmt.Errorf("camera: %s: list controls: %w", d.cfg.Device, err)
	}
	return cs, nil
}

// findControl returns the control whose parameter name is name.
func (d *Device) findControl(name string) (wire.Control, error) {
	cs, err := d.Controls()
	if err != nil {
		return wire.Control{}, err
	}
	for _, c := range cs {
		if c.Param == name {
			return c, nil
		}
	}
	return wire.Control{}, fmt.Errorf("camera: %s: control %q: %w", d.cfg.Device, name, ErrNoControl)
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
	if err := wire.SetControlValue(d.fd, c.ID, v); err != nil {
		return 0, fmt.Errorf("camera: %s: set control %q = %d: %w", d.cfg.Device, name, v, err)
	}
	got, err := wire.ControlValue(d.fd, c.ID)
	if err != nil {
		return 0, fmt.Errorf("camera: %s: read back control %q: %w", d.cfg.Device, name, err)
	}
	return got, nil
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
	if err := wire.SetControlValue(d.fd, c.ID, 0); err != nil {
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
