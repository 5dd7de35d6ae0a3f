package servosila

import (
	"errors"
	"math"
	"testing"
)

func TestParamsMatchDefaults(t *testing.T) {
	c := defaults(t)
	seen := map[string]bool{}
	for _, p := range Params() {
		if seen[p.Name] {
			t.Errorf("%s twice", p.Name)
		}
		seen[p.Name] = true
		got, err := c.Param(p.Name)
		if err != nil {
			t.Fatal(err)
		}
		if got != p.Default {
			t.Errorf("%s: table default %v, Config default %v", p.Name, p.Default, got)
		}
		if p.Description == "" {
			t.Errorf("%s has no description", p.Name)
		}
		// Writing the default into an empty Config gives the defaults.
		var e Config
		if err := e.SetParam(p.Name, p.Default); err != nil {
			t.Errorf("%s: %v", p.Name, err)
		}
	}
	if len(seen) < 30 {
		t.Errorf("only %d parameters", len(seen))
	}
}

func TestSetParam(t *testing.T) {
	c := defaults(t)
	if err := c.SetParam("command_timeout", 0.25); err != nil || c.CommandTimeout.Seconds() != 0.25 {
		t.Errorf("command_timeout: %v, %v", err, c.CommandTimeout)
	}
	if err := c.SetParam("max_velocity.neck", 0.8); err != nil || c.MaxJoint[Neck] != 0.8 {
		t.Errorf("max_velocity.neck: %v, %v", err, c.MaxJoint)
	}
	if err := c.SetParam("calibration.linear", 72021.739); err != nil || c.Calibration.Linear != 72021.739 {
		t.Errorf("calibration.linear: %v", err)
	}
	if _, err := c.WithDefaults(); err != nil {
		t.Errorf("config after SetParam: %v", err)
	}
	for _, bad := range []struct {
		name string
		v    any
	}{
		{"send_rate", 0.0}, {"send_rate", math.NaN()}, {"send_rate", int64(5)}, {"robot_address", 1.0},
		{"shutdown_packets", int64(0)}, {"motor_slot.waist", int64(10)}, {"frame_type.telemetry", int64(256)}, {"no_such", 1.0},
	} {
		if err := c.SetParam(bad.name, bad.v); !errors.Is(err, ErrParam) {
			t.Errorf("%s = %v: %v, want ErrParam", bad.name, bad.v, err)
		}
	}
}
