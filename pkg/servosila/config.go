package servosila

import (
	"fmt"
	"math"
	"net/netip"
	"time"

	"github.com/telebridge/telebridge/pkg/servosila/control"
	"github.com/telebridge/telebridge/pkg/servosila/wire"
)

// Config configures a Driver. Zero fields take the stated defaults.
type Config struct {
	// Robot is the vendor server's UDP address. Default "10.42.0.1:10000".
	Robot string
	// Local is the local UDP address to bind. Default ":0" (every
	// interface, an ephemeral port).
	Local string
	// Frames are the frame type ids. Default 1 / 2 / 4.
	Frames wire.FrameTypes
	// Mapping is the gamepad assignment. Default DefaultMapping(); a
	// custom mapping must be complete (use None for unused buttons).
	Mapping *wire.Mapping
	// Calibration converts SI to protocol units. Default
	// DefaultCalibration().
	Calibration *wire.Calibration
	// MinStartVelocity is the chassis start speed [m/s for the linear,
	// rad/s for the angular velocity]: a non-zero twist whose linear and
	// angular parts are both smaller is raised to it keeping its sign and
	// curvature; while either part reaches it the other passes unchanged
	// (see control.ChassisLimits.Apply). Default 0.2; negative disables the rule.
	MinStartVelocity float64
	// MaxLinear [m/s] and MaxAngular [rad/s] limit the chassis command;
	// a limited twist is scaled as a whole, keeping its curvature.
	// Defaults 0.45 m/s and 1.3 rad/s (about full stick with the default
	// calibration).
	MaxLinear, MaxAngular float64
	// MaxJoint clamps each joint velocity [rad/s], indexed by Joint (the
	// operator's maximum-velocity setting). Default 0.5 rad/s each.
	MaxJoint [wire.NumJoints]float64
	// SendRate is the keep-alive rate of remote-control packets [Hz]: a
	// packet goes out at least every 1/SendRate even when nothing
	// changes. Default 5 (the papers' client).
	SendRate float64
	// MaxSendRate bounds the packet rate [Hz]: a changed command goes out
	// at once, but no sooner than 1/MaxSendRate after the previous packet
	// (the emergency stop is never held back). Default 50. Assumption:
	// the papers' client sends at 5 Hz and nothing says the vendor server
	// rejects faster packets; lower it to SendRate to get the papers'
	// fixed rate. Must be at least SendRate.
	MaxSendRate float64
	// CommandTimeout drops a command that was not refreshed within it to
	// zero. Default 500 ms.
	CommandTimeout time.Duration
	// TelemetryTimeout: position control stops (and reports it) when the
	// last telemetry is older than this. Default 3 s.
	TelemetryTimeout time.Duration
	// ShutdownPackets is how many zero packets go out on shutdown before
	// the socket closes, ShutdownInterval apart. Defaults 5 and 20 ms.
	ShutdownPackets  int
	ShutdownInterval time.Duration // see ShutdownPackets
	// MotorSlots is the index of each joint's record in a telemetry packet,
	// indexed by Joint; None if the joint has no record. Default (assumed):
	// flippers 2, waist 3, shoulder 4, elbow 5, neck 6, gripper 7 (0 and 1
	// being the tracks).
	MotorSlots *[wire.NumJoints]int
	// JointZero is the position count of each joint at angle zero.
	// Default 0 for all.
	JointZero [wire.NumJoints]uint32
	// Arm configures the position controller. Zero fields take its
	// defaults (see ArmConfig).
	Arm control.ArmConfig
	// CommandCheck configures the detection of commands that did not
	// reach the robot, from the telemetry's echoed speed commands and its
	// gaps (see control.CommandCheckConfig). Zero fields take its
	// defaults.
	CommandCheck control.CommandCheckConfig
}

// ErrConfig is wrapped by every configuration error (it is
// control.ErrConfig, which the arm's configuration wraps).
var ErrConfig = control.ErrConfig

