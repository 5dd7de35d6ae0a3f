package trajectory

import (
	"math"
	"slices"
	"time"
)

// Validate checks g against the arm at time now, as the JTC checks a goal
// before accepting it: joint names known and not repeated (every joint
// named unless AllowPartial), at least one point, each point's sizes
// consistent with the names (velocities and accelerations empty or one
// per joint, accelerations only with velocities), TimeFromStart not
// negative and strictly increasing, every value finite (within
// MaxMagnitude), positions within
// the limits, velocities within the velocity limits and each segment
// between points no faster on average than them, tolerances naming known
// joints with finite values, and a stamped goal not ending before now. It
// returns nil or an *Error with the result code: InvalidJoints,
// InvalidGoal or OldHeaderTimestamp.
func (f *Follower) Validate(g *Goal, now time.Time) *Error {
	return f.cfg.Validate(g, now)
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// MaxMagnitude bounds every position [rad or m], velocity [rad/s or m/s]
// and acceleration [rad/s² or m/s²] of a goal, joints without limits
// included, so that the splines between points stay finite.
const MaxMagnitude = 1e6

func sane(v float64) bool { return finite(v) && math.Abs(v) <= MaxMagnitude }

// Validate is Follower.Validate on a Config (which need not have been
// through New: its defaults play no part here).
func (c *Config) Validate(g *Goal, now time.Time) *Error {
	n := len(g.JointNames)
	if n == 0 {
		return errorf(InvalidJoints, "no joint names")
	}
	for i, name := range g.JointNames {
		if c.index(name) < 0 {
			return errorf(InvalidJoints, "joint %q is not one of %v", name, c.Joints)
		}
		if slices.Index(g.JointNames, name) != i {
			return errorf(InvalidJoints, "joint %q named twice", name)
		}
	}
	if n != len(c.Joints) && !c.AllowPartial {
		return errorf(InvalidJoints, "%d of the %d joints %v named; partial goals are not allowed", n, len(c.Joints), c.Joints)
	}
	for _, ts := range [...][]Tolerance{g.PathTolerance, g.GoalTolerance} {
		for _, t := range ts {
			if c.index(t.Name) < 0 {
				return errorf(InvalidJoints, "tolerance for joint %q, not one of %v", t.Name, c.Joints)
			}
			if !finite(t.Position) || !finite(t.Velocity) || !finite(t.Acceleration) {
				return errorf(InvalidGoal, "tolerance of joint %q not finite: %g, %g, %g", t.Name, t.Position, t.Velocity, t.Acceleration)
			}
		}
	}
	if g.GoalTime < 0 {
		return errorf(InvalidGoal, "goal time tolerance %v is negative", g.GoalTime)
	}
	if len(g.Points) == 0 {
		return errorf(InvalidGoal, "no points")
	}
	for k := range g.Points {
		if e := c.validatePoint(g, k); e != nil {
			return e
		}
	}
	if !g.Start.IsZero() {
		if end := g.Start.Add(g.End()); end.Before(now) {
			return errorf(OldHeaderTimestamp, "the trajectory ends %v before now (header stamp %v)", now.Sub(end), g.Start.UTC().Format(time.RFC3339Nano))
		}
	}
	return nil
}

// validatePoint checks point k of g.
func (c *Config) validatePoint(g *Goal, k int) *Error {
	n := len(g.JointNames)
	p := &g.Points[k]
	switch {
	case len(p.Positions) != n:
		return errorf(InvalidGoal, "point %d has %d positions for %d joints", k, len(p.Positions), n)
	case len(p.Velocities) != 0 && len(p.Velocities) != n:
		return errorf(InvalidGoal, "point %d has %d velocities for %d joints", k, len(p.Velocities), n)
	case len(p.Accelerations) != 0 && len(p.Accelerations) != n:
		return errorf(InvalidGoal, "point %d has %d accelerations for %d joints", k, len(p.Accelerations), n)
	case len(p.Accelerations) != 0 && len(p.Velocities) == 0:
		return errorf(InvalidGoal, "point %d has accelerations without velocities", k)
	case p.TimeFromStart < 0:
		return errorf(InvalidGoal, "point %d is due %v from the start, before it", k, p.TimeFromStart)
	case k > 0 && p.TimeFromStart <= g.Points[k-1].TimeFromStart:
		return errorf(InvalidGoal, "point %d is due at %v, not after point %d at %v: times must increase strictly", k, p.TimeFromStart, k-1, g.Points[k-1].TimeFromStart)
	}
	for i, name := range g.JointNames {
		j := c.index(name)
		q := p.Positions[i]
		if !sane(q) {
			return errorf(InvalidGoal, "point %d: joint %q position %g", k, name, q)
		}
		if c.limited(j) && (q < c.Lower[j] || q > c.Upper[j]) {
			return errorf(InvalidGoal, "point %d: joint %q position %g outside its limits [%g, %g]", k, name, q, c.Lower[j], c.Upper[j])
		}
		vmax := c.maxVel(j)
		if i < len(p.Velocities) {
			if v := p.Velocities[i]; !sane(v) || math.Abs(v) > vmax*(1+1e-9) {
				return errorf(InvalidGoal, "point %d: joint %q velocity %g (limit %g)", k, name, v, vmax)
			}
		}
		if i < len(p.Accelerations) && !sane(p.Accelerations[i]) {
			return errorf(InvalidGoal, "point %d: joint %q acceleration %g", k, name, p.Accelerations[i])
		}
		if k > 0 {
			prev := &g.Points[k-1]
			dt := (p.TimeFromStart - prev.TimeFromStart).Seconds()
			if v := math.Abs(q-prev.Positions[i]) / dt; v > vmax*(1+1e-9) {
				return errorf(InvalidGoal, "points %d to %d: joint %q moves %g in %g s, %g on average, over its velocity limit %g", k-1, k, name, q-prev.Positions[i], dt, v, vmax)
			}
		}
	}
	return nil
}
