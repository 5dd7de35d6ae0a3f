package control

import (
	"math"
)

// ChassisLimits are the limits of a chassis twist. Zero (or negative)
// MaxLinear and MaxAngular disable their limit; a zero or negative
// MinStart disables the minimum start velocity.
type ChassisLimits struct {
	// MaxLinear is the speed limit [m/s].
	MaxLinear float64
	// MaxAngular is the yaw rate limit [rad/s].
	MaxAngular float64
	// MinStart is the start speed of a track standing still [m/s for the
	// linear, rad/s for the angular velocity].
	MinStart float64
}

// Apply applies the chassis limits to a twist (v [m/s], w [rad/s]) and
// returns the twist to send. Both steps scale v and w by one factor, so
// the commanded curvature w/v (the turning radius) is kept:
//
//  1. Limits: if |v| > MaxLinear, v and w are scaled by MaxLinear/|v|;
//     then if |w| > MaxAngular, both are scaled by MaxAngular/|w|
//     (0.5 m/s, 0.25 rad/s becomes 0.45 m/s, 0.225 rad/s: radius 2 m).
//  2. Minimum start velocity m = MinStart (the seed's 0.2, in m/s
//     for v and rad/s for w): a track standing still does not start below
//     its start speed, so when neither |v| nor |w| reaches m (the motion
//     would leave both tracks below their start speed), the twist is
//     raised by the factor m/max(|v|, |w|). A pure linear or pure rotation
//     command thus becomes ±m with its sign, exactly the seed's rule; a
//     mixed one keeps its curvature; zero stays zero. When either already
//     reaches m (e.g. driving forward at 0.5 m/s), the other passes
//     through unchanged however small: a moving track has no start
//     threshold. A negative m disables step 2.
//
// If MaxLinear or MaxAngular is below m, step 2 may exceed it (the robot
// would not move otherwise).
func (c ChassisLimits) Apply(v, w float64) (float64, float64) {
	if av := math.Abs(v); c.MaxLinear > 0 && av > c.MaxLinear {
		k := c.MaxLinear / av
		v, w = math.Copysign(c.MaxLinear, v), w*k
	}
	if aw := math.Abs(w); c.MaxAngular > 0 && aw > c.MaxAngular {
		k := c.MaxAngular / aw
		v, w = v*k, math.Copysign(c.MaxAngular, w)
	}
	m := c.MinStart
	av, aw := math.Abs(v), math.Abs(w)
	if m <= 0 || (v == 0 && w == 0) || av >= m || aw >= m {
		return v, w
	}
	// The larger of the two lands exactly on m (no rounding of the seed's
	// pure cases), the other keeps the ratio.
	if av >= aw {
		return math.Copysign(m, v), w * (m / av)
	}
	return v * (m / aw), math.Copysign(m, w)
}

// MinStart applies the minimum start velocity: a non-zero v smaller in
// magnitude than min is raised to min keeping its sign; zero stays zero.
func MinStart(v, min float64) float64 {
	switch {
	case v == 0 || min <= 0:
		return v
	case v > 0 && v < min:
		return min
	case v < 0 && v > -min:
		return -min
	}
	return v
}

// Clamp limits v to [-lim, lim]; a zero or negative lim disables the
// limit. Units are the caller's.
func Clamp(v, lim float64) float64 {
	if lim <= 0 {
		return v
	}
	return math.Max(-lim, math.Min(lim, v))
}

// bad reports whether v is NaN or infinite.
func bad(v float64) bool { return math.IsNaN(v) || math.IsInf(v, 0) }
