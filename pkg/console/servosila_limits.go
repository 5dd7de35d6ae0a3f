package console

import (
	"github.com/telebridge/telebridge/pkg/servosila"
	"github.com/telebridge/telebridge/pkg/servosila/control"
	servosilawire "github.com/telebridge/telebridge/pkg/servosila/wire"
)

// SetServosilaLimits fills in what a Servosila driver with configuration
// c (after WithDefaults) executes differently from what it is asked. It
// is the one place the console reads them, through the driver's exported
// API; the direct and the ROS backends both call it:
//
//   - the chassis start speed (Config.MinStartVelocity) and the half
//     track of the calibration's mixing: a track asked to move below its
//     start is raised to it or stopped (Config.ChassisLimits, Apply);
//   - the gripper's one speed: Convert then Mapping.Encode turn any
//     non-zero gripper velocity into the open or close button, which the
//     robot executes at full scale (Mapping.Decode,
//     Calibration.Velocities); found by sending a small velocity through
//     the driver's own conversion and reading the packet back;
//   - the e-stop interval: one packet per 1/MaxSendRate.
//
// The other joints pass their velocity through (rounded to
// 1/Calibration.Joints rad/s, the protocol's resolution: 15 µrad/s by
// default).
func SetServosilaLimits(in *Info, c servosila.Config) {
	in.ServosilaStartSpeed = max(c.MinStartVelocity, 0)
	in.ServosilaHalfTrack = c.ChassisLimits().HalfTrack
	in.ServosilaGripperSpeed = 0
	// A button-driven gripper answers a small velocity with its full one.
	if g := executedGripper(c, 0.01); g > 0.01*1.01 {
		in.ServosilaGripperSpeed = g
	}
	if c.MaxSendRate > 0 {
		in.EStopInterval = 1 / c.MaxSendRate
	}
}

// executedGripper returns the gripper velocity [rad/s] the robot executes
// when the driver is asked for v [rad/s]: the packet the driver would
// send, read back as the robot reads it.
func executedGripper(c servosila.Config, v float64) float64 {
	if c.Mapping == nil || c.Calibration == nil {
		return 0
	}
	var cmd servosilawire.Command
	cmd.Joints[servosilawire.Gripper] = v
	ch := c.Convert(&cmd)
	var rc servosilawire.RemoteControl
	c.Mapping.Encode(&rc, &ch)
	var out servosilawire.Channels
	c.Mapping.Decode(&out, &rc)
	return c.Calibration.Velocities(&out).Joints[servosilawire.Gripper]
}

// servosilaChassis returns the driver's chassis rule as the console knows
// it from in: the driver's limits [m/s, rad/s], the start speed and the
// half track.
func servosilaChassis(in Info) control.ChassisLimits {
	return control.ChassisLimits{MaxLinear: in.ServosilaMaxLinear, MaxAngular: in.ServosilaMaxAngular,
		MinStart: in.ServosilaStartSpeed, HalfTrack: in.ServosilaHalfTrack}
}
