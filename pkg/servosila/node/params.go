package node

import (
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/telebridge/telebridge/pkg/rosparam"
	"github.com/telebridge/telebridge/pkg/servosila"
	"github.com/telebridge/telebridge/pkg/servosila/wire"
)

// ErrParam is wrapped by ApplyParameters errors.
var ErrParam = errors.New("servosila: parameter")

// DriverBindings returns the driver's parameter table bound to Config, in a
// stable order. Defaults come from servosila.Config.WithDefaults (DriverParameterTable),
// so the table and the Config cannot disagree. The gamepad mapping is not
// exposed as parameters.
func DriverBindings() rosparam.Bindings[servosila.Config] {
	ro, within := rosparam.ReadOnly(), rosparam.Within
	str := func(name, desc string, f func(*servosila.Config) *string) rosparam.Binding[servosila.Config] {
		return rosparam.BindString(name, desc, f, ro)
	}
	num := func(name, unit, desc string, from, to float64, readOnly bool, f func(*servosila.Config) *float64) rosparam.Binding[servosila.Config] {
		opts := []rosparam.Opt{within(from, to)}
		if readOnly {
			opts = append(opts, ro)
		}
		return rosparam.BindDouble(name, unit, desc, f, opts...)
	}
	dur := func(name, desc string, from, to float64, f func(*servosila.Config) *time.Duration) rosparam.Binding[servosila.Config] {
		return rosparam.BindSeconds(name, desc, f, within(from, to))
	}
	integer := func(name, desc string, from, to float64, f func(*servosila.Config) *int) rosparam.Binding[servosila.Config] {
		return rosparam.BindInt(name, "", desc, f, within(from, to), ro)
	}
	frame := func(name, desc string, f func(*servosila.Config) *uint8) rosparam.Binding[servosila.Config] {
		b := rosparam.Binding[servosila.Config]{
			Param: rosparam.Param{Name: name, Type: rosparam.ParameterInteger, Description: desc, Range: &rosparam.Range{From: 0, To: 255}, ReadOnly: true},
			Get:   func(c *servosila.Config) rosparam.ParameterValue { return rosparam.Integer(int64(*f(c))) },
			Set:   func(c *servosila.Config, v rosparam.ParameterValue) { *f(c) = uint8(v.IntegerValue) },
		}
		return b
	}
	// cal and slots reach through the pointer fields, filling them first.
	cal := func(c *servosila.Config) *wire.Calibration { c.FillPointers(); return c.Calibration }
	slots := func(c *servosila.Config) *[wire.NumJoints]int { c.FillPointers(); return c.MotorSlots }

	b := rosparam.Bindings[servosila.Config]{
		str("robot_address", "UDP address (host:port) of the vendor server", func(c *servosila.Config) *string { return &c.Robot }),
		str("local_address", "local UDP address to bind", func(c *servosila.Config) *string { return &c.Local }),
		frame("frame_type.remote_control", "frame type id of remote-control packets", func(c *servosila.Config) *uint8 { return &c.Frames.RemoteControl }),
		frame("frame_type.telemetry", "frame type id of telemetry packets", func(c *servosila.Config) *uint8 { return &c.Frames.Telemetry }),
		frame("frame_type.video", "frame type id of video frames (ignored)", func(c *servosila.Config) *uint8 { return &c.Frames.Video }),
		num("calibration.linear", "1/(m/s)", "protocol units per m/s of the chassis (English paper; Russian paper 72021.739)", 1, 1e7, true, func(c *servosila.Config) *float64 { return &cal(c).Linear }),
		num("calibration.angular", "1/(rad/s)", "protocol units per rad/s of chassis yaw (English paper; Russian paper 24000)", 1, 1e7, true, func(c *servosila.Config) *float64 { return &cal(c).Angular }),
		num("min_start_velocity", "m/s", "start speed of a track (m/s driving straight, rad/s turning in place): a track asked to move below it is raised to it, or stopped when that is nearer (control.ChassisLimits.Apply); negative disables", -1, 1, false, func(c *servosila.Config) *float64 { return &c.MinStartVelocity }),
		num("max_linear", "m/s", "chassis speed limit (yaw rate scaled with it, curvature kept)", 0.01, 10, false, func(c *servosila.Config) *float64 { return &c.MaxLinear }),
		num("max_angular", "rad/s", "chassis yaw rate limit (speed scaled with it, curvature kept)", 0.01, 10, false, func(c *servosila.Config) *float64 { return &c.MaxAngular }),
		num("send_rate", "Hz", "keep-alive rate of remote-control packets (sent at least this often)", 0.5, 100, true, func(c *servosila.Config) *float64 { return &c.SendRate }),
		num("max_send_rate", "Hz", "changed commands go out at once, at most this often (assumption: the vendor server accepts faster than the papers' 5 Hz); at least send_rate", 0.5, 1000, true, func(c *servosila.Config) *float64 { return &c.MaxSendRate }),
		dur("command_timeout", "a command not refreshed within this becomes zero", 0.05, 10, func(c *servosila.Config) *time.Duration { return &c.CommandTimeout }),
		dur("telemetry_timeout", "position control stops when telemetry is older", 0.1, 60, func(c *servosila.Config) *time.Duration { return &c.TelemetryTimeout }),
		integer("shutdown_packets", "zero packets sent on shutdown", 1, 100, func(c *servosila.Config) *int { return &c.ShutdownPackets }),
		num("arm.gain", "1/s", "proportional gain of position control", 0.01, 50, false, func(c *servosila.Config) *float64 { return &c.Arm.Gain }),
		num("arm.min_velocity", "rad/s", "smallest non-zero position-control output", 0, 1, false, func(c *servosila.Config) *float64 { return &c.Arm.MinVelocity }),
		num("arm.tolerance", "rad", "half-width of the target band", 1e-4, 0.5, false, func(c *servosila.Config) *float64 { return &c.Arm.Tolerance }),
		dur("arm.timeout", "a target not reached within this is dropped", 0.1, 600, func(c *servosila.Config) *time.Duration { return &c.Arm.Timeout }),
		rosparam.BindSeconds("command_check.window", "how long after a command was replaced the robot may still echo it", func(c *servosila.Config) *time.Duration { return &c.CommandCheck.Window }, within(0.01, 10), ro),
		integer("command_check.tolerance", "largest difference between an echoed and a sent speed command that matches [protocol units] (0 takes the default 1; -1: echo not compared)", -1, math.MaxInt16, func(c *servosila.Config) *int { return &c.CommandCheck.Tolerance }),
		rosparam.BindSeconds("command_check.threshold", "unconfirmed time beyond one telemetry period that counts as a command loss", func(c *servosila.Config) *time.Duration { return &c.CommandCheck.Threshold }, within(0.05, 60), ro),
		rosparam.BindSeconds("command_check.period", "telemetry period assumed until measured", func(c *servosila.Config) *time.Duration { return &c.CommandCheck.Period }, within(0.01, 60), ro),
	}
	for j := wire.Joint(0); j < wire.NumJoints; j++ {
		b = append(b,
			num("max_velocity."+j.String(), "rad/s", j.String()+" velocity limit", 0.01, 10, false, func(c *servosila.Config) *float64 { return &c.MaxJoint[j] }),
			num("calibration."+j.String(), "1/(rad/s)", "protocol units per rad/s of the "+j.String()+" (assumed: full stick = 0.5 rad/s)", 1, 1e7, true, func(c *servosila.Config) *float64 { return &cal(c).Joints[j] }),
			integer("motor_slot."+j.String(), "telemetry record of the "+j.String()+" (-1: none)", -1, wire.NumMotors-1, func(c *servosila.Config) *int { return &slots(c)[j] }),
		)
	}
	for _, j := range wire.ArmJoints {
		b = append(b,
			num("arm.lower."+j.String(), "rad", j.String()+" lower limit", -2*math.Pi, 2*math.Pi, false, func(c *servosila.Config) *float64 { return &c.Arm.Lower[j] }),
			num("arm.upper."+j.String(), "rad", j.String()+" upper limit", -2*math.Pi, 2*math.Pi, false, func(c *servosila.Config) *float64 { return &c.Arm.Upper[j] }),
		)
	}
	return b
}

