package servosila

import (
	"errors"
	"fmt"
	"math"
	"time"
)

// ErrParam is wrapped by every parameter error.
var ErrParam = errors.New("servosila: parameter")

// ParamType is the ROS type of a parameter.
type ParamType string

// Parameter types (as ROS 2 names them).
const (
	ParamString ParamType = "string"
	ParamInt    ParamType = "integer"
	ParamDouble ParamType = "double"
)

// Param is one parameter of a Servosila node: the table a ROS layer
// declares, with the Config field behind it. Values are string, int64 or
// float64 according to Type.
type Param struct {
	Name        string
	Type        ParamType
	Default     any
	Unit        string // "" when dimensionless
	Description string
	// Min and Max bound numbers (inclusive); Min > Max means unbounded.
	Min, Max float64
	// ReadOnly parameters are taken at start only.
	ReadOnly bool

	get func(c *Config) any
	set func(c *Config, v any)
}

func strParam(name, def, desc string, get func(*Config) *string) Param {
	return Param{Name: name, Type: ParamString, Default: def, Description: desc, Min: 1, Max: 0, ReadOnly: true,
		get: func(c *Config) any { return *get(c) }, set: func(c *Config, v any) { *get(c) = v.(string) }}
}

func floatParam(name string, def float64, unit, desc string, min, max float64, ro bool, get func(*Config) *float64) Param {
	return Param{Name: name, Type: ParamDouble, Default: def, Unit: unit, Description: desc, Min: min, Max: max, ReadOnly: ro,
		get: func(c *Config) any { return *get(c) }, set: func(c *Config, v any) { *get(c) = v.(float64) }}
}

func durParam(name string, def time.Duration, desc string, min, max float64, get func(*Config) *time.Duration) Param {
	return Param{Name: name, Type: ParamDouble, Default: def.Seconds(), Unit: "s", Description: desc, Min: min, Max: max,
		get: func(c *Config) any { return get(c).Seconds() },
		set: func(c *Config, v any) { *get(c) = time.Duration(math.Round(v.(float64) * float64(time.Second))) }}
}

func intParam(name string, def int64, desc string, min, max float64, get func(*Config) *int) Param {
	return Param{Name: name, Type: ParamInt, Default: def, Description: desc, Min: min, Max: max, ReadOnly: true,
		get: func(c *Config) any { return int64(*get(c)) }, set: func(c *Config, v any) { *get(c) = int(v.(int64)) }}
}

func frameParam(name string, def int64, desc string, get func(*Config) *uint8) Param {
	return Param{Name: name, Type: ParamInt, Default: def, Description: desc, Min: 0, Max: 255, ReadOnly: true,
		get: func(c *Config) any { return int64(*get(c)) }, set: func(c *Config, v any) { *get(c) = uint8(v.(int64)) }}
}

