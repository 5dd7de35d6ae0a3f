package armsim

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sync"
	"time"

	"github.com/telebridge/telebridge/pkg/geom"
	"github.com/telebridge/telebridge/pkg/jog"
	"github.com/telebridge/telebridge/pkg/kinematics"
	"github.com/telebridge/telebridge/pkg/rate"
)

// ErrTarget is wrapped by WriteJointTarget for a target that does not fit
// the arm (names, length, NaN); the arm then keeps its previous target.
var ErrTarget = errors.New("armsim: bad joint target")

// Config describes the simulated arm.
type Config struct {
	// Names are the joint names, in order. Required.
	Names []string
	// MaxVelocity is each joint's speed limit [rad/s or m/s]. Required,
	// positive.
	MaxVelocity []float64
	// Lower and Upper are the joint limits [rad or m]; targets beyond them
	// are counted as violations (and followed: the sim is a witness, not
	// a guard). Empty: no limits.
	Lower, Upper []float64
	// Initial positions; empty: all zero.
	Initial []float64
	// Start is the simulated clock's start. Default: 2000-01-01 UTC.
	Start time.Time
	// Chain is the arm's kinematics (FromChain sets it); with it the arm
	// also takes relative Cartesian commands (WriteRelativeTarget), as a
	// robot controller that takes REL, RELW and RELT commands does.
	Chain *kinematics.Chain
	// World is T_base_world, the world frame of RELW commands; zero:
	// the base.
	World geom.Transform
}

// FromChain returns a Config for a kinematic chain: its joint names,
// limits and velocity limits (defaultVelocity where the chain has none).
func FromChain(c *kinematics.Chain, defaultVelocity float64) Config {
	cfg := Config{Names: c.JointNames(), Chain: c}
	for _, j := range c.Joints {
		v := j.MaxVelocity
		if v == 0 {
			v = defaultVelocity
		}
		cfg.MaxVelocity = append(cfg.MaxVelocity, v)
		cfg.Lower = append(cfg.Lower, j.Lower)
		cfg.Upper = append(cfg.Upper, j.Upper)
	}
	return cfg
}

// Arm is the simulated arm.
type Arm struct {
	mu         sync.Mutex
	cfg        Config
	now        time.Time
	pos, goal  []float64
	vel        []float64 // linear mode: per-joint speed toward goal
	violations uint64
	targets    uint64

	// Spline mode (a target with velocities): a cubic Hermite segment from
	// (p0, v0) to (goal, v1) over segT, as a ros2_control joint
	// trajectory controller interpolates a point with positions and
	// velocities. rate is the current velocity, the truth's.
	spline         bool
	p0, v0, v1     []float64
	rate           []float64
	segT, segSince float64 // [s]
	overSpeed      uint64  // Advance calls with a joint above its velocity limit
	// The target's Next point, a segment from (goal, v1) to (next,
	// nextVel) over nextT once the current one ends.
	hasNext        bool
	next, nextVel  []float64
	nextT          float64 // [s]
	late, offClock uint64  // targets whose point was due already; stamps ignored

	ik       *kinematics.Solver // relative commands (with a chain)
	ikGoal   []float64
	relative uint64 // relative commands taken
}

// New validates cfg and returns an arm at rest at its initial position.
func New(cfg Config) (*Arm, error) {
	n := len(cfg.Names)
	if n == 0 || len(cfg.MaxVelocity) != n {
		return nil, fmt.Errorf("armsim: new: %d names, %d velocity limits", n, len(cfg.MaxVelocity))
	}
	for i, v := range cfg.MaxVelocity {
		if !(v > 0) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("armsim: new: joint %q velocity limit %g", cfg.Names[i], v)
		}
	}
	if (len(cfg.Lower) != 0 || len(cfg.Upper) != 0) && (len(cfg.Lower) != n || len(cfg.Upper) != n) {
		return nil, fmt.Errorf("armsim: new: limits for %d/%d of %d joints", len(cfg.Lower), len(cfg.Upper), n)
	}
	if len(cfg.Initial) != 0 && len(cfg.Initial) != n {
		return nil, fmt.Errorf("armsim: new: %d initial positions for %d joints", len(cfg.Initial), n)
	}
	if cfg.Start.IsZero() {
		cfg.Start = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)
	}
	a := &Arm{cfg: cfg, now: cfg.Start, pos: make([]float64, n), goal: make([]float64, n), vel: make([]float64, n),
		p0: make([]float64, n), v0: make([]float64, n), v1: make([]float64, n), rate: make([]float64, n),
		next: make([]float64, n), nextVel: make([]float64, n)}
	copy(a.pos, cfg.Initial)
	copy(a.goal, a.pos)
	if cfg.Chain != nil {
		if cfg.Chain.DOF() != n {
			return nil, fmt.Errorf("armsim: new: a chain of %d joints for %d names", cfg.Chain.DOF(), n)
		}
		// One attempt from the current joints: a robot's controller stays
		// on its branch.
		ik, err := kinematics.NewSolver(cfg.Chain, kinematics.Config{MaxAttempts: 1})
		if err != nil {
			return nil, fmt.Errorf("armsim: new: %w", err)
		}
		a.ik, a.ikGoal = ik, make([]float64, n)
	}
	if a.cfg.World == (geom.Transform{}) {
		a.cfg.World = geom.Identity()
	}
	return a, nil
}

