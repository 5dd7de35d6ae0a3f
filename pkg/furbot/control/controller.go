package control

import (
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/telebridge/telebridge/pkg/furbot/wire"
)

// ControllerConfig configures the Twist -> steering / throttle / brake
// controller. Zero fields take the defaults shown; see ControllerParams for
// the same table as data (name, type, default, unit, range).
type ControllerConfig struct {
	// Wheelbase is the distance between the axles [m], default 2.0.
	Wheelbase float64
	// MaxSteer is the road-wheel angle limit [rad], default 0.55.
	MaxSteer float64
	// SteerRate limits how fast the steering command changes [rad/s],
	// default 0.7.
	SteerRate float64
	// MaxLatAccel limits the lateral acceleration v²·tan(δ)/L by reducing
	// the steering angle [m/s²]; 0 (default) disables the limit.
	MaxLatAccel float64
	// SteerCmdSpeed: above this commanded speed, the steering angle uses
	// the commanded speed [m/s], default 0.1 (seed).
	SteerCmdSpeed float64
	// SteerMeasSpeed: otherwise, above this measured speed it uses the
	// measured speed; below both the angle is 0 [m/s], default 0.5 (seed).
	SteerMeasSpeed float64
	// MaxSpeed clamps the commanded speed [m/s], default 5.
	MaxSpeed float64
	// MaxAccel is the rate at which the speed reference rises [m/s²],
	// default 1.0.
	MaxAccel float64
	// MaxDecel is the rate at which the speed reference falls [m/s²],
	// default 1.5.
	MaxDecel float64
	// MaxJerk limits how fast the reference acceleration changes [m/s³],
	// default 2.
	MaxJerk float64
	// Kp is the proportional gain [1/(m/s)] (pedal fraction per m/s of
	// error), default 1.2.
	Kp float64
	// Ki is the integral gain [1/m], default 0.8.
	Ki float64
	// Kd is the derivative gain [s/m], default 0.
	Kd float64
	// Ka is the feed-forward of the reference acceleration [s²/m]
	// (about mass / full-throttle force), default 0.5.
	Ka float64
	// Lag is the throttle actuator lag the feed-forward anticipates [s]
	// (the feed-forward uses the reference acceleration Lag ahead),
	// default 0.15.
	Lag float64
	// Kf is a constant throttle feed-forward while driving, for the
	// rolling resistance [-], default 0.05.
	Kf float64
	// IntegralMax bounds the integral term (anti-windup) [-], default 0.4.
	IntegralMax float64
	// BrakeGain converts negative controller output into brake [-],
	// default 1.
	BrakeGain float64
	// Deadband is the band of controller output around zero where neither
	// throttle nor brake is applied [-], default 0.02.
	Deadband float64
	// StopBrakeGain is the brake per m/s of speed above the reference when
	// stopping [1/(m/s)], default 0.6.
	StopBrakeGain float64
	// HoldBrake is the brake held at standstill with a zero target [0, 1],
	// default 0.3.
	HoldBrake float64
	// StopSpeed is the speed below which the vehicle counts as stopped
	// [m/s], default 0.05.
	StopSpeed float64
	// CommandTimeout is the age after which a command is stale and the
	// vehicle brakes to a stop [s], default 0.5 s.
	CommandTimeout time.Duration
}

// withDefaults fills zero fields from ControllerParams and validates every
// field against its range.
func (c ControllerConfig) withDefaults() (ControllerConfig, error) {
	if err := ApplyParams(ControllerBindings, &c); err != nil {
		return c, err
	}
	return c, nil
}

// Twist is a velocity command in base_link: V forward [m/s], W yaw rate,
// counter-clockwise positive [rad/s] (geometry_msgs/Twist linear.x and
// angular.z).
type Twist struct {
	V, W float64
}

// ErrNotFinite is returned for a NaN or infinite command (Bridge.SetCommand,
// TwistControl.SetCommand).
var ErrNotFinite = errors.New("furbot: command is not finite")