// Params returns the parameter table of a Servosila node, in a stable
// order. Defaults are those of Config.WithDefaults.
func Params() []Param {
	def := DefaultCalibration()
	p := []Param{
		strParam("robot_address", "10.42.0.1:10000", "UDP address of the vendor server", func(c *Config) *string { return &c.Robot }),
		strParam("local_address", ":0", "local UDP address to bind", func(c *Config) *string { return &c.Local }),
		frameParam("frame_type.remote_control", 1, "frame type id of remote-control packets", func(c *Config) *uint8 { return &c.Frames.RemoteControl }),
		frameParam("frame_type.telemetry", 2, "frame type id of telemetry packets", func(c *Config) *uint8 { return &c.Frames.Telemetry }),
		frameParam("frame_type.video", 4, "frame type id of video frames (ignored)", func(c *Config) *uint8 { return &c.Frames.Video }),
		floatParam("calibration.linear", def.Linear, "units/(m/s)", "chassis scale (English paper; Russian paper 72021.739)", 1, 1e7, true, func(c *Config) *float64 { return &c.Calibration.Linear }),
		floatParam("calibration.angular", def.Angular, "units/(rad/s)", "chassis yaw scale (English paper; Russian paper 24000)", 1, 1e7, true, func(c *Config) *float64 { return &c.Calibration.Angular }),
		floatParam("min_start_velocity", 0.2, "m/s, rad/s", "smallest non-zero chassis command, sign kept (negative disables)", -1, 1, false, func(c *Config) *float64 { return &c.MinStartVelocity }),
		floatParam("max_linear", 0.45, "m/s", "chassis speed limit", 0.01, 10, false, func(c *Config) *float64 { return &c.MaxLinear }),
		floatParam("max_angular", 1.3, "rad/s", "chassis yaw rate limit", 0.01, 10, false, func(c *Config) *float64 { return &c.MaxAngular }),
		floatParam("send_rate", 5, "Hz", "remote-control packet rate", 0.5, 100, true, func(c *Config) *float64 { return &c.SendRate }),
		durParam("command_timeout", 500*time.Millisecond, "a command not refreshed within this becomes zero", 0.05, 10, func(c *Config) *time.Duration { return &c.CommandTimeout }),
		durParam("telemetry_timeout", 3*time.Second, "position control stops when telemetry is older", 0.1, 60, func(c *Config) *time.Duration { return &c.TelemetryTimeout }),
		intParam("shutdown_packets", 5, "zero packets sent on shutdown", 1, 100, func(c *Config) *int { return &c.ShutdownPackets }),
		floatParam("arm.gain", 1.5, "1/s", "proportional gain of position control", 0.01, 50, false, func(c *Config) *float64 { return &c.Arm.Gain }),
		floatParam("arm.min_velocity", 0.02, "rad/s", "smallest non-zero position-control output", 0, 1, false, func(c *Config) *float64 { return &c.Arm.MinVelocity }),
		floatParam("arm.tolerance", 0.01, "rad", "half-width of the target band", 1e-4, 0.5, false, func(c *Config) *float64 { return &c.Arm.Tolerance }),
		durParam("arm.timeout", 20*time.Second, "a target not reached within this is dropped", 0.1, 600, func(c *Config) *time.Duration { return &c.Arm.Timeout }),
	}
	for j := Joint(0); j < NumJoints; j++ {
		p = append(p,
			floatParam("max_velocity."+j.String(), 0.5, "rad/s", j.String()+" velocity limit", 0.01, 10, false, func(c *Config) *float64 { return &c.MaxJoint[j] }),
			floatParam("calibration."+j.String(), def.Joints[j], "units/(rad/s)", j.String()+" scale (assumed: full stick = 0.5 rad/s)", 1, 1e7, true, func(c *Config) *float64 { return &c.Calibration.Joints[j] }),
			intParam("motor_slot."+j.String(), int64(DefaultMotorSlots()[j]), "telemetry record of the "+j.String()+" (-1: none)", -1, NumMotors-1, func(c *Config) *int { return &c.MotorSlots[j] }),
		)
	}
	for _, j := range ArmJoints {
		p = append(p,
			floatParam("arm.lower."+j.String(), -math.Pi, "rad", j.String()+" lower limit", -2*math.Pi, 2*math.Pi, false, func(c *Config) *float64 { return &c.Arm.Lower[j] }),
			floatParam("arm.upper."+j.String(), math.Pi, "rad", j.String()+" upper limit", -2*math.Pi, 2*math.Pi, false, func(c *Config) *float64 { return &c.Arm.Upper[j] }),
		)
	}
	return p
}

// fillPointers gives the pointer fields their defaults so that parameters
// can be written into them.
func (c *Config) fillPointers() {
	if c.Calibration == nil {
		cal := DefaultCalibration()
		c.Calibration = &cal
	}
	if c.Mapping == nil {
		m := DefaultMapping()
		c.Mapping = &m
	}
	if c.MotorSlots == nil {
		s := DefaultMotorSlots()
		c.MotorSlots = &s
	}
}

// Param returns the current value of the named parameter.
func (c *Config) Param(name string) (any, error) {
	for _, p := range Params() {
		if p.Name == name {
			c.fillPointers()
			return p.get(c), nil
		}
	}
	return nil, fmt.Errorf("%w: unknown %q", ErrParam, name)
}

// SetParam checks a value against the table (type and range) and writes it
// into c. It does not run the cross-field checks of WithDefaults.
func (c *Config) SetParam(name string, v any) error {
	for _, p := range Params() {
		if p.Name != name {
			continue
		}
		switch p.Type {
		case ParamString:
			if _, ok := v.(string); !ok {
				return fmt.Errorf("%w: %s wants a string, got %T", ErrParam, name, v)
			}
		case ParamInt:
			i, ok := v.(int64)
			if !ok {
				return fmt.Errorf("%w: %s wants an integer, got %T", ErrParam, name, v)
			}
			if p.Min <= p.Max && (float64(i) < p.Min || float64(i) > p.Max) {
				return fmt.Errorf("%w: %s = %d outside [%g, %g]", ErrParam, name, i, p.Min, p.Max)
			}
		case ParamDouble:
			f, ok := v.(float64)
			if !ok {
				return fmt.Errorf("%w: %s wants a double, got %T", ErrParam, name, v)
			}
			if bad(f) || (p.Min <= p.Max && (f < p.Min || f > p.Max)) {
				return fmt.Errorf("%w: %s = %g outside [%g, %g] %s", ErrParam, name, f, p.Min, p.Max, p.Unit)
			}
		}
		c.fillPointers()
		p.set(c, v)
		return nil
	}
	return fmt.Errorf("%w: unknown %q", ErrParam, name)
}