// WriteRelativeTarget implements jog.RelativeOutput: it applies
// t.Relative to the tool's current pose (from the truth, as a robot does),
// solves the joints of that pose from the current ones and follows them
// as WriteJointTarget follows t's point (its velocities and
// TimeFromStart). The joint positions of t are not used. It needs
// Config.Chain.
func (a *Arm) WriteRelativeTarget(t jog.JointTarget) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.ik == nil {
		return fmt.Errorf("%w: relative command without a kinematic chain", ErrTarget)
	}
	if err := t.Relative.Delta.Validate(); err != nil {
		return fmt.Errorf("%w: relative command: %w", ErrTarget, err)
	}
	tool, err := a.cfg.Chain.FK(a.pos)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrTarget, err)
	}
	goal, err := t.Relative.Apply(tool, a.cfg.World)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrTarget, err)
	}
	if _, err := a.ik.Solve(a.ikGoal, goal, a.pos); err != nil {
		return fmt.Errorf("%w: relative command %s: %w", ErrTarget, t.Relative.Type, err)
	}
	// The controller's Next is its own joint solution, not this arm's.
	t.Positions, t.Next, t.NextVelocities = a.ikGoal, nil, nil
	if err := a.writeLocked(t); err != nil {
		return err
	}
	a.relative++
	return nil
}

// Relative returns how many relative commands the arm took.
func (a *Arm) Relative() uint64 {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.relative
}

// WriteJointTarget implements jog.Output. A target with Velocities is
// followed as a trajectory controller follows a trajectory with positions
// and velocities: a cubic Hermite segment from the current position and
// velocity to t.Positions and t.Velocities at t.TimeFromStart, then, if
// t.Next is set, a second one on to it at t.NextTimeFromStart, after
// which the joint rests there. The times count from t.Stamp on the arm's
// clock (a point already due is skipped; a target whose points are all
// due is reached at once), or from the arm's now when the stamp is zero
// or more than MaxStampSkew away from the arm's clock (OffClock counts
// those). The arm does not limit that motion (it is a witness of what it
// was told): Positions and Velocities report the truth and OverSpeed
// counts velocity-limit violations. A target without Velocities is
// reached in straight lines, all joints arriving together at
// t.TimeFromStart, each no faster than its limit.
func (a *Arm) WriteJointTarget(t jog.JointTarget) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.writeLocked(t)
}

