package control

import "math"

// The motion profiles are discrete double integrators: over each cycle of
// dt the acceleration is constant, so a position advances by the mean of
// the velocities at both ends times dt. A trajectory controller (or
// armsim) that interpolates the points with cubic Hermite splines, as
// ros2_control's joint trajectory controller does with positions and
// velocities, then reproduces the profile exactly: constant acceleration
// within each cycle, never above the limit.

// AxisStep advances one axis (position p, velocity v) by dt toward target
// under |v| <= vmax and |dv/dt| <= amax, time-optimally up to one cycle:
// it accelerates, cruises, and brakes to rest at the target, and if it
// cannot stop in time it brakes at amax, passes the target and comes
// back. done reports arrival (p == target, v == 0). It is invariant under
// scaling of p, v, target, vmax and amax, so that axes with limits in
// proportion to their distances move in lock-step. It allocates nothing.
func AxisStep(p, v, target, vmax, amax, dt float64) (np, nv float64, done bool) {
	d := target - p
	if d == 0 && v == 0 {
		return p, 0, true
	}
	// Finish in this cycle if the cubic segment to (target, 0) stays
	// within amax at both ends (where its acceleration peaks).
	a0 := 6*d/(dt*dt) - 4*v/dt
	a1 := -6*d/(dt*dt) + 2*v/dt
	if math.Abs(a0) <= amax && math.Abs(a1) <= amax {
		return target, 0, true
	}
	sgn := 1.0
	if d < 0 || (d == 0 && v > 0) {
		sgn = -1
	}
	u := v * sgn // velocity toward the target
	rem := math.Abs(d) - dt*u/2
	// Largest speed from which the rest of the way still suffices to
	// brake at amax: w²/(2a) + w·dt (the discrete braking distance bound
	// plus this cycle's share).
	w := math.Inf(-1)
	if rem >= 0 {
		w = amax * (-dt + math.Sqrt(dt*dt+2*rem/amax))
	}
	nu := math.Min(math.Min(w, u+amax*dt), vmax)
	nu = math.Max(nu, u-amax*dt)
	nu = math.Max(nu, math.Min(-vmax, u)) // never reverse faster than vmax
	nv = nu * sgn
	return p + dt*(v+nv)/2, nv, false
}

// Brake is a stop at constant deceleration: every joint's velocity falls
// linearly from V0 to zero in T, so all joints stop together on the line
// they were moving along.
type Brake struct {
	Q0 []float64 // positions when the stop began [rad or m]
	V0 []float64 // velocities when the stop began [rad/s or m/s]
	T  float64   // time to rest [s]
}

// At writes the position [rad or m] and velocity [rad/s or m/s] at time s
// [s] after the brake began into q and v (len of V0). It allocates
// nothing.
func (b *Brake) At(s float64, q, v []float64) {
	s = math.Min(math.Max(s, 0), b.T)
	for i, v0 := range b.V0 {
		if b.T == 0 {
			q[i], v[i] = b.Q0[i], 0
			continue
		}
		if s == b.T {
			q[i], v[i] = b.Q0[i]+v0*b.T/2, 0
			continue
		}
		q[i] = b.Q0[i] + v0*(s-s*s/(2*b.T))
		v[i] = v0 * (1 - s/b.T)
	}
}

// BrakeTime is the time to stop from velocities v with decelerations
// within amax, capped at maxStop: the stop wins over the limits [s].
func BrakeTime(v, amax []float64, maxStop float64) float64 {
	var t float64
	for i, x := range v {
		t = math.Max(t, math.Abs(x)/amax[i])
	}
	return math.Min(t, maxStop)
}

// ScaledStep returns the step of an incremental move [m, rad, or joint
// units]: step, times the speed override when scale is set (the
// step_scale_* parameters).
func ScaledStep(step, speed float64, scale bool) float64 {
	if scale {
		step *= speed
	}
	return step
}

// MaxAbsDiff returns the largest |a[i]-b[i]| (a and b of one length).
func MaxAbsDiff(a, b []float64) float64 {
	var m float64
	for i := range a {
		m = math.Max(m, math.Abs(a[i]-b[i]))
	}
	return m
}
