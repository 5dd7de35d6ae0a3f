package servosila

// Convert turns an SI command into protocol channel values: it clamps each
// velocity to its configured maximum, applies the minimum start velocity to
// the chassis (keeping the sign), scales by the calibration and saturates
// to the axis range. c must come from Config.WithDefaults. It allocates
// nothing and may be called concurrently.
func (c *Config) Convert(cmd *Command) Channels {
	cal := c.Calibration
	var ch Channels
	ch.Linear = Saturate(MinStart(clamp(cmd.Linear, c.MaxLinear), c.MinStartVelocity), cal.Linear)
	ch.Angular = Saturate(MinStart(clamp(cmd.Angular, c.MaxAngular), c.MinStartVelocity), cal.Angular)
	for j, v := range cmd.Joints {
		ch.Joints[j] = Saturate(clamp(v, c.MaxJoint[j]), cal.Joints[j])
	}
	ch.Headlight = cmd.Headlight
	return ch
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
