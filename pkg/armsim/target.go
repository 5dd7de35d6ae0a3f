package armsim

import (
	"fmt"
	"math"
	"time"

	"github.com/telebridge/telebridge/pkg/jog"
)

// Taking targets: joint targets (a point and the next, from a stamp) and
// relative Cartesian commands, checked against the joint limits.

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

// MaxStampSkew is how far a target's stamp may be from the arm's clock
// for its times to count from it; beyond, they count from the arm's now.
const MaxStampSkew = time.Second
