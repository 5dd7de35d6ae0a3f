package servosila

import (
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/telebridge/telebridge/pkg/rosparam"
)

// ErrParam is wrapped by ApplyParameters errors.
var ErrParam = errors.New("servosila: parameter")

// param is one table entry with the Config field behind it.
type param struct {
	rosparam.Param
	get func(c *Config) rosparam.ParameterValue
	set func(c *Config, v rosparam.ParameterValue)
}

func strParam(name, def, desc string, field func(*Config) *string) param {
	return param{
		Param: rosparam.Param{Name: name, Type: rosparam.ParameterString, Default: rosparam.String(def), Description: desc, ReadOnly: true},
		get:   func(c *Config) rosparam.ParameterValue { return rosparam.String(*field(c)) },
		set:   func(c *Config, v rosparam.ParameterValue) { *field(c) = v.StringValue },
	}
}

func floatParam(name string, def float64, unit, desc string, from, to float64, ro bool, field func(*Config) *float64) param {
	return param{
		Param: rosparam.Param{Name: name, Type: rosparam.ParameterDouble, Default: rosparam.Double(def), Unit: unit,
			Description: desc, Range: &rosparam.Range{From: from, To: to}, ReadOnly: ro},
		get: func(c *Config) rosparam.ParameterValue { return rosparam.Double(*field(c)) },
		set: func(c *Config, v rosparam.ParameterValue) { *field(c) = v.DoubleValue },
	}
}

func durParam(name string, def time.Duration, desc string, from, to float64, field func(*Config) *time.Duration) param {
	return param{
		Param: rosparam.Param{Name: name, Type: rosparam.ParameterDouble, Default: rosparam.Double(def.Seconds()), Unit: "s",
			Description: desc, Range: &rosparam.Range{From: from, To: to}},
		get: func(c *Config) rosparam.ParameterValue { return rosparam.Double(field(c).Seconds()) },
		set: func(c *Config, v rosparam.ParameterValue) {
			*field(c) = time.Duration(math.Round(v.DoubleValue * float64(time.Second)))
		},
	}
}

func intParam(name string, def int64, desc string, from, to float64, field func(*Config) *int) param {
	return param{
		Param: rosparam.Param{Name: name, Type: rosparam.ParameterInteger, Default: rosparam.Integer(def), Description: desc,
			Range: &rosparam.Range{From: from, To: to}, ReadOnly: true},
		get: func(c *Config) rosparam.ParameterValue { return rosparam.Integer(int64(*field(c))) },
		set: func(c *Config, v rosparam.ParameterValue) { *field(c) = int(v.IntegerValue) },
	}
}

func frameParam(name string, def int64, desc string, field func(*Config) *uint8) param {
	return param{
		Param: rosparam.Param{Name: name, Type: rosparam.ParameterInteger, Default: rosparam.Integer(def), Description: desc,
			Range: &rosparam.Range{From: 0, To: 255}, ReadOnly: true},
		get: func(c *Config) rosparam.ParameterValue { return rosparam.Integer(int64(*field(c))) },
		set: func(c *Config, v rosparam.ParameterValue) { *field(c) = uint8(v.IntegerValue) },
	}
}

// params is the table, in a stable order; defaults are those of
// Config.WithDefaults (checked by a test).
func params() []param {
	def := DefaultCalibration()
	p := []param{
		strParam("robot_address", "10.42.0.1:10000", "UDP address (host:port) of the vendor server", func(c *Config) *string { return &c.Robot }),
		strParam("local_address", ":0", "local UDP address to bind", func(c *Config) *string { return &c.Local }),
		frameParam("frame_type.remote_control", 1, "frame type id of remote-control packets", func(c *Config) *uint8 { return &c.Frames.RemoteControl }),
		frameParam("frame_type.telemetry", 2, "frame type id of telemetry packets", func(c *Config) *uint8 { return &c.Frames.Telemetry }),
		frameParam("frame_type.video", 4, "frame type id of video frames (ignored)", func(c *Config) *uint8 { return &c.Frames.Video }),
		floatParam("calibration.linear", def.Linear, "1/(m/s)", "protocol units per m/s of the chassis (English paper; Russian paper 72021.739)", 1, 1e7, true, func(c *Config) *float64 { return &c.Calibration.Linear }),
		floatParam("calibration.angular", def.Angular, "1/(rad/s)", "protocol units per rad/s of chassis yaw (English paper; Russian paper 24000)", 1, 1e7, true, func(c *Config) *float64 { return &c.Calibration.Angular }),
		floatParam("min_start_velocity", 0.2, "m/s", "smallest non-zero chassis command (also in rad/s), sign kept; negative disables", -1, 1, false, func(c *Config) *float64 { return &c.MinStartVelocity }),
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
			floatParam("calibration."+j.String(), def.Joints[j], "1/(rad/s)", "protocol units per rad/s of the "+j.String()+" (assumed: full stick = 0.5 rad/s)", 1, 1e7, true, func(c *Config) *float64 { return &c.Calibration.Joints[j] }),
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

// ParameterTable returns the parameter table of a Servosila driver node
// (name, type, default, unit, description, range, read-only), for
// rosparam.New. The gamepad mapping is not exposed as parameters.
func ParameterTable() rosparam.Table {
	ps := params()
	t := make(rosparam.Table, len(ps))
	for i, p := range ps {
		t[i] = p.Param
	}
	return t
}

// Parameter returns the value of the named parameter in c.
func (c *Config) Parameter(name string) (rosparam.ParameterValue, error) {
	for _, p := range params() {
		if p.Name == name {
			c.fillPointers()
			return p.get(c), nil
		}
	}
	return rosparam.ParameterValue{}, fmt.Errorf("%w: unknown %q", ErrParam, name)
}

// ApplyParameters writes parameter values (as a rosparam.Store hands them
// over: declared, typed and in range) into c. Unknown names and values of
// the wrong type are refused; parameters of other layers (use_sim_time)
// are skipped. Run WithDefaults afterwards for the cross-field checks.
func (c *Config) ApplyParameters(ps []rosparam.Parameter) error {
	table := params()
	for _, in := range ps {
		if in.Name == rosparam.UseSimTime {
			continue
		}
		found := false
		for _, p := range table {
			if p.Name != in.Name {
				continue
			}
			found = true
			if in.Value.Type != p.Type {
				return fmt.Errorf("%w: %s is a %s, got a %s", ErrParam, p.Name, rosparam.TypeName(p.Type), rosparam.TypeName(in.Value.Type))
			}
			if r := p.Range; r != nil {
				v := in.Value.DoubleValue
				if p.Type == rosparam.ParameterInteger {
					v = float64(in.Value.IntegerValue)
				}
				if !(v >= r.From && v <= r.To) {
					return fmt.Errorf("%w: %s = %v outside [%g, %g] %s", ErrParam, p.Name, in.Value, r.From, r.To, p.Unit)
				}
			}
			c.fillPointers()
			p.set(c, in.Value)
		}
		if !found {
			return fmt.Errorf("%w: unknown %q", ErrParam, in.Name)
		}
	}
	return nil
}
