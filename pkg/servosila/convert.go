package servosila

import (
	"github.com/telebridge/telebridge/pkg/servosila/control"
	"github.com/telebridge/telebridge/pkg/servosila/wire"
)

// Convert turns an SI command into protocol channel values: it limits the
// chassis twist keeping its curvature and applies the minimum start
// velocity (control.ChassisLimits.Apply), clamps each joint velocity to
// its maximum, scales by the calibration and saturates to the axis range.
// c must come from Config.WithDefaults. It allocates nothing and may be
// called concurrently.
func (c *Config) Convert(cmd *wire.Command) wire.Channels {
	cal := c.Calibration
	var ch wire.Channels
	v, w := c.ChassisLimits().Apply(cmd.Linear, cmd.Angular)
	ch.Linear = wire.Saturate(v, cal.Linear)
	ch.Angular = wire.Saturate(w, cal.Angular)
	for j, v := range cmd.Joints {
		ch.Joints[j] = wire.Saturate(control.Clamp(v, c.MaxJoint[j]), cal.Joints[j])
	}
	ch.Headlight = cmd.Headlight
	return ch
}

// ChassisLimits returns the chassis limits of c: MaxLinear [m/s],
// MaxAngular [rad/s], MinStartVelocity [m/s, rad/s] and the half track
// [m/s per rad/s] of the calibration's mixing (Calibration.Angular /
// Calibration.Linear; 0 without a calibration).
func (c *Config) ChassisLimits() control.ChassisLimits {
	l := control.ChassisLimits{MaxLinear: c.MaxLinear, MaxAngular: c.MaxAngular, MinStart: c.MinStartVelocity}
	if cal := c.Calibration; cal != nil && cal.Linear > 0 {
		l.HalfTrack = cal.Angular / cal.Linear
	}
	return l
}
