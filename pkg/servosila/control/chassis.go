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
	// linear, rad/s for the angular velocity]: see Apply for the track
	// units it is measured in.
	MinStart float64
	// HalfTrack k is the speed of a track per yaw rate [m/s per rad/s,
	// half the track separation]: the tracks run at v - k*w (left) and
	// v + k*w (right). The vendor server mixes left = linear - angular
	// and right = linear + angular units, so k is Calibration.Angular /
	// Calibration.Linear (0.352 with the English paper's constants).
	// Zero or negative: 1, the speeds of the tracks are their drives.
	HalfTrack float64
}

// Apply applies the chassis limits to a twist (v [m/s], w [rad/s]) and
// returns the twist to send, which is the twist the robot executes:
//
//  1. Limits keep the curvature: if |v| > MaxLinear, v and w are scaled by
//     MaxLinear/|v|; then if |w| > MaxAngular, both are scaled by
//     MaxAngular/|w| (0.5 m/s, 0.25 rad/s becomes 0.45 m/s, 0.225 rad/s:
//     radius 2 m).
//  2. The start speed m = MinStart belongs to each track. A track's drive
//     is measured in the units of the papers' two measured starts,
//     d = v - w (left) and v + w (right), so that driving straight starts
//     at m m/s and turning in place at m rad/s; its speed is v -+ k*w. A
//     track is below start when it is asked to move (speed not zero) with
//     |d| < m: standing still it would not start, and the robot would
//     pivot about it. Such a track is made definite:
//     - when both tracks are below start, each is raised to its start
//     (d = ±m, its sign kept): the seed's rule, per track (pure linear or
//     pure rotation below m becomes ±m exactly);
//     - when one is, it goes to the nearer of starting (d = ±m) and
//     standing still (speed 0: a pivot about it), the other track keeping
//     its drive.
//     A track already at or above its start passes unchanged however
//     small the other part of the twist; zero stays zero. The curvature is
//     not kept when a track is below start: the robot cannot drive that
//     arc from standstill.
//  3. If step 2 left the twist over MaxLinear or MaxAngular, the largest
//     fraction of the step-1 twist whose step-2 result is within them is
//     taken (Fit). If MaxLinear or MaxAngular is below m, none may be: the
//     step-2 twist is returned as it is (the robot would not move
//     otherwise).
//
// A negative m disables step 2. Apply allocates nothing; a twist it
// returns passes through it again unchanged (to rounding).
func (c ChassisLimits) Apply(v, w float64) (float64, float64) {
	v, w, _ = c.Fit(v, w, -1, -1)
	return v, w
}

// Fit returns the twist (v, w) [m/s, rad/s] the robot executes under Apply
// for the largest fraction f in (0, 1] of the asked twist whose executed
// twist is within maxLin [m/s] and maxAng [rad/s] as well as MaxLinear and
// MaxAngular (negative: no extra limit; zero: that part must be zero, as
// an operator's maximum of zero means). ok is false when no
// fraction fits (the start speed is above the maxima): the twist returned
// is then the executed twist of f = 1. A zero twist fits.
func (c ChassisLimits) Fit(v, w, maxLin, maxAng float64) (ev, ew float64, ok bool) {
	lin, ang := tighter(maxLin, c.MaxLinear), tighter(maxAng, c.MaxAngular)
	v, w = c.limit(v, w)
	ev, ew = c.start(v, w)
	if within(ev, ew, lin, ang) {
		return ev, ew, true
	}
	// The executed twist is piecewise linear in f: scan down for a fraction
	// that fits, then bisect between it and the one above that does not.
	const steps = 64
	lo, hi := 0.0, 1.0
	for i := steps - 1; i > 0; i-- {
		f := float64(i) / steps
		if a, b := c.start(v*f, w*f); within(a, b, lin, ang) {
			lo, hi = f, f+1.0/steps
			break
		}
	}
	if lo == 0 {
		return ev, ew, false
	}
	for range 30 {
		mid := (lo + hi) / 2
		if a, b := c.start(v*mid, w*mid); within(a, b, lin, ang) {
			lo = mid
		} else {
			hi = mid
		}
	}
	ev, ew = c.start(v*lo, w*lo)
	return ev, ew, true
}

