package armsim

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sync"
	"time"

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
}

// FromChain returns a Config for a kinematic chain: its joint names,
// limits and velocity limits (defaultVelocity where the chain has none).
func FromChain(c *kinematics.Chain, defaultVelocity float64) Config {
	cfg := Config{Names: c.JointNames()}
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
	vel        []float64 // current per-joint speed toward goal
	violations uint64
	targets    uint64
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
	a := &Arm{cfg: cfg, now: cfg.Start, pos: make([]float64, n), goal: make([]float64, n), vel: make([]float64, n)}
	copy(a.pos, cfg.Initial)
	copy(a.goal, a.pos)
	return a, nil
}

// WriteJointTarget implements jog.Output: the arm heads for t.Positions,
// timed to arrive after t.TimeFromStart, each joint no faster than its
// limit.
func (a *Arm) WriteJointTarget(t jog.JointTarget) error {
	a.mu.Lock()
	defer a.mu.Unlock()
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
	a.targets++
	secs := t.TimeFromStart.Seconds()
	for i, g := range t.Positions {
		if len(a.cfg.Lower) == n && (g < a.cfg.Lower[i] || g > a.cfg.Upper[i]) {
			a.violations++
		}
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
	a.now = a.now.Add(dt)
	for i := range a.pos {
		d := a.goal[i] - a.pos[i]
		stepMax := a.vel[i] * dt.Seconds()
		if math.Abs(d) <= stepMax {
			a.pos[i] = a.goal[i]
		} else {
			a.pos[i] += math.Copysign(stepMax, d)
		}
	}
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
	last := time.Now()
	return rate.Run(ctx, period, func(t rate.Tick) error {
		a.Advance(t.Now.Sub(last))
		last = t.Now
		return nil
	})
}

var _ jog.Arm = (*Arm)(nil)