// WithDefaults returns c with every zero field set to its default and
// checks the result.
func (c Config) WithDefaults() (Config, error) {
	if c.Robot == "" {
		c.Robot = "10.42.0.1:10000"
	}
	if c.Local == "" {
		c.Local = ":0"
	}
	if c.Frames == (wire.FrameTypes{}) {
		c.Frames = wire.DefaultFrameTypes()
	}
	c.FillPointers() // Mapping, Calibration, MotorSlots
	if c.MinStartVelocity == 0 {
		c.MinStartVelocity = 0.2
	}
	if c.MaxLinear == 0 {
		c.MaxLinear = 0.45
	}
	if c.MaxAngular == 0 {
		c.MaxAngular = 1.3
	}
	for j := range c.MaxJoint {
		if c.MaxJoint[j] == 0 {
			c.MaxJoint[j] = 0.5
		}
	}
	if c.SendRate == 0 {
		c.SendRate = 5
	}
	if c.MaxSendRate == 0 {
		c.MaxSendRate = math.Max(50, c.SendRate)
	}
	if c.CommandTimeout == 0 {
		c.CommandTimeout = 500 * time.Millisecond
	}
	if c.TelemetryTimeout == 0 {
		c.TelemetryTimeout = 3 * time.Second
	}
	if c.ShutdownPackets == 0 {
		c.ShutdownPackets = 5
	}
	if c.ShutdownInterval == 0 {
		c.ShutdownInterval = 20 * time.Millisecond
	}
	var err error
	if c.Arm, err = c.Arm.WithDefaults(); err != nil {
		return c, err
	}
	if c.CommandCheck, err = c.CommandCheck.WithDefaults(); err != nil {
		return c, err
	}
	return c, c.validate()
}

// FillPointers gives the pointer fields (Calibration, Mapping, MotorSlots)
// their defaults where they are nil, so that parameters can be written
// through them.
func (c *Config) FillPointers() {
	if c.Calibration == nil {
		cal := wire.DefaultCalibration()
		c.Calibration = &cal
	}
	if c.Mapping == nil {
		m := wire.DefaultMapping()
		c.Mapping = &m
	}
	if c.MotorSlots == nil {
		s := wire.DefaultMotorSlots()
		c.MotorSlots = &s
	}
}

func (c *Config) validate() error {
	if _, err := netip.ParseAddrPort(c.Robot); err != nil {
		return fmt.Errorf("%w: robot address: %v", ErrConfig, err)
	}
	if c.Frames.RemoteControl == c.Frames.Telemetry {
		return fmt.Errorf("%w: remote-control and telemetry frame types are both %d", ErrConfig, c.Frames.Telemetry)
	}
	if err := c.Mapping.Validate(); err != nil {
		return fmt.Errorf("%w: %v", ErrConfig, err)
	}
	if err := c.Calibration.Validate(); err != nil {
		return fmt.Errorf("%w: %v", ErrConfig, err)
	}
	pos := func(name string, v float64) error {
		if !(v > 0) || math.IsInf(v, 0) {
			return fmt.Errorf("%w: %s = %g must be positive", ErrConfig, name, v)
		}
		return nil
	}
	for _, p := range []struct {
		n string
		v float64
	}{{"MaxLinear", c.MaxLinear}, {"MaxAngular", c.MaxAngular}, {"SendRate", c.SendRate}, {"MaxSendRate", c.MaxSendRate}} {
		if err := pos(p.n, p.v); err != nil {
			return err
		}
	}
	if c.MaxSendRate < c.SendRate {
		return fmt.Errorf("%w: MaxSendRate %g Hz is below SendRate %g Hz", ErrConfig, c.MaxSendRate, c.SendRate)
	}
	for j, v := range c.MaxJoint {
		if err := pos("MaxJoint["+wire.Joint(j).String()+"]", v); err != nil {
			return err
		}
	}
	if c.CommandTimeout < 0 || c.TelemetryTimeout < 0 || c.ShutdownPackets < 0 || c.ShutdownInterval < 0 {
		return fmt.Errorf("%w: negative timeout or shutdown setting", ErrConfig)
	}
	for j, s := range c.MotorSlots {
		if s != wire.None && (s < 0 || s >= wire.NumMotors) {
			return fmt.Errorf("%w: %s motor slot %d out of [0, %d)", ErrConfig, wire.Joint(j), s, wire.NumMotors)
		}
	}
	return nil
}

// MinMotors returns the motor count a telemetry packet must report for
// every configured joint record to be present.
func (c *Config) MinMotors() int {
	n := 0
	for _, s := range c.MotorSlots {
		if s+1 > n {
			n = s + 1
		}
	}
	return n
}
