package trajectory

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"time"
)

// ErrConfig is wrapped by every configuration error of New.
var ErrConfig = errors.New("trajectory: bad config")

// Config describes the arm a Follower drives: its joints, limits and
// default tolerances, as a JTC's parameters do.
type Config struct {
	// Joints are the arm's joint names, in the order of every state and
	// setpoint. Required, no duplicates.
	Joints []string
	// Lower and Upper are the position limits [rad or m], one per joint;
	// empty: none. A joint with Lower >= Upper has none (continuous).
	Lower, Upper []float64
	// MaxVelocity is each joint's speed limit [rad/s or m/s]; empty or a
	// zero entry: none.
	MaxVelocity []float64
	// PathTolerance and GoalTolerance are the default tolerances, one per
	// joint or empty (none: not checked), the JTC's
	// constraints.<joint>.trajectory and .goal. A zero value is not
	// checked. Their Name fields are ignored.
	PathTolerance, GoalTolerance []Tolerance
	// StoppedVelocity is the default goal velocity tolerance [rad/s or
	// m/s] (the JTC's stopped_velocity_tolerance) for joints whose goal
	// tolerance gives none. Default 0.01; negative: not checked.
	StoppedVelocity float64
	// GoalTime is the default goal_time_tolerance. Zero: the goal waits
	// for the joints as long as it takes (the JTC's default).
	GoalTime time.Duration
	// AllowPartial accepts goals that name some of the joints (the others
	// hold their position), as the JTC's allow_partial_joints_goal.
	// Default false: every joint must be named (INVALID_JOINTS).
	AllowPartial bool
}

// withDefaults checks c and fills its defaults.
func (c Config) withDefaults() (Config, error) {
	n := len(c.Joints)
	if n == 0 {
		return c, fmt.Errorf("%w: no joints", ErrConfig)
	}
	for i, name := range c.Joints {
		if name == "" || slices.Index(c.Joints, name) != i {
			return c, fmt.Errorf("%w: joint name %q empty or repeated", ErrConfig, name)
		}
	}
	for _, l := range [...]struct {
		what string
		v    []float64
	}{{"lower limits", c.Lower}, {"upper limits", c.Upper}, {"velocity limits", c.MaxVelocity}} {
		if len(l.v) != 0 && len(l.v) != n {
			return c, fmt.Errorf("%w: %d %s for %d joints", ErrConfig, len(l.v), l.what, n)
		}
		for _, v := range l.v {
			if math.IsNaN(v) {
				return c, fmt.Errorf("%w: %s %v", ErrConfig, l.what, l.v)
			}
		}
	}
	if len(c.Lower) != len(c.Upper) {
		return c, fmt.Errorf("%w: %d lower and %d upper limits", ErrConfig, len(c.Lower), len(c.Upper))
	}
	for _, t := range [][]Tolerance{c.PathTolerance, c.GoalTolerance} {
		if len(t) != 0 && len(t) != n {
			return c, fmt.Errorf("%w: %d default tolerances for %d joints", ErrConfig, len(t), n)
		}
	}
	if c.StoppedVelocity == 0 {
		c.StoppedVelocity = 0.01
	}
	if c.GoalTime < 0 || math.IsNaN(c.StoppedVelocity) {
		return c, fmt.Errorf("%w: goal time %v, stopped velocity %g", ErrConfig, c.GoalTime, c.StoppedVelocity)
	}
	c.Joints = slices.Clone(c.Joints)
	return c, nil
}

func (c *Config) limited(i int) bool { return len(c.Lower) != 0 && c.Lower[i] < c.Upper[i] }

func (c *Config) maxVel(i int) float64 {
	if len(c.MaxVelocity) == 0 || !(c.MaxVelocity[i] > 0) {
		return math.Inf(1)
	}
	return c.MaxVelocity[i]
}

func (c *Config) index(name string) int { return slices.Index(c.Joints, name) }
