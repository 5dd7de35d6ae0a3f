package armsim

import (
	"errors"
	"fmt"
	"math"
	"sync"
	"time"

	"github.com/telebridge/telebridge/pkg/geom"
	"github.com/telebridge/telebridge/pkg/jog"
	"github.com/telebridge/telebridge/pkg/kinematics"
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

var (
	_ jog.Arm            = (*Arm)(nil)
	_ jog.RelativeOutput = (*Arm)(nil)
)
