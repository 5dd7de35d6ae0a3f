package armsim

import (
	"context"
	"math"
	"time"

	"github.com/telebridge/telebridge/pkg/rate"
)

// Following targets in time: cubic Hermite segments through the
// targets' points, advanced by Advance, AdvanceTo or Run.

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
