package servosila

import "math"

// Convert turns an SI command into protocol channel values: it limits the
// chassis twist keeping its curvature, applies the minimum start velocity
// (Config.Chassis), clamps each joint velocity to its maximum, scales by
// the calibration and saturates to the axis range. c must come from
// Config.WithDefaults. It allocates nothing and may be called concurrently.
func (c *Config) Convert(cmd *Command) Channels {
	cal := c.Calibration
	var ch Channels
	v, w := c.Chassis(cmd.Linear, cmd.Angular)
	ch.Linear = Saturate(v, cal.Linear)
	ch.Angular = Saturate(w, cal.Angular)
	for j, v := range cmd.Joints {
		ch.Joints[j] = Saturate(clamp(v, c.MaxJoint[j]), cal.Joints[j])
	}
	ch.Headlight = cmd.Headlight
	return ch
}

// Chassis applies the chassis limits to a twist (v [m/s], w [rad/s]) and
// returns the twist to send. Both steps scale v and w by one factor, so
// the commanded curvature w/v (the turning radius) is kept:
//
//  1. Limits: if |v| > MaxLinear, v and w are scaled by MaxLinear/|v|;
//     then if |w| > MaxAngular, both are scaled by MaxAngular/|w|
//     (0.5 m/s, 0.25 rad/s becomes 0.45 m/s, 0.225 rad/s: radius 2 m).
//  2. Minimum start velocity m = MinStartVelocity (the seed's 0.2, in m/s
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
func (c *Config) Chassis(v, w float64) (float64, float64) {
	if av := math.Abs(v); c.MaxLinear > 0 && av > c.MaxLinear {
		k := c.MaxLinear / av
		v, w = math.Copysign(c.MaxLinear, v), w*k
	}
	if aw := math.Abs(w); c.MaxAngular > 0 && aw > c.MaxAngular {
		k := c.MaxAngular / aw
		v, w = v*k, math.Copysign(c.MaxAngular, w)
	}
	m := c.MinStartVelocity
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

// Velocities converts protocol channel values back to SI: the velocities
// the robot executes for them (what dead reckoning integrates).
func (cal *Calibration) Velocities(ch *Channels) Command {
	cmd := Command{
		Linear:    float64(ch.Linear) / cal.Linear,
		Angular:   float64(ch.Angular) / cal.Angular,
		Headlight: ch.Headlight,
	}
	for j, u := range ch.Joints {
		cmd.Joints[j] = float64(u) / cal.Joints[j]
	}
	return cmd
}
