package furbot

import (
	"fmt"
	"math"
	"time"
)

// Param describes one configuration parameter for a ROS 2 node, a YAML
// file or a command line: its name, type, default, unit and valid range.
// A zero value in a Config means "use the default".
type Param struct {
	Name        string  // parameter name (snake_case)
	Type        string  // "double", "int" or "duration" (seconds as a double)
	Default     float64 // in Unit (seconds for durations)
	Unit        string  // e.g. "m/s", "rad", "s", "-"
	Description string  // one line
	Min, Max    float64 // valid range, inclusive, in Unit
	ReadOnly    bool    // true when it cannot change while running
}

// binding ties a Param to a field of a Config type C.
type binding[C any] struct {
	Param
	f func(*C) *float64       // a float field, or nil
	d func(*C) *time.Duration // a duration field, or nil
	i func(*C) *int           // an int field, or nil
}

// applyParams fills zero fields of c with defaults and checks every field
// against its range; the error wraps ErrConfig.
func applyParams[C any](table []binding[C], c *C) error {
	for _, b := range table {
		var v float64
		switch {
		case b.f != nil:
			p := b.f(c)
			if *p == 0 {
				*p = b.Default
			}
			v = *p
		case b.i != nil:
			p := b.i(c)
			if *p == 0 {
				*p = int(b.Default)
			}
			v = float64(*p)
		default:
			p := b.d(c)
			if *p == 0 {
				*p = time.Duration(b.Default * float64(time.Second))
			}
			v = p.Seconds()
		}
		if math.IsNaN(v) || v < b.Min || v > b.Max {
			return fmt.Errorf("%w: %s = %g %s, want %g..%g", ErrConfig, b.Name, v, b.Unit, b.Min, b.Max)
		}
	}
	return nil
}

func params[C any](table []binding[C]) []Param {
	out := make([]Param, len(table))
	for i, b := range table {
		out[i] = b.Param
	}
	return out
}

func dbl[C any](name string, def float64, unit string, lo, hi float64, desc string, f func(*C) *float64) binding[C] {
	return binding[C]{Param: Param{Name: name, Type: "double", Default: def, Unit: unit, Description: desc, Min: lo, Max: hi}, f: f}
}

func dur[C any](name string, def float64, lo, hi float64, desc string, d func(*C) *time.Duration) binding[C] {
	return binding[C]{Param: Param{Name: name, Type: "duration", Default: def, Unit: "s", Description: desc, Min: lo, Max: hi}, d: d}
}

func integer[C any](name string, def float64, unit string, lo, hi float64, desc string, i func(*C) *int) binding[C] {
	return binding[C]{Param: Param{Name: name, Type: "int", Default: def, Unit: unit, Description: desc, Min: lo, Max: hi}, i: i}
}

// ro marks a parameter read-only: it cannot change while the node runs.
func (b binding[C]) ro() binding[C] {
	b.ReadOnly = true
	return b
}

// value returns the current value of b's field in c, in b's unit.
func (b binding[C]) value(c *C) float64 {
	switch {
	case b.f != nil:
		return *b.f(c)
	case b.i != nil:
		return float64(*b.i(c))
	}
	return b.d(c).Seconds()
}

type cc = ControllerConfig

var controllerParams = []binding[cc]{
	dbl("wheelbase", 2.0, "m", 0.5, 10, "distance between the axles", func(c *cc) *float64 { return &c.Wheelbase }).ro(),
	dbl("max_steer", 0.55, "rad", 0.05, 1.2, "road-wheel angle limit", func(c *cc) *float64 { return &c.MaxSteer }),
	dbl("steer_rate", 0.7, "rad/s", 0.01, 10, "steering command rate limit", func(c *cc) *float64 { return &c.SteerRate }),
	dbl("max_lat_accel", 0, "m/s^2", 0, 20, "lateral acceleration limit (0: off)", func(c *cc) *float64 { return &c.MaxLatAccel }),
	dbl("steer_cmd_speed", 0.1, "m/s", 0.01, 5, "above this commanded speed, steer from the commanded speed", func(c *cc) *float64 { return &c.SteerCmdSpeed }),
	dbl("steer_meas_speed", 0.5, "m/s", 0.01, 5, "else above this measured speed, steer from the measured speed; else 0", func(c *cc) *float64 { return &c.SteerMeasSpeed }),
	dbl("max_speed", 5, "m/s", 0.1, 15, "commanded speed limit", func(c *cc) *float64 { return &c.MaxSpeed }),
	dbl("max_accel", 1.0, "m/s^2", 0.05, 10, "speed reference rise rate", func(c *cc) *float64 { return &c.MaxAccel }),
	dbl("max_decel", 1.5, "m/s^2", 0.05, 10, "speed reference fall rate", func(c *cc) *float64 { return &c.MaxDecel }),
	dbl("max_jerk", 2, "m/s^3", 0.1, 50, "speed reference jerk limit", func(c *cc) *float64 { return &c.MaxJerk }),
	dbl("kp", 1.2, "1/(m/s)", 0, 20, "speed PID proportional gain (pedal per m/s)", func(c *cc) *float64 { return &c.Kp }),
	dbl("ki", 0.8, "1/m", 0, 20, "speed PID integral gain", func(c *cc) *float64 { return &c.Ki }),
	dbl("kd", 0, "s/m", 0, 5, "speed PID derivative gain", func(c *cc) *float64 { return &c.Kd }),
	dbl("ka", 0.5, "s^2/m", 0, 5, "feed-forward of the reference acceleration", func(c *cc) *float64 { return &c.Ka }),
	dbl("lag", 0.15, "s", 0, 2, "throttle lag anticipated by the feed-forward", func(c *cc) *float64 { return &c.Lag }),
	dbl("kf", 0.05, "-", 0, 0.5, "constant throttle feed-forward while driving (rolling resistance)", func(c *cc) *float64 { return &c.Kf }),
	dbl("integral_max", 0.4, "-", 0.01, 1, "anti-windup bound of the integral term", func(c *cc) *float64 { return &c.IntegralMax }),
	dbl("brake_gain", 1, "-", 0.01, 10, "brake per unit of negative controller output", func(c *cc) *float64 { return &c.BrakeGain }),
	dbl("deadband", 0.02, "-", 0, 0.5, "controller output band with neither throttle nor brake", func(c *cc) *float64 { return &c.Deadband }),
	dbl("stop_brake_gain", 0.6, "1/(m/s)", 0.01, 10, "brake per m/s above the reference when stopping", func(c *cc) *float64 { return &c.StopBrakeGain }),
	dbl("hold_brake", 0.3, "-", 0.01, 1, "brake held at standstill with a zero target", func(c *cc) *float64 { return &c.HoldBrake }),
	dbl("stop_speed", 0.05, "m/s", 0.001, 1, "speed below which the vehicle counts as stopped", func(c *cc) *float64 { return &c.StopSpeed }),
	dur("command_timeout", 0.5, 0.02, 10, "age after which cmd_vel is stale and the vehicle brakes to a stop", func(c *cc) *time.Duration { return &c.CommandTimeout }),
}

// ControllerParams returns the parameter table of ControllerConfig.
func ControllerParams() []Param { return params(controllerParams) }
