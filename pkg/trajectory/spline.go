package trajectory

// Interpolation between two states of one joint over T seconds, as the
// JTC interpolates between trajectory points: quintic when both ends give
// accelerations, cubic when both give velocities, linear otherwise.

// kind is how a segment is interpolated.
type kind uint8

const (
	linear kind = iota
	cubic
	quintic
)

func kindOf(aVel, aAcc, bVel, bAcc bool) kind {
	switch {
	case aVel && aAcc && bVel && bAcc:
		return quintic
	case aVel && bVel:
		return cubic
	}
	return linear
}

// interpolate returns position, velocity and acceleration at s seconds
// into a segment of T seconds (0 <= s <= T, T > 0) from (p0, v0, a0) to
// (p1, v1, a1), of kind k.
func interpolate(k kind, T, s, p0, v0, a0, p1, v1, a1 float64) (p, v, a float64) {
	switch k {
	case quintic:
		T2 := T * T
		T3 := T2 * T
		d := p1 - p0
		c3 := (20*d - (8*v1+12*v0)*T - (3*a0-a1)*T2) / (2 * T3)
		c4 := (-30*d + (14*v1+16*v0)*T + (3*a0-2*a1)*T2) / (2 * T3 * T)
		c5 := (12*d - 6*(v1+v0)*T - (a0-a1)*T2) / (2 * T3 * T2)
		c2 := a0 / 2
		p = p0 + s*(v0+s*(c2+s*(c3+s*(c4+s*c5))))
		v = v0 + s*(2*c2+s*(3*c3+s*(4*c4+s*5*c5)))
		a = 2*c2 + s*(6*c3+s*(12*c4+s*20*c5))
	case cubic:
		d := p1 - p0
		c2 := (3*d - (2*v0+v1)*T) / (T * T)
		c3 := (-2*d + (v0+v1)*T) / (T * T * T)
		p = p0 + s*(v0+s*(c2+s*c3))
		v = v0 + s*(2*c2+s*3*c3)
		a = 2*c2 + s*6*c3
	default:
		v = (p1 - p0) / T
		p = p0 + v*s
	}
	return p, v, a
}
