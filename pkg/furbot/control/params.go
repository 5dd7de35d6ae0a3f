package control

import (
	"errors"
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

// ErrConfig is wrapped by configuration errors.
var ErrConfig = errors.New("furbot: invalid configuration")

// Binding ties a Param to a field of a Config type C: exactly one of Float,
// Duration and Int is set. The tables of this package (ControllerBindings,
// OdometryBindings) and of the runtime (furbot.BridgeBindings) are the one
// source of the defaults and ranges; package node turns them into ROS 2
// parameters.
type Binding[C any] struct {
	Param
	Float    func(*C) *float64       // a float field, or nil
	Duration func(*C) *time.Duration // a duration field, or nil
	Int      func(*C) *int           // an int field, or nil
}

// ApplyParams fills zero fields of c with defaults and checks every field
// against its range; the error wraps ErrConfig.
func ApplyParams[C any](table []Binding[C], c *C) error {
	for _, b := range table {
		var v float64
		switch {
		case b.Float != nil:
			p := b.Float(c)
			if *p == 0 {
				*p = b.Default
			}
			v = *p
		case b.Int != nil:
			p := b.Int(c)
			if *p == 0 {
				*p = int(b.Default)
			}
			v = float64(*p)
		default:
			p := b.Duration(c)
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

// Params returns the rows of table without their bindings.
func Params[C any](table []Binding[C]) []Param {
	out := make([]Param, len(table))
	for i, b := range table {
		out[i] = b.Param
	}
	return out
}

// Double is the row of a float64 field: name, default def [unit], valid
// range [lo, hi] in unit, description desc.
func Double[C any](name string, def float64, unit string, lo, hi float64, desc string, f func(*C) *float64) Binding[C] {
	return Binding[C]{Param: Param{Name: name, Type: "double", Default: def, Unit: unit, Description: desc, Min: lo, Max: hi}, Float: f}
}

// Seconds is the row of a time.Duration field, set in seconds: default
// def [s], valid range [lo, hi] [s].
func Seconds[C any](name string, def float64, lo, hi float64, desc string, d func(*C) *time.Duration) Binding[C] {
	return Binding[C]{Param: Param{Name: name, Type: "duration", Default: def, Unit: "s", Description: desc, Min: lo, Max: hi}, Duration: d}
}

// Integer is the row of an int field: default def [unit], valid range
// [lo, hi].
func Integer[C any](name string, def float64, unit string, lo, hi float64, desc string, i func(*C) *int) Binding[C] {
	return Binding[C]{Param: Param{Name: name, Type: "int", Default: def, Unit: unit, Description: desc, Min: lo, Max: hi}, Int: i}
}

// RO marks a parameter read-only: it cannot change while the node runs.
func (b Binding[C]) RO() Binding[C] {
	b.ReadOnly = true
	return b
}

// Value returns the current value of b's field in c, in b's unit.
func (b Binding[C]) Value(c *C) float64 {
	switch {
	case b.Float != nil:
		return *b.Float(c)
	case b.Int != nil:
		return float64(*b.Int(c))
	}
	return b.Duration(c).Seconds()
}

type cc = ControllerConfig

// ControllerBindings is the table of ControllerConfig: name, default,
// unit, range and whether it may change while running.
var ControllerBindings = []Binding[cc]{
	Double("wheelbase", 2.0, "m", 0.5, 10, "distance between the axles", func(c *cc) *float64 { return &c.Wheelbase }).RO(),
	Double("max_steer", 0.55, "rad", 0.05, 1.2, "road-wheel angle limit", func(c *cc) *float64 { return &c.MaxSteer }),
	Double("steer_rate", 0.7, "rad/s", 0.01, 10, "steering command rate limit", func(c *cc) *float64 { return &c.SteerRate }),
	Double("max_lat_accel", 0, "m/s^2", 0, 20, "lateral acceleration limit (0: off)", func(c *cc) *float64 { return &c.MaxLatAccel }),
	Double("steer_cmd_speed", 0.1, "m/s", 0.01, 5, "above this commanded speed, steer from the commanded speed", func(c *cc) *float64 { return &c.SteerCmdSpeed }),
	Double("steer_meas_speed", 0.5, "m/s", 0.01, 5, "else above this measured speed, steer from the measured speed; else 0", func(c *cc) *float64 { return &c.SteerMeasSpeed }),
	Double("max_speed", 5, "m/s", 0.1, 15, "commanded speed limit", func(c *cc) *float64 { return &c.MaxSpeed }),
	Double("max_accel", 1.0, "m/s^2", 0.05, 10, "speed reference rise rate", func(c *cc) *float64 { return &c.MaxAccel }),
	Double("max_decel", 1.5, "m/s^2", 0.05, 10, "speed reference fall rate", func(c *cc) *float64 { return &c.MaxDecel }),
	Double("max_jerk", 2, "m/s^3", 0.1, 50, "speed reference jerk limit", func(c *cc) *float64 { return &c.MaxJerk }),
	Double("kp", 1.2, "1/(m/s)", 0, 20, "speed PID proportional gain (pedal per m/s)", func(c *cc) *float64 { return &c.Kp }),
	Double("ki", 0.8, "1/m", 0, 20, "speed PID integral gain", func(c *cc) *float64 { return &c.Ki }),
	Double("kd", 0, "s/m", 0, 5, "speed PID derivative gain", func(c *cc) *float64 { return &c.Kd }),
	Double("ka", 0.5, "s^2/m", 0, 5, "feed-forward of the reference acceleration", func(c *cc) *float64 { return &c.Ka }),
	Double("lag", 0.15, "s", 0, 2, "throttle lag anticipated by the feed-forward", func(c *cc) *float64 { return &c.Lag }),
	Double("kf", 0.05, "-", 0, 0.5, "constant throttle feed-forward while driving (rolling resistance)", func(c *cc) *float64 { return &c.Kf }),
	Double("integral_max", 0.4, "-", 0.01, 1, "anti-windup bound of the integral term", func(c *cc) *float64 { return &c.IntegralMax }),
	Double("brake_gain", 1, "-", 0.01, 10, "brake per unit of negative controller output", func(c *cc) *float64 { return &c.BrakeGain }),
	Double("deadband", 0.02, "-", 0, 0.5, "controller output band with neither throttle nor brake", func(c *cc) *float64 { return &c.Deadband }),
	Double("stop_brake_gain", 0.6, "1/(m/s)", 0.01, 10, "brake per m/s above the reference when stopping", func(c *cc) *float64 { return &c.StopBrakeGain }),
	Double("hold_brake", 0.3, "-", 0.01, 1, "brake held at standstill with a zero target", func(c *cc) *float64 { return &c.HoldBrake }),
	Double("stop_speed", 0.05, "m/s", 0.001, 1, "speed below which the vehicle counts as stopped", func(c *cc) *float64 { return &c.StopSpeed }),
	Seconds("command_timeout", 0.5, 0.02, 10, "age after which cmd_vel is stale and the vehicle brakes to a stop", func(c *cc) *time.Duration { return &c.CommandTimeout }),
}

// ControllerParams returns the parameter table of ControllerConfig.
func ControllerParams() []Param { return Params(ControllerBindings) }
