package servosila

import (
	"errors"
	"fmt"
	"math"
	"time"
)

// Errors of position control.
var (
	// ErrJointLimit: a target outside the joint's limits.
	ErrJointLimit = errors.New("servosila: target outside the joint limits")
	// ErrNotArm: position control on a joint without position telemetry.
	ErrNotArm = errors.New("servosila: joint has no position control")
)

// ArmConfig configures position control of waist, shoulder, elbow and neck.
// Zero fields take the stated defaults.
type ArmConfig struct {
	// Gain is the proportional gain [1/s]: velocity = Gain * error, then
	// clamped to the joint's maximum velocity. Default 1.5. Keep
	// Gain / SendRate below 1 or the joint overshoots.
	Gain float64
	// MinVelocity is the smallest non-zero velocity output [rad/s]
	// (smaller outputs are raised to it with their sign, so a joint does
	// not stall just outside the tolerance band). Default 0.02.
	MinVelocity float64
	// Tolerance is the half-width of the band around the target where the
	// joint counts as arrived [rad]. Default 0.01 (0.57 degrees).
	Tolerance float64
	// Timeout ends a target that was not reached within it. Default 20 s.
	Timeout time.Duration
	// Lower and Upper are the joint limits [rad], indexed by Joint (only
	// the arm joints are used). Defaults -pi and +pi. Targets outside are
	// refused; velocities that push further past a limit become zero.
	Lower, Upper [NumJoints]float64
}

func (c ArmConfig) withDefaults() (ArmConfig, error) {
	if c.Gain == 0 {
		c.Gain = 1.5
	}
	if c.MinVelocity == 0 {
		c.MinVelocity = 0.02
	}
	if c.Tolerance == 0 {
		c.Tolerance = 0.01
	}
	if c.Timeout == 0 {
		c.Timeout = 20 * time.Second
	}
	for _, j := range ArmJoints {
		if c.Lower[j] == 0 && c.Upper[j] == 0 {
			c.Lower[j], c.Upper[j] = -math.Pi, math.Pi
		}
		if !(c.Lower[j] < c.Upper[j]) {
			return c, fmt.Errorf("%w: %s limits [%g, %g]", ErrConfig, j, c.Lower[j], c.Upper[j])
		}
	}
	if !(c.Gain > 0) || c.MinVelocity < 0 || !(c.Tolerance > 0) || c.Timeout < 0 {
		return c, fmt.Errorf("%w: arm gain %g, min velocity %g, tolerance %g, timeout %v", ErrConfig, c.Gain, c.MinVelocity, c.Tolerance, c.Timeout)
	}
	return c, nil
}

// TargetState is the progress of a joint position target.
type TargetState uint8

// The states of a position target.
const (
	Idle        TargetState = iota // no target was set
	Moving                         // driving towards the target
	Settling                       // stopped inside the band by prediction, waiting for telemetry to confirm
	Reached                        // telemetry confirmed the joint inside the tolerance band
	TimedOut                       // the timeout ended the target
	NoTelemetry                    // telemetry went stale; the target was dropped
	Cancelled                      // cancelled by the caller or an emergency stop
)

var stateNames = [...]string{"idle", "moving", "settling", "reached", "timed out", "no telemetry", "cancelled"}

// String returns the state's name.
func (s TargetState) String() string {
	if int(s) < len(stateNames) {
		return stateNames[s]
	}
	return fmt.Sprintf("state(%d)", uint8(s))
}

// Done reports whether the target has ended (reached or failed).
func (s TargetState) Done() bool { return s >= Reached }

// JointStatus reports one joint's position control.
type JointStatus struct {
	Joint    Joint
	State    TargetState
	Target   float64 // [rad]
	Position float64 // last measured position [rad]; NaN before telemetry
	Estimate float64 // measured position advanced by the commanded velocity [rad]
	Velocity float64 // last velocity output [rad/s]
}

type armJoint struct {
	state          TargetState
	target         float64
	start, stopped time.Time
	measured       float64
	measuredAt     time.Time
	est            float64
	estAt          time.Time
	out            float64
}

// ArmController is proportional position control with saturation, a
// tolerance band, a timeout and joint limits for the arm joints, driven by
// position telemetry. Between telemetry packets (1 Hz on the robot) it
// predicts the position from its own velocity output, and it declares a
// target reached only once telemetry confirms it. It is a pure state
// machine: every method takes the time; it is not safe for concurrent use
// (the Driver serialises it).
type ArmController struct {
	cfg    ArmConfig
	maxVel [NumJoints]float64
	j      [NumJoints]armJoint
}

// reconfigure changes gains, limits and velocity limits, keeping each
// joint's target and measurements.
func (a *ArmController) reconfigure(cfg ArmConfig, maxVel [NumJoints]float64) error {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return err
	}
	a.cfg, a.maxVel = cfg, maxVel
	return nil
}