// Finite reports whether both components are finite numbers.
func (t Twist) Finite() bool { return finite(t.V) && finite(t.W) }

// Input is what the controller sees at one step.
type Input struct {
	// Cmd is the latest command and CmdAt when it was received; a zero
	// CmdAt means no command yet.
	Cmd   Twist
	CmdAt time.Time // see Cmd
	// EStop is the emergency stop request (latched by the caller).
	EStop bool
	// Ready is true when the vehicle link is fresh and every subsystem
	// works. When false the controller disables the vehicle.
	Ready bool
	// Speed is the measured speed [m/s], negative backwards.
	Speed float64
	// Reverse is the gear the vehicle reports (true: reverse).
	Reverse bool
}

// Mode says which branch of the controller produced an output.
type Mode uint8

// Controller modes.
const (
	ModeDisabled Mode = iota // vehicle not ready: disabled, full brake
	ModeEStop                // emergency stop: full brake, e-stop flag
	ModeHold                 // stopped with a zero target: holding brake
	ModeStop                 // braking toward zero (target zero, stale or reversed)
	ModeGear                 // stopped, changing gear
	ModeDrive                // tracking the speed reference with the PID
)

var modeNames = [...]string{"disabled", "estop", "hold", "stop", "gear", "drive"}

// String returns the mode's name.
func (m Mode) String() string {
	if int(m) < len(modeNames) {
		return modeNames[m]
	}
	return "mode?"
}

// Output is the controller's decision for one step, in SI units.
type Output struct {
	Steer    float64 // road-wheel angle, positive left [rad]
	Throttle float64 // [0, 1]
	Brake    float64 // [0, 1]; never non-zero together with Throttle
	Reverse  bool    // reverse gear wanted
	Enable   bool    // the vehicle should apply the output
	EStop    bool    // emergency stop flag
	Stale    bool    // the command was missing, stale or not finite
	Ref      float64 // speed reference after the ramp [m/s]
	Mode     Mode    // the controller's mode this step
}

// Control converts the output to a control frame (without Seq and
// Timestamp), rounding and clamping to the frame's ranges.
func (o *Output) Control() wire.Control {
	steer := wire.AngleToCounts(clampf(o.Steer, -wire.SteerMax*wire.AngleScale, wire.SteerMax*wire.AngleScale))
	c := wire.Control{Steer: steer, Throttle: int32(wire.PedalToCounts(o.Throttle)), Brake: wire.PedalToCounts(o.Brake)}
	if c.Brake > 0 {
		c.Throttle = 0
	}
	if o.Enable {
		c.Flags |= wire.FlagEnable
	}
	if o.EStop {
		c.Flags |= wire.FlagEStop
	}
	if o.Reverse {
		c.Flags |= wire.FlagReverse
	}
	return c
}

// Controller turns Twist commands into steering, throttle and brake. It is
// a pure state machine: Step takes the time and the period from the
// caller. It is not safe for concurrent use (the bridge loop owns it).
type Controller struct {
	cfg      ControllerConfig
	integral float64
	prevErr  float64
	ref      float64 // signed speed reference [m/s]
	steer    float64 // last steering command [rad]
	refAccel float64 // signed reference acceleration of the last step [m/s²]
	refJerk  float64 // its rate of change [m/s³]
	reverse  bool
	havePrev bool
}

// NewController validates cfg and fills its defaults.
func NewController(cfg ControllerConfig) (*Controller, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, fmt.Errorf("furbot: controller: %w", err)
	}
	return &Controller{cfg: cfg}, nil
}

// Config returns the configuration in use, defaults filled.
func (c *Controller) Config() ControllerConfig { return c.cfg }