// writeLocked takes a joint target; the caller holds the lock.
func (a *Arm) writeLocked(t jog.JointTarget) error {
	n := len(a.pos)
	if len(t.Positions) != n || len(t.JointNames) != n {
		return fmt.Errorf("%w: %d names and %d positions for %d joints", ErrTarget, len(t.JointNames), len(t.Positions), n)
	}
	for i, name := range t.JointNames {
		if name != a.cfg.Names[i] {
			return fmt.Errorf("%w: joint %d is %q, want %q", ErrTarget, i, name, a.cfg.Names[i])
		}
		if v := t.Positions[i]; math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("%w: joint %q target %g", ErrTarget, name, v)
		}
	}
	if len(t.Velocities) != 0 && len(t.Velocities) != n {
		return fmt.Errorf("%w: %d velocities for %d joints", ErrTarget, len(t.Velocities), n)
	}
	for i, v := range t.Velocities {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("%w: joint %q velocity %g", ErrTarget, t.JointNames[i], v)
		}
	}
	hasNext := len(t.Next) != 0
	if hasNext && (len(t.Next) != n || len(t.NextVelocities) != n || len(t.Velocities) != n || t.NextTimeFromStart <= t.TimeFromStart) {
		return fmt.Errorf("%w: next point of %d positions and %d velocities at %v (first at %v) for %d joints",
			ErrTarget, len(t.Next), len(t.NextVelocities), t.NextTimeFromStart, t.TimeFromStart, n)
	}
	for i := range t.Next {
		if v, w := t.Next[i], t.NextVelocities[i]; math.IsNaN(v) || math.IsInf(v, 0) || math.IsNaN(w) || math.IsInf(w, 0) {
			return fmt.Errorf("%w: joint %q next point %g at %g", ErrTarget, t.JointNames[i], v, w)
		}
	}
	a.targets++
	secs, nextSecs := t.TimeFromStart.Seconds(), t.NextTimeFromStart.Seconds()
	stamped := false
	if !t.Stamp.IsZero() {
		if skew := a.now.Sub(t.Stamp); skew > MaxStampSkew || skew < -MaxStampSkew {
			a.offClock++
		} else {
			stamped = true
			secs -= skew.Seconds()
			nextSecs -= skew.Seconds()
		}
	}
	if len(t.Velocities) == n {
		switch {
		case secs > 0:
			a.startSegment(t.Positions, t.Velocities, secs)
			if hasNext {
				a.checkLimits(t.Next)
				a.hasNext = true
				copy(a.next, t.Next)
				copy(a.nextVel, t.NextVelocities)
				a.nextT = nextSecs - secs
			}
			return nil
		case hasNext && nextSecs > 0:
			// The first point is due already: head for the next one.
			a.late++
			a.startSegment(t.Next, t.NextVelocities, nextSecs)
			return nil
		}
		if stamped {
			a.late++ // every point is due: straight to the last one
		}
		if hasNext {
			t.Positions = t.Next
		}
	}
	a.spline, a.hasNext = false, false
	a.checkLimits(t.Positions)
	for i, g := range t.Positions {
		a.goal[i] = g
		v := a.cfg.MaxVelocity[i]
		if secs > 0 {
			v = math.Min(v, math.Abs(g-a.pos[i])/secs)
		}
		a.vel[i] = v
	}
	return nil
}

// Advance moves the simulated time on by dt, every joint toward its
// target at its speed, without overshoot.
func (a *Arm) Advance(dt time.Duration) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.advanceLocked(dt)
}

// AdvanceTo moves the simulated time on to now (nothing when now is not
// after it), as Advance. Called with the wall clock's time every tick, it
// keeps the arm's clock on the wall clock, where stamped targets count
// from (see WriteJointTarget).
func (a *Arm) AdvanceTo(now time.Time) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if dt := now.Sub(a.now); dt > 0 {
		a.advanceLocked(dt)
	}
}

// advanceLocked is Advance; the caller holds the lock.
func (a *Arm) advanceLocked(dt time.Duration) {
	a.now = a.now.Add(dt)
	if a.spline {
		a.advanceSpline(dt.Seconds())
		return
	}
	for i := range a.pos {
		d := a.goal[i] - a.pos[i]
		stepMax := a.vel[i] * dt.Seconds()
		if math.Abs(d) <= stepMax {
			a.pos[i] = a.goal[i]
			a.rate[i] = 0
		} else {
			a.pos[i] += math.Copysign(stepMax, d)
			a.rate[i] = math.Copysign(a.vel[i], d)
		}
	}
}

// checkLimits counts a violation for each position outside the limits;
// the caller holds the lock.
func (a *Arm) checkLimits(q []float64) {
	if len(a.cfg.Lower) != len(q) {
		return
	}
	for i, g := range q {
		if g < a.cfg.Lower[i] || g > a.cfg.Upper[i] {
			a.violations++
		}
	}
}

// startSegment starts a Hermite segment from the current position and
// velocity to (q, v) in secs; the caller holds the lock.
func (a *Arm) startSegment(q, v []float64, secs float64) {
	a.checkLimits(q)
	a.spline, a.segT, a.segSince, a.hasNext = true, secs, 0, false
	copy(a.p0, a.pos)
	copy(a.v0, a.rate)
	copy(a.goal, q)
	copy(a.v1, v)
}