// DriverParameterTable returns the parameter table of a Servosila driver (name,
// type, default, unit, description, range, read-only), for rosparam.New.
func DriverParameterTable() rosparam.Table {
	def, err := servosila.Config{}.WithDefaults()
	if err != nil {
		// The zero Config always takes its defaults; a failure is a bug in
		// WithDefaults that TestParameterTable reports.
		def = servosila.Config{}
	}
	return DriverBindings().Table(def)
}

// Parameter returns the value of the named parameter in c.
func Parameter(c *servosila.Config, name string) (rosparam.ParameterValue, error) {
	for _, b := range DriverBindings() {
		if b.Name == name {
			return b.Get(c), nil
		}
	}
	return rosparam.ParameterValue{}, fmt.Errorf("%w: unknown %q", ErrParam, name)
}

// ApplyParameters writes parameter values (as a rosparam.Store hands them
// over: declared, typed and in range) into c. Unknown names and values of
// the wrong type are refused; parameters of other layers (use_sim_time)
// are skipped. Run WithDefaults afterwards for the cross-field checks.
func ApplyParameters(c *servosila.Config, ps []rosparam.Parameter) error {
	table := DriverBindings()
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
			p.Set(c, in.Value)
		}
		if !found {
			return fmt.Errorf("%w: unknown %q", ErrParam, in.Name)
		}
	}
	return nil
}