// SetConfig replaces the configuration of a running controller (a live
// parameter change), keeping its state: the integrator, the reference and
// the steering carry on. cfg is validated and its zero fields filled with
// defaults; on error nothing changes. Call it from the goroutine that calls
// Step.
func (c *Controller) SetConfig(cfg ControllerConfig) error {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return fmt.Errorf("furbot: controller: %w", err)
	}
	c.cfg = cfg
	c.integral = clampf(c.integral, -cfg.IntegralMax, cfg.IntegralMax)
	return nil
}

// Reset clears the integrator, the reference ramp and the derivative
// memory (not the steering, which is rate limited from where it is).
func (c *Controller) Reset() {
	c.integral, c.prevErr, c.ref, c.refAccel, c.refJerk, c.havePrev = 0, 0, 0, 0, 0, false
}

// Step computes the output for one period. now is the current time (used
// only for the command timeout) and dt the time since the previous step
// [s]; a non-positive or non-finite dt freezes the integrator, the ramps
// and the steering. Step allocates nothing.
func (c *Controller) Step(now time.Time, dt float64, in Input) Output {
	cfg := &c.cfg
	if !(dt > 0) || dt > 1 {
		dt = 0
	}
	if !finite(in.Speed) {
		in.Speed, in.Ready = 0, false
	}
	out := Output{Reverse: c.reverse, Enable: true}
	if in.EStop {
		c.Reset()
		out.EStop, out.Brake, out.Mode, out.Steer = true, 1, ModeEStop, c.steer
		return out
	}
	if !in.Ready {
		c.Reset()
		out.Enable, out.Brake, out.Mode, out.Steer = false, 1, ModeDisabled, c.steer
		return out
	}
	cmd := in.Cmd
	if in.CmdAt.IsZero() || now.Sub(in.CmdAt) > cfg.CommandTimeout || !cmd.Finite() {
		cmd, out.Stale = Twist{}, true
	}
	cmd.V = clampf(cmd.V, -cfg.MaxSpeed, cfg.MaxSpeed)

	out.Steer = c.steering(dt, cmd, in.Speed)
	c.ramp(dt, cmd.V)
	out.Ref = c.ref

	dir := 1.0
	if c.reverse {
		dir = -1
	}
	v := in.Speed * dir // speed along the engaged gear
	stopped := math.Abs(in.Speed) < cfg.StopSpeed
	wantReverse := cmd.V < 0
	switch {
	case cmd.V == 0 || out.Stale || math.Signbit(cmd.V) != math.Signbit(in.Speed) && !stopped:
		// Brake: target zero, stale, or reversed while still moving.
		c.integral, c.havePrev = 0, false
		if stopped {
			// Target zero or stale, at standstill: hold.
			out.Brake, out.Mode = cfg.HoldBrake, ModeHold
			c.ref, c.refAccel, c.refJerk = 0, 0, 0
		} else {
			if math.Abs(c.ref) > math.Abs(in.Speed) || math.Signbit(c.ref) != math.Signbit(in.Speed) {
				// Decelerate from where the vehicle is, not from an old reference.
				c.ref, c.refAccel, c.refJerk = in.Speed, 0, 0
				c.ramp(dt, 0)
				out.Ref = c.ref
			}
			over := math.Abs(in.Speed) - math.Abs(c.ref)
			out.Brake, out.Mode = clampf(cfg.StopBrakeGain*over, 0, 1), ModeStop
		}
		if cmd.V != 0 && stopped {
			c.reverse = wantReverse
		}
	case wantReverse != c.reverse || wantReverse != in.Reverse:
		// Stopped, wrong gear: hold the brake until the vehicle reports it.
		c.reverse = wantReverse
		c.integral, c.havePrev, c.ref = 0, false, 0
		out.Brake, out.Mode = cfg.HoldBrake, ModeGear
	default:
		out.Throttle, out.Brake = c.pid(dt, c.ref*dir, (c.refAccel+cfg.Lag*c.refJerk)*dir, v)
		out.Mode = ModeDrive
	}
	out.Reverse = c.reverse
	return out
}

