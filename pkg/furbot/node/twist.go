package node

import (
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/telebridge/telebridge/pkg/cmdvel"
	"github.com/telebridge/telebridge/pkg/furbot/control"
	"github.com/telebridge/telebridge/pkg/furbot/wire"
	"github.com/telebridge/telebridge/pkg/mailbox"
	"github.com/telebridge/telebridge/pkg/rosparam"
)

// TwistNodeConfig configures the furbot_twist_control ROS 2 node and its
// core, TwistControl.
type TwistNodeConfig struct {
	// Controller configures the speed PID and the steering rule.
	Controller control.ControllerConfig
	// Rate is the control rate: one ControlSignals per period [Hz],
	// default 100 (the protocol's rate).
	Rate float64
	// FeedbackTimeout is the age of the latest TractionData after which
	// the vehicle counts as not ready and the output is disabled with full
	// brake [s], default 0.2 s (20 periods: room for a DDS hop on a
	// loaded machine).
	FeedbackTimeout time.Duration
	// StopMessages is how many full-brake, disabled ControlSignals the
	// node publishes when it stops, default 3.
	StopMessages int
	// CmdVelStamped subscribes cmd_vel as geometry_msgs/TwistStamped
	// and refuses commands stamped more than command_timeout away from
	// the node's clock (pkg/cmdvel). Default false: Twist.
	CmdVelStamped bool
}

type tc = TwistNodeConfig

var twistBindings = []control.Binding[tc]{
	control.Double("rate", wire.FrameRate, "Hz", 1, 1000, "control rate (ControlSignals per second)", func(c *tc) *float64 { return &c.Rate }).RO(),
	control.Seconds("feedback_timeout", 0.2, 0.02, 5, "age of TractionData after which the output is disabled with full brake", func(c *tc) *time.Duration { return &c.FeedbackTimeout }).RO(),
	control.Integer("stop_messages", 3, "-", 1, 100, "full-brake ControlSignals published on shutdown", func(c *tc) *int { return &c.StopMessages }).RO(),
}

// DefaultTwistNodeConfig returns the twist node's defaults.
func DefaultTwistNodeConfig() TwistNodeConfig {
	var c TwistNodeConfig
	_ = c.fill() // the defaults are within their ranges
	return c
}

func (c *TwistNodeConfig) fill() error {
	if err := control.ApplyParams(twistBindings, c); err != nil {
		return err
	}
	return control.ApplyParams(control.ControllerBindings, &c.Controller)
}

// TwistNodeBindings is the twist node's parameter table: its own rows
// (read-only), then the controller's. The controller's rows are live
// except the geometry: an accepted set reaches the running controller
// through TwistControl.ApplyParams.
func TwistNodeBindings() rosparam.Bindings[TwistNodeConfig] {
	b := appendBindings(nil, twistBindings, func(c *TwistNodeConfig) *TwistNodeConfig { return c }, false)
	b = append(b, cmdvel.Binding(func(c *TwistNodeConfig) *bool { return &c.CmdVelStamped }))
	return appendBindings(b, control.ControllerBindings, func(c *TwistNodeConfig) *control.ControllerConfig { return &c.Controller }, false)
}

// TwistNodeParameterTable returns the twist node's declarations with their
// defaults.
func TwistNodeParameterTable() rosparam.Table {
	return TwistNodeBindings().Table(DefaultTwistNodeConfig())
}

// LoadTwistNodeConfig builds the twist node's configuration from its
// start-up parameters and checks it.
func LoadTwistNodeConfig(s *rosparam.Store) (TwistNodeConfig, error) {
	return loadNodeConfig(TwistName, TwistNodeBindings(), DefaultTwistNodeConfig(), s, (*TwistNodeConfig).fill)
}

// TwistControl is the core of furbot_twist_control: it keeps the latest
// cmd_vel and traction feedback (set from subscription callbacks) and, once
// per period, runs the Controller on them (Step). SetCommand, SetFeedback,
// SetEStop and ApplyParams may be called from any goroutine; Step from one
// goroutine only (the control loop).
type TwistControl struct {
	mu      sync.Mutex          // guards cfg
	cfg     TwistNodeConfig     // latest accepted configuration
	timeout time.Duration       // FeedbackTimeout (read-only)
	ctl     *control.Controller // owned by the Step goroutine
	cmd     mailbox.Latest[control.Twist]
	fb      mailbox.Latest[wire.Traction]
	motion  mailbox.Latest[wire.Motion]
	pending mailbox.Latest[control.ControllerConfig]
	gen     atomic.Uint64 // configurations handed over
	applied uint64        // generation in use (Step goroutine)
	estop   atomic.Bool
	prev    time.Time // previous Step (Step goroutine)
}