// limit is step 1 of Apply.
func (c ChassisLimits) limit(v, w float64) (float64, float64) {
	if av := math.Abs(v); c.MaxLinear > 0 && av > c.MaxLinear {
		k := c.MaxLinear / av
		v, w = math.Copysign(c.MaxLinear, v), w*k
	}
	if aw := math.Abs(w); c.MaxAngular > 0 && aw > c.MaxAngular {
		k := c.MaxAngular / aw
		v, w = v*k, math.Copysign(c.MaxAngular, w)
	}
	return v, w
}

// still is the track speed [m/s] below which a track counts as standing
// still: a twist step 2 stopped a track in passes through it again.
const still = 1e-12

// start is step 2 of Apply: the per-track start rule.
func (c ChassisLimits) start(v, w float64) (float64, float64) {
	m, k := c.MinStart, c.HalfTrack
	if k <= 0 {
		k = 1 // no mixing given: the tracks' speeds are their drives
	}
	if m <= 0 || (v == 0 && w == 0) {
		return v, w
	}
	dl, dr := v-w, v+w     // drives, in start units
	sl, sr := v-k*w, v+k*w // speeds [m/s]
	slowL := math.Abs(sl) > still && math.Abs(dl) < m*(1-1e-12)
	slowR := math.Abs(sr) > still && math.Abs(dr) < m*(1-1e-12)
	switch {
	case !slowL && !slowR:
		return v, w
	case slowL && slowR:
		dl, dr = started(dl, sl, m), started(dr, sr, m)
	case slowL:
		dl = nearer(dl, started(dl, sl, m), stopped(dr, k))
	default:
		dr = nearer(dr, started(dr, sr, m), stopped(dl, k))
	}
	v, w = (dl+dr)/2, (dr-dl)/2
	// A track that was standing still (speed 0, so not below start) may
	// have been set moving by the change of the other: raise both.
	sl, sr = v-k*w, v+k*w
	if (math.Abs(sl) > still && math.Abs(dl) < m*(1-1e-12)) || (math.Abs(sr) > still && math.Abs(dr) < m*(1-1e-12)) {
		dl, dr = started(dl, sl, m), started(dr, sr, m)
		v, w = (dl+dr)/2, (dr-dl)/2
	}
	return v, w
}

// started is the drive of a track raised to its start m, in the
// direction of its drive d (of its speed s when d is zero).
func started(d, s, m float64) float64 {
	if math.Abs(d) >= m {
		return d
	}
	if d == 0 {
		return math.Copysign(m, s)
	}
	return math.Copysign(m, d)
}

// stopped is the drive of a track whose speed is zero while the other
// track's drive is other, with half track k: speed = d(1+k)/2 +
// other(1-k)/2.
func stopped(other, k float64) float64 { return -other * (1 - k) / (1 + k) }

// nearer returns whichever of a and b is nearer to d (a on a tie).
func nearer(d, a, b float64) float64 {
	if math.Abs(b-d) < math.Abs(a-d) {
		return b
	}
	return a
}

// tighter returns the smaller of an extra limit (negative: none; zero:
// zero) and a chassis limit (zero or negative: none); +Inf for none.
func tighter(extra, limit float64) float64 {
	if extra < 0 {
		extra = math.Inf(1)
	}
	if limit <= 0 {
		limit = math.Inf(1)
	}
	return math.Min(extra, limit)
}

// within reports whether the twist is within the limits [m/s, rad/s], to
// rounding.
func within(v, w, lin, ang float64) bool {
	return math.Abs(v) <= lin*(1+1e-9) && math.Abs(w) <= ang*(1+1e-9)
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