// ramp moves the reference toward target with a jerk-limited profile:
// the reference acceleration changes at most MaxJerk, stays within
// MaxAccel (magnitude growing) or MaxDecel (shrinking), and eases off so
// the reference arrives at the target without overshoot.
func (c *Controller) ramp(dt, target float64) {
	cfg := &c.cfg
	d := target - c.ref
	lim := cfg.MaxDecel
	if math.Abs(target) > math.Abs(c.ref) && !math.Signbit(target*c.ref) {
		lim = cfg.MaxAccel
	}
	// The largest acceleration from which the jerk limit still brings the
	// acceleration to zero by the time the reference reaches the target.
	want := math.Copysign(math.Min(lim, math.Sqrt(2*cfg.MaxJerk*math.Abs(d))), d)
	prev := c.refAccel
	c.refAccel += clampf(want-c.refAccel, -cfg.MaxJerk*dt, cfg.MaxJerk*dt)
	c.refJerk = 0
	if dt > 0 {
		c.refJerk = (c.refAccel - prev) / dt
	}
	step := c.refAccel * dt
	if math.Abs(step) >= math.Abs(d) || math.Abs(d) < 1e-4 {
		// Arrived (or would pass the target): land on it.
		c.ref, c.refAccel, c.refJerk = target, 0, 0
		return
	}
	c.ref += step
}

// pid tracks ref with the measured speed v, both along the engaged gear
// [m/s]; accel is the reference acceleration to feed forward [m/s²]. It
// splits the output into throttle or brake.
func (c *Controller) pid(dt, ref, accel, v float64) (throttle, brake float64) {
	cfg := &c.cfg
	e := ref - v
	deriv := 0.0
	if c.havePrev && dt > 0 {
		deriv = (e - c.prevErr) / dt
	}
	c.prevErr, c.havePrev = e, true
	ff := cfg.Ka*accel + cfg.Kf
	u := ff + cfg.Kp*e + c.integral + cfg.Kd*deriv
	// Conditional integration: not while the reference ramps hard (the
	// feed-forward and the proportional term track the ramp; integrating
	// the actuator lag would overshoot), nor while saturated in the
	// error's direction. Small reference changes, as from a planner's
	// continuously varying cmd_vel, still integrate.
	if math.Abs(accel) <= 0.1*cfg.MaxAccel && !(u >= 1 && e > 0) && !(u <= -1 && e < 0) {
		c.integral = clampf(c.integral+cfg.Ki*e*dt, -cfg.IntegralMax, cfg.IntegralMax)
	}
	switch {
	case u > 0:
		return math.Min(u, 1), 0
	case u < -cfg.Deadband:
		return 0, clampf((-u-cfg.Deadband)*cfg.BrakeGain, 0, 1)
	}
	return 0, 0
}

// steering applies the seed's rule, the lateral acceleration limit, the
// steering limit and the rate limit.
func (c *Controller) steering(dt float64, cmd Twist, speed float64) float64 {
	cfg := &c.cfg
	var want float64
	switch {
	case math.Abs(cmd.V) > cfg.SteerCmdSpeed:
		want = math.Atan(cfg.Wheelbase * cmd.W / cmd.V)
	case math.Abs(speed) > cfg.SteerMeasSpeed:
		want = math.Atan(cfg.Wheelbase * cmd.W / speed)
	}
	if cfg.MaxLatAccel > 0 {
		vv := math.Max(math.Abs(speed), math.Abs(cmd.V))
		if vv > 0 {
			lim := math.Atan(cfg.MaxLatAccel * cfg.Wheelbase / (vv * vv))
			want = clampf(want, -lim, lim)
		}
	}
	want = clampf(want, -cfg.MaxSteer, cfg.MaxSteer)
	step := cfg.SteerRate * dt
	c.steer += clampf(want-c.steer, -step, step)
	return c.steer
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

func clampf(x, lo, hi float64) float64 { return math.Max(lo, math.Min(hi, x)) }