// shiftSegment makes the queued next segment the current one, starting at
// the end of the current one with since seconds already elapsed in it;
// the caller holds the lock.
func (a *Arm) shiftSegment(since float64) {
	copy(a.p0, a.goal)
	copy(a.v0, a.v1)
	copy(a.goal, a.next)
	copy(a.v1, a.nextVel)
	a.segT, a.segSince, a.hasNext = a.nextT, since, false
}

// advanceSpline evaluates the Hermite segment dt seconds further, going
// on to the next segment when the current one ends; the caller holds the
// lock.
func (a *Arm) advanceSpline(dt float64) {
	a.segSince += dt
	if a.hasNext && a.segSince >= a.segT-1e-12 {
		a.shiftSegment(a.segSince - a.segT)
	}
	T := a.segT
	if a.segSince >= T-1e-12 { // sums of steps round: a ps short is there
		// At the point: its velocity, which the next point continues
		// from; past it the joints rest there, as a trajectory controller
		// holds the last point.
		copy(a.pos, a.goal)
		if math.Abs(a.segSince-T) < 1e-9 {
			copy(a.rate, a.v1)
		} else {
			clear(a.rate)
		}
		a.spline = false
		return
	}
	s := a.segSince / T
	h00 := 2*s*s*s - 3*s*s + 1
	h10 := s*s*s - 2*s*s + s
	h01 := -2*s*s*s + 3*s*s
	h11 := s*s*s - s*s
	d00 := (6*s*s - 6*s) / T
	d10 := 3*s*s - 4*s + 1
	d01 := (-6*s*s + 6*s) / T
	d11 := 3*s*s - 2*s
	over := false
	for i := range a.pos {
		p0, v0, p1, v1 := a.p0[i], a.v0[i], a.goal[i], a.v1[i]
		a.pos[i] = h00*p0 + h10*T*v0 + h01*p1 + h11*T*v1
		a.rate[i] = d00*p0 + d10*v0 + d01*p1 + d11*v1
		if math.Abs(a.rate[i]) > a.cfg.MaxVelocity[i]*(1+1e-9) {
			over = true
		}
	}
	if over {
		a.overSpeed++
	}
}

// Velocities returns a copy of the joint velocities [rad/s or m/s], the
// truth's.
func (a *Arm) Velocities() []float64 {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]float64(nil), a.rate...)
}

// OverSpeed returns how many Advance calls ended with a joint faster than
// its velocity limit (spline mode only; the linear mode caps the speed).
func (a *Arm) OverSpeed() uint64 {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.overSpeed
}

// JointPositions implements jog.JointSource with the simulated clock.
func (a *Arm) JointPositions(dst []float64) (time.Time, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if len(dst) != len(a.pos) {
		return time.Time{}, fmt.Errorf("armsim: joint positions: %d slots for %d joints", len(dst), len(a.pos))
	}
	copy(dst, a.pos)
	return a.now, nil
}

// Positions returns a copy of the joint positions.
func (a *Arm) Positions() []float64 {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]float64(nil), a.pos...)
}

// Names returns a copy of the joint names, in order.
func (a *Arm) Names() []string {
	return append([]string(nil), a.cfg.Names...)
}

// Now returns the simulated time.
func (a *Arm) Now() time.Time {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.now
}

// MaxStampSkew is how far a target's stamp may be from the arm's clock
// for its times to count from it; beyond, they count from the arm's now.
const MaxStampSkew = time.Second

// Timing returns how many targets came with their first point already
// due (late) and how many stamps were too far from the arm's clock to be
// used (offClock).
func (a *Arm) Timing() (late, offClock uint64) {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.late, a.offClock
}

// Violations returns how many target positions were outside the limits,
// and how many targets were accepted.
func (a *Arm) Violations() (violations, targets uint64) {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.violations, a.targets
}

// Run advances the arm in real time every period until ctx is cancelled,
// with the simulated clock following the wall clock.
func (a *Arm) Run(ctx context.Context, period time.Duration) error {
	a.mu.Lock()
	a.now = time.Now()
	a.mu.Unlock()
	return rate.Run(ctx, period, func(t rate.Tick) error {
		a.AdvanceTo(t.Now)
		return nil
	})
}

var (
	_ jog.Arm            = (*Arm)(nil)
	_ jog.RelativeOutput = (*Arm)(nil)
)
