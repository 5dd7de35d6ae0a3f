package control

import "math"

// The joint tracker: every joint of a point-to-point move heads for its
// target with its own limits (TrackLimits), one AxisStep per cycle.

// TrackStep advances every joint one cycle of dt [s] from position q
// [rad or m] and velocity v [rad/s or m/s] toward target, within the
// velocity limits vlim and acceleration limits alim (TrackLimits), and
// writes the new positions, clamped into [lo, hi], and velocities into
// dstQ and dstV (which may be q and v). The clamp only absorbs rounding:
// the profile brakes before the target, which is within the limits. It
// reports whether every joint has arrived at rest. It allocates nothing.
func TrackStep(q, v, dstQ, dstV, target, vlim, alim, lo, hi []float64, dt float64) (arrived bool) {
	all := true
	for i := range q {
		nq, nv, done := AxisStep(q[i], v[i], target[i], vlim[i], alim[i], dt)
		all = all && done
		dstQ[i], dstV[i] = math.Max(lo[i], math.Min(hi[i], nq)), nv
	}
	return all
}

// NearTarget reports whether every joint, at q [rad or m] moving at v
// [rad/s or m/s], is within reach of its target: within blending [rad or
// m], or within its braking distance under its acceleration limit alim
// [rad/s² or m/s²] plus two cycles of dt [s] at its speed, so that an
// incremental move takes its next target before it would start braking
// for this one (joints_delta_blending with PTPCP).
func NearTarget(q, v, target, alim []float64, blending, dt float64) bool {
	for i := range q {
		reach := blending
		if alim[i] > 0 {
			reach = math.Max(reach, v[i]*v[i]/(2*alim[i])+2*math.Abs(v[i])*dt)
		}
		if math.Abs(target[i]-q[i]) > reach {
			return false
		}
	}
	return true
}

// JointStep writes into dst the joints one step of step [rad or m] from
// from along the unit direction dir, each clamped into [lo, hi] (dst may
// be from). It allocates nothing.
func JointStep(dst, from, dir []float64, step float64, lo, hi []float64) {
	for i, d := range dir {
		dst[i] = math.Max(lo[i], math.Min(hi[i], from[i]+step*d))
	}
}

// TrackLimits writes into tv and ta the velocity [rad/s or m/s] and
// acceleration [rad/s² or m/s²] limits with which each joint heads from
// q, moving at v, for goal: velocityPercent of its velocity limit vmax
// times speed (the override in (0, 1]) and accelerationPercent of its
// acceleration limit amax. From rest the limits are scaled to the joints'
// distances, so that all start, accelerate, brake and arrive together (a
// synchronised trapezoid of AxisStep); in motion every joint may use its
// whole acceleration limit to turn to the new goal, and keeps a little
// speed to come back. It allocates nothing.
func TrackLimits(tv, ta, q, v, goal, vmax, amax []float64, velocityPercent, accelerationPercent, speed float64) {
	vs, as := math.Inf(1), math.Inf(1)
	moving := false
	for i, g := range goal {
		if d := math.Abs(g - q[i]); d > 0 {
			vs = math.Min(vs, vmax[i]*velocityPercent/100*speed/d)
			as = math.Min(as, amax[i]*accelerationPercent/100/d)
		}
		if v[i] != 0 {
			moving = true
		}
	}
	for i, g := range goal {
		vi := vmax[i] * velocityPercent / 100 * speed
		ai := amax[i] * accelerationPercent / 100
		d := math.Abs(g - q[i])
		tv[i], ta[i] = vs*d, as*d
		if math.IsInf(vs, 1) {
			tv[i], ta[i] = 0, 0
		}
		if moving {
			// Let a joint that must turn or brake use its own limits, and
			// keep a little speed for it to come back.
			ta[i] = ai
			tv[i] = math.Max(tv[i], 0.05*vi)
		}
		tv[i] = math.Min(tv[i], vi)
		ta[i] = math.Min(ta[i], ai)
	}
}
