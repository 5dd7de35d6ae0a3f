package control

import (
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/telebridge/telebridge/pkg/servosila/wire"
)

// ErrConfig is wrapped by every configuration error, the arm's and the
// driver's (servosila.ErrConfig is the same error).
var ErrConfig = errors.New("servosila: bad configuration")

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
	Lower, Upper [wire.NumJoints]float64
}

// WithDefaults returns c with every zero field set to its default and
// checks the result.
func (c ArmConfig) WithDefaults() (ArmConfig, error) {
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
	for _, j := range wire.ArmJoints {
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
	Joint    wire.Joint  // which joint
	State    TargetState // where its target stands
	Target   float64     // [rad]
	Position float64     // last measured position [rad]; NaN before telemetry
	Estimate float64     // measured position advanced by the commanded velocity [rad]
	Velocity float64     // last velocity output [rad/s]
}

type armJoint struct {
	state          TargetState
	target         float64
	ref            reference
	start, stopped time.Time
	measured       float64
	measuredAt     time.Time
	est            float64
	estAt          time.Time
	out            float64
}

// predict advances the position estimate to now with the velocity output
// the robot has been given since the last estimate. A new target keeps
// that output (it is what the robot does until the next packet).
func (s *armJoint) predict(now time.Time) {
	if !s.estAt.IsZero() && now.After(s.estAt) {
		s.est += s.out * now.Sub(s.estAt).Seconds()
		s.estAt = now
	}
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
	maxVel [wire.NumJoints]float64
	j      [wire.NumJoints]armJoint
}

// Reconfigure changes gains, limits and velocity limits [rad/s], indexed
// by Joint, keeping each joint's target and measurements.
func (a *ArmController) Reconfigure(cfg ArmConfig, maxVel [wire.NumJoints]float64) error {
	cfg, err := cfg.WithDefaults()
	if err != nil {
		return err
	}
	a.cfg, a.maxVel = cfg, maxVel
	return nil
}

// NewArmController returns a controller; maxVel are the joint velocity
// limits [rad/s] indexed by Joint.
func NewArmController(cfg ArmConfig, maxVel [wire.NumJoints]float64) (*ArmController, error) {
	cfg, err := cfg.WithDefaults()
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
func (a *ArmController) SetTarget(j wire.Joint, angle float64, now time.Time) error {
	if !j.IsArm() {
		return fmt.Errorf("%w: %s", ErrNotArm, j)
	}
	if bad(angle) || angle < a.cfg.Lower[j] || angle > a.cfg.Upper[j] {
		return fmt.Errorf("%w: %s target %g rad, limits [%g, %g]", ErrJointLimit, j, angle, a.cfg.Lower[j], a.cfg.Upper[j])
	}
	s := &a.j[j]
	s.predict(now)
	s.state, s.target, s.start, s.ref = Moving, angle, now, reference{}
	return nil
}

// MaxLead is how far ahead of the present a trajectory point may be due.
// A jog cycle is tens of milliseconds; a point seconds ahead is a clock
// error, and following it would stretch the reference far back.
const MaxLead = time.Second

// TrajectoryPoint is a point of a joint's trajectory: where the joint
// should be [rad] and how fast it should move there [rad/s] at Due.
type TrajectoryPoint struct {
	Position float64 // [rad]
	Velocity float64 // [rad/s]
	Due      time.Time
}

// reference is where a joint should be while it follows a trajectory: it
// passes p at p.Due moving at p.Velocity, then runs straight to next
// (when next.Due is set) and holds the last point.
type reference struct {
	p, next TrajectoryPoint
}

func (r *reference) following() bool { return !r.p.Due.IsZero() }

// final returns the point the reference comes to rest at and when.
func (r *reference) final() TrajectoryPoint {
	if r.next.Due.IsZero() {
		return r.p
	}
	return r.next
}

// at returns the reference position [rad] and velocity [rad/s] at t.
func (r *reference) at(t time.Time) (float64, float64) {
	if t.Before(r.p.Due) {
		return r.p.Position - r.p.Velocity*r.p.Due.Sub(t).Seconds(), r.p.Velocity
	}
	if r.next.Due.IsZero() {
		return r.p.Position, 0
	}
	if !t.Before(r.next.Due) {
		return r.next.Position, 0
	}
	v := (r.next.Position - r.p.Position) / r.next.Due.Sub(r.p.Due).Seconds()
	return r.p.Position + v*t.Sub(r.p.Due).Seconds(), v
}

// Follow makes joint j follow a trajectory through p (and on to next,
// when next.Due is set) at time now: the velocity output is the
// reference's velocity (feed-forward) plus Gain times the distance to the
// reference, so that a joint keeps up with a moving setpoint instead of
// trailing it by velocity / Gain. Once the last point is due the reference
// holds it and the joint settles there as with SetTarget. Points must lie
// within the joint's limits, velocities be finite, p be due within
// MaxLead of now and next after p and within 2 MaxLead of now.
func (a *ArmController) Follow(j wire.Joint, p, next TrajectoryPoint, now time.Time) error {
	if !j.IsArm() {
		return fmt.Errorf("%w: %s", ErrNotArm, j)
	}
	for _, q := range [2]TrajectoryPoint{p, next} {
		if q.Due.IsZero() {
			continue
		}
		if bad(q.Position) || q.Position < a.cfg.Lower[j] || q.Position > a.cfg.Upper[j] {
			return fmt.Errorf("%w: %s trajectory point %g rad, limits [%g, %g]", ErrJointLimit, j, q.Position, a.cfg.Lower[j], a.cfg.Upper[j])
		}
		if bad(q.Velocity) {
			return fmt.Errorf("%w: %s trajectory velocity %g", wire.ErrInvalidCommand, j, q.Velocity)
		}
	}
	switch {
	case p.Due.IsZero() || p.Due.Sub(now) > MaxLead:
		return fmt.Errorf("%w: %s trajectory point due %v from now (at most %v)", wire.ErrInvalidCommand, j, p.Due.Sub(now), MaxLead)
	case !next.Due.IsZero() && (!next.Due.After(p.Due) || next.Due.Sub(now) > 2*MaxLead):
		return fmt.Errorf("%w: %s next point due %v after the point, %v from now", wire.ErrInvalidCommand, j, next.Due.Sub(p.Due), next.Due.Sub(now))
	}
	s := &a.j[j]
	s.predict(now)
	s.state, s.start = Moving, now
	s.ref = reference{p: p, next: next}
	s.target = s.ref.final().Position
	return nil
}

// Cancel ends the target of joint j (if any is running).
func (a *ArmController) Cancel(j wire.Joint) {
	if s := &a.j[j]; s.state == Moving || s.state == Settling {
		s.state, s.out = Cancelled, 0
	}
}

// CancelAll ends every running target.
func (a *ArmController) CancelAll() {
	for _, j := range wire.ArmJoints {
		a.Cancel(j)
	}
}

// Measure records a telemetry position of joint j [rad] taken at at.
// Older samples than the last one are ignored.
func (a *ArmController) Measure(j wire.Joint, angle float64, at time.Time) {
	s := &a.j[j]
	if !s.measuredAt.IsZero() && !at.After(s.measuredAt) {
		return
	}
	s.measured, s.measuredAt = angle, at
	s.est, s.estAt = angle, at
}

// Position returns the last measured position of j [rad] and when it was
// measured (zero time before any telemetry).
func (a *ArmController) Position(j wire.Joint) (float64, time.Time) {
	return a.j[j].measured, a.j[j].measuredAt
}

// Active reports whether joint j is under position control.
func (a *ArmController) Active(j wire.Joint) bool {
	return a.j[j].state == Moving || a.j[j].state == Settling
}

// Step advances every running target to time now and writes the velocity
// of each controlled joint into vel [rad/s] (other entries untouched).
// telemetryTimeout is the largest accepted age of telemetry. It allocates
// nothing.
func (a *ArmController) Step(now time.Time, telemetryTimeout time.Duration, vel *[wire.NumJoints]float64) {
	for _, j := range wire.ArmJoints {
		s := &a.j[j]
		if s.state != Moving && s.state != Settling {
			continue
		}
		s.predict(now)
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
			if s.ref.following() && now.Before(s.ref.final().Due) {
				// On a moving reference: feed-forward plus correction,
				// no settling before the last point is due.
				pos, vel := s.ref.at(now)
				pos = math.Max(a.cfg.Lower[j], math.Min(a.cfg.Upper[j], pos))
				s.out = Clamp(vel+a.cfg.Gain*(pos-s.est), a.maxVel[j])
			} else if e := s.target - s.est; math.Abs(e) <= a.cfg.Tolerance/2 {
				// Aim for the middle half of the band, so that prediction
				// errors still leave the joint inside it.
				s.state, s.out, s.stopped = Settling, 0, now
			} else {
				v := Clamp(a.cfg.Gain*e, a.maxVel[j])
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
func (a *ArmController) Limit(j wire.Joint, v float64) float64 {
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
func (a *ArmController) Status(j wire.Joint) JointStatus {
	s := &a.j[j]
	return JointStatus{Joint: j, State: s.state, Target: s.target, Position: s.measured, Estimate: s.est, Velocity: s.out}
}