// NewTwistControl validates cfg and fills its defaults.
func NewTwistControl(cfg TwistNodeConfig) (*TwistControl, error) {
	if err := cfg.fill(); err != nil {
		return nil, fmt.Errorf("furbot: twist control: %w", err)
	}
	ctl, err := control.NewController(cfg.Controller)
	if err != nil {
		return nil, fmt.Errorf("furbot: twist control: %w", err)
	}
	return &TwistControl{cfg: cfg, timeout: cfg.FeedbackTimeout, ctl: ctl}, nil
}

// Config returns the latest accepted configuration, defaults filled (the
// controller takes it at its next Step).
func (t *TwistControl) Config() TwistNodeConfig {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.cfg
}

// SetCommand stores a cmd_vel received at. A NaN or infinite command is
// refused (ErrNotFinite) and leaves the previous one in place, which then
// goes stale after CommandTimeout.
func (t *TwistControl) SetCommand(tw control.Twist, at time.Time) error {
	if !tw.Finite() {
		return fmt.Errorf("furbot: twist control: cmd_vel v=%v w=%v: %w", tw.V, tw.W, control.ErrNotFinite)
	}
	t.cmd.Store(tw, at)
	return nil
}

// SetFeedback stores the latest traction block (TractionData) received at.
func (t *TwistControl) SetFeedback(tr wire.Traction, at time.Time) { t.fb.Store(tr, at) }

// SetMotion stores the latest motion control block (VehicleStatus)
// received at. While it reports the vehicle's e-stop latched (an e-stop
// from the bridge's service or on board), Step holds like an e-stop: the
// integrator and the ramp reset, so that the vehicle restarts smoothly
// on release instead of with a wound-up throttle.
func (t *TwistControl) SetMotion(m wire.Motion, at time.Time) { t.motion.Store(m, at) }

// SetEStop latches (true) or releases the emergency stop of the output.
func (t *TwistControl) SetEStop(on bool) { t.estop.Store(on) }

// ApplyParams applies an accepted live parameter update (rosparam's
// OnChange) to a copy of the configuration and hands the controller's part
// to the control loop, which takes it at its next Step. It does not block.
// Read-only rows never reach it (the Store refuses them).
func (t *TwistControl) ApplyParams(update []rosparam.Parameter) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	c := t.cfg
	if err := TwistNodeBindings().Apply(&c, update); err != nil {
		return fmt.Errorf("furbot: twist control: %w", err)
	}
	if err := c.fill(); err != nil {
		return fmt.Errorf("furbot: twist control: %w", err)
	}
	t.cfg = c
	t.pending.Store(c.Controller, time.Time{})
	t.gen.Add(1)
	return nil
}

// Step runs the controller for the period ending at now: the vehicle is
// ready when the latest feedback is at most FeedbackTimeout old and the
// traction drive runs; the command goes stale after CommandTimeout; a
// fresh motion block with the e-stop latched (SetMotion) or SetEStop
// holds the output in e-stop. It
// returns the decision in SI units (Control() gives the raw signals).
func (t *TwistControl) Step(now time.Time) control.Output {
	if g := t.gen.Load(); g != t.applied {
		if cfg, _, ok := t.pending.Load(); ok && t.ctl.SetConfig(cfg) == nil {
			t.applied = g
		}
	}
	dt := 0.0
	if !t.prev.IsZero() {
		dt = now.Sub(t.prev).Seconds()
	}
	t.prev = now
	fb, fbAt, ok := t.fb.Load()
	cmd, cmdAt, _ := t.cmd.Load()
	ready := ok && now.Sub(fbAt) <= t.timeout && fb.State == wire.StateRunning
	m, mAt, mOK := t.motion.Load()
	vehicleEStop := mOK && now.Sub(mAt) <= t.timeout && m.Flags&wire.MotionEStop != 0
	own := t.estop.Load()
	out := t.ctl.Step(now, dt, control.Input{
		Cmd: cmd, CmdAt: cmdAt, EStop: own || vehicleEStop, Ready: ready,
		Speed: fb.SpeedMPS(), Reverse: fb.Reverse != 0,
	})
	if vehicleEStop && !own {
		// Hold with full brake but without the e-stop flag: the vehicle
		// latches until a frame without it arrives, so echoing its e-stop
		// would keep it latched after the bridge releases.
		out.EStop = false
	}
	return out
}

// Controller returns the configuration the controller runs with; call it
// from the Step goroutine.
func (t *TwistControl) Controller() control.ControllerConfig { return t.ctl.Config() }

// StopOutput is what a node sends on its way out: full brake, throttle
// zero, enable clear, the steering held at steer [rad].
func StopOutput(steer float64) control.Output {
	return control.Output{Steer: steer, Brake: 1, Mode: control.ModeDisabled}
}