// NewArmController returns a controller; maxVel are the joint velocity
// limits [rad/s] indexed by Joint.
func NewArmController(cfg ArmConfig, maxVel [NumJoints]float64) (*ArmController, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	a := &ArmController{cfg: cfg, maxVel: maxVel}
	for i := range a.j {
		a.j[i].measured = math.NaN()
	}
	return a, nil
}

// SetTarget starts moving joint j to angle [rad] at time now.
func (a *ArmController) SetTarget(j Joint, angle float64, now time.Time) error {
	if !j.IsArm() {
		return fmt.Errorf("%w: %s", ErrNotArm, j)
	}
	if bad(angle) || angle < a.cfg.Lower[j] || angle > a.cfg.Upper[j] {
		return fmt.Errorf("%w: %s target %g rad, limits [%g, %g]", ErrJointLimit, j, angle, a.cfg.Lower[j], a.cfg.Upper[j])
	}
	s := &a.j[j]
	s.state, s.target, s.start, s.out = Moving, angle, now, 0
	return nil
}

// Cancel ends the target of joint j (if any is running).
func (a *ArmController) Cancel(j Joint) {
	if s := &a.j[j]; s.state == Moving || s.state == Settling {
		s.state, s.out = Cancelled, 0
	}
}

// CancelAll ends every running target.
func (a *ArmController) CancelAll() {
	for _, j := range ArmJoints {
		a.Cancel(j)
	}
}

// Measure records a telemetry position of joint j [rad] taken at at.
// Older samples than the last one are ignored.
func (a *ArmController) Measure(j Joint, angle float64, at time.Time) {
	s := &a.j[j]
	if !s.measuredAt.IsZero() && !at.After(s.measuredAt) {
		return
	}
	s.measured, s.measuredAt = angle, at
	s.est, s.estAt = angle, at
}

// Position returns the last measured position of j [rad] and when it was
// measured (zero time before any telemetry).
func (a *ArmController) Position(j Joint) (float64, time.Time) {
	return a.j[j].measured, a.j[j].measuredAt
}

// Active reports whether joint j is under position control.
func (a *ArmController) Active(j Joint) bool {
	return a.j[j].state == Moving || a.j[j].state == Settling
}

// Step advances every running target to time now and writes the velocity
// of each controlled joint into vel [rad/s] (other entries untouched).
// telemetryTimeout is the largest accepted age of telemetry. It allocates
// nothing.
func (a *ArmController) Step(now time.Time, telemetryTimeout time.Duration, vel *[NumJoints]float64) {
	for _, j := range ArmJoints {
		s := &a.j[j]
		if s.state != Moving && s.state != Settling {
			continue
		}
		// Predict from the last output since the last estimate.
		if !s.estAt.IsZero() && now.After(s.estAt) {
			s.est += s.out * now.Sub(s.estAt).Seconds()
			s.estAt = now
		}
		switch {
		case s.measuredAt.IsZero() && now.Sub(s.start) > telemetryTimeout,
			!s.measuredAt.IsZero() && now.Sub(s.measuredAt) > telemetryTimeout:
			s.state, s.out = NoTelemetry, 0
		case a.cfg.Timeout > 0 && now.Sub(s.start) > a.cfg.Timeout:
			s.state, s.out = TimedOut, 0
		case s.measuredAt.IsZero():
			s.out = 0 // wait for the first telemetry
		case s.state == Settling:
			s.out = 0
			if s.measuredAt.After(s.stopped) {
				if math.Abs(s.target-s.measured) <= a.cfg.Tolerance {
					s.state = Reached
				} else {
					s.state = Moving
				}
			}
		}
		if s.state == Moving && !s.measuredAt.IsZero() {
			e := s.target - s.est
			// Aim for the middle half of the band, so that prediction
			// errors still leave the joint inside it.
			if math.Abs(e) <= a.cfg.Tolerance/2 {
				s.state, s.out, s.stopped = Settling, 0, now
			} else {
				v := clamp(a.cfg.Gain*e, a.maxVel[j])
				s.out = MinStart(v, math.Min(a.cfg.MinVelocity, a.maxVel[j]))
			}
		}
		if s.state == Moving || s.state == Settling {
			vel[j] = s.out
		}
	}
}

// Limit returns v, or zero if it would push joint j further past one of
// its limits according to the latest estimate. Non-arm joints pass.
func (a *ArmController) Limit(j Joint, v float64) float64 {
	if !j.IsArm() || a.j[j].measuredAt.IsZero() {
		return v
	}
	p := a.j[j].est
	if (v > 0 && p >= a.cfg.Upper[j]) || (v < 0 && p <= a.cfg.Lower[j]) {
		return 0
	}
	return v
}

// Status returns the position-control status of joint j.
func (a *ArmController) Status(j Joint) JointStatus {
	s := &a.j[j]
	return JointStatus{Joint: j, State: s.state, Target: s.target, Position: s.measured, Estimate: s.est, Velocity: s.out}
}
