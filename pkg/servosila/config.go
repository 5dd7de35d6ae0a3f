package servosila

import (
	"errors"
	"fmt"
	"math"
	"net/netip"
	"time"
)

// Calibration converts SI velocities to protocol units (stick positions).
// The protocol unit is proportional to velocity.
type Calibration struct {
	// Linear is the chassis scale [units per m/s]. Default 71553.837 (the
	// English paper's least-squares fit); the Russian paper measured
	// 72021.739 on the same robot model.
	Linear float64
	// Angular is the chassis yaw scale [units per rad/s]. Default
	// 25171.216 (English paper); the Russian paper gives 24000.
	Angular float64
	// Joints are the joint scales [units per rad/s], indexed by Joint.
	// No paper measured them: the default 65534 assumes full stick
	// (32767) is 0.5 rad/s. Calibrate them against position telemetry.
	Joints [NumJoints]float64
}

// DefaultCalibration returns the English paper's chassis values and the
// assumed joint scales.
func DefaultCalibration() Calibration {
	c := Calibration{Linear: 71553.837, Angular: 25171.216}
	for j := range c.Joints {
		c.Joints[j] = 65534
	}
	return c
}

// RussianCalibration returns the chassis values of the Russian paper
// (72021.739 units per m/s, 24000 per rad/s) with the assumed joint scales.
func RussianCalibration() Calibration {
	c := DefaultCalibration()
	c.Linear, c.Angular = 72021.739, 24000
	return c
}

// Validate checks that every scale is positive and finite.
func (c Calibration) Validate() error {
	ok := func(v float64) bool { return v > 0 && !math.IsInf(v, 0) }
	if !ok(c.Linear) || !ok(c.Angular) {
		return fmt.Errorf("servosila: calibration: chassis scales %g, %g must be positive", c.Linear, c.Angular)
	}
	for j, v := range c.Joints {
		if !ok(v) {
			return fmt.Errorf("servosila: calibration: %s scale %g must be positive", Joint(j), v)
		}
	}
	return nil
}

// CountsPerTurn is the position resolution of the joint motors: 65535
// counts per 360 degrees.
const CountsPerTurn = 65535

// CountsToRad converts a joint position to an angle [rad]: the signed
// 32-bit difference from zero, at 65535 counts per turn.
func CountsToRad(pos, zero uint32) float64 {
	return float64(int32(pos-zero)) * 2 * math.Pi / CountsPerTurn
}

// RadToCounts is the inverse of CountsToRad (rounded to the nearest count).
func RadToCounts(angle float64, zero uint32) uint32 {
	return uint32(int32(math.Round(angle*CountsPerTurn/(2*math.Pi)))) + zero
}

// Config configures a Driver. Zero fields take the stated defaults.
type Config struct {
	// Robot is the vendor server's UDP address. Default "10.42.0.1:10000".
	Robot string
	// Local is the local UDP address to bind. Default ":0" (every
	// interface, an ephemeral port).
	Local string
	// Frames are the frame type ids. Default 1 / 2 / 4.
	Frames FrameTypes
	// Mapping is the gamepad assignment. Default DefaultMapping(); a
	// custom mapping must be complete (use None for unused buttons).
	Mapping *Mapping
	// Calibration converts SI to protocol units. Default
	// DefaultCalibration().
	Calibration *Calibration
	// MinStartVelocity is the chassis start speed [m/s for the linear,
	// rad/s for the angular velocity]: a non-zero twist whose linear and
	// angular parts are both smaller is raised to it keeping its sign and
	// curvature; while either part reaches it the other passes unchanged
	// (see Config.Chassis). Default 0.2; negative disables the rule.
	MinStartVelocity float64
	// MaxLinear [m/s] and MaxAngular [rad/s] limit the chassis command;
	// a limited twist is scaled as a whole, keeping its curvature.
	// Defaults 0.45 m/s and 1.3 rad/s (about full stick with the default
	// calibration).
	MaxLinear, MaxAngular float64
	// MaxJoint clamps each joint velocity [rad/s], indexed by Joint (the
	// operator's maximum-velocity setting). Default 0.5 rad/s each.
	MaxJoint [NumJoints]float64
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
	ShutdownInterval time.Duration
	// MotorSlots is the index of each joint's record in a telemetry packet,
	// indexed by Joint; None if the joint has no record. Default (assumed):
	// flippers 2, waist 3, shoulder 4, elbow 5, neck 6, gripper 7 (0 and 1
	// being the tracks).
	MotorSlots *[NumJoints]int
	// JointZero is the position count of each joint at angle zero.
	// Default 0 for all.
	JointZero [NumJoints]uint32
	// Arm configures the position controller. Zero fields take its
	// defaults (see ArmConfig).
	Arm ArmConfig
}

// DefaultMotorSlots returns the assumed telemetry record of each joint.
func DefaultMotorSlots() [NumJoints]int {
	return [NumJoints]int{Waist: 3, Shoulder: 4, Elbow: 5, Neck: 6, Flippers: 2, Gripper: 7}
}

// ErrConfig is wrapped by every configuration error.
var ErrConfig = errors.New("servosila: bad configuration")

// WithDefaults returns c with every zero field set to its default and
// checks the result.
func (c Config) WithDefaults() (Config, error) {
	if c.Robot == "" {
		c.Robot = "10.42.0.1:10000"
	}
	if c.Local == "" {
		c.Local = ":0"
	}
	if c.Frames == (FrameTypes{}) {
		c.Frames = DefaultFrameTypes()
	}
	c.fillPointers() // Mapping, Calibration, MotorSlots
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
	if c.Arm, err = c.Arm.withDefaults(); err != nil {
		return c, err
	}
	return c, c.validate()
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
		if err := pos("MaxJoint["+Joint(j).String()+"]", v); err != nil {
			return err
		}
	}
	if c.CommandTimeout < 0 || c.TelemetryTimeout < 0 || c.ShutdownPackets < 0 || c.ShutdownInterval < 0 {
		return fmt.Errorf("%w: negative timeout or shutdown setting", ErrConfig)
	}
	for j, s := range c.MotorSlots {
		if s != None && (s < 0 || s >= NumMotors) {
			return fmt.Errorf("%w: %s motor slot %d out of [0, %d)", ErrConfig, Joint(j), s, NumMotors)
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
