package node

import (
	"fmt"
	"time"

	"github.com/telebridge/telebridge/pkg/furbot"
	"github.com/telebridge/telebridge/pkg/furbot/control"
	"github.com/telebridge/telebridge/pkg/furbot/wire"
	"github.com/telebridge/telebridge/pkg/odometry"
	"github.com/telebridge/telebridge/pkg/rosparam"
)

// OdomNodeConfig configures the furbot_odometry ROS 2 node and its core,
// OdomTracker.
type OdomNodeConfig struct {
	// Odometry configures the integration (source, geometry, covariance).
	Odometry control.OdometryConfig
	// OdomFrame and BaseFrame name the odometry frames (REP 105): the
	// header.frame_id and child_frame_id of odom and of the tf. Defaults
	// "odom" and "base_link".
	OdomFrame, BaseFrame string
	// PublishTF broadcasts odom -> base_link on /tf with every odom.
	// Default true; turn it off when a localisation filter owns it.
	PublishTF bool
}

// DefaultOdomNodeConfig returns the odometry node's defaults.
func DefaultOdomNodeConfig() OdomNodeConfig {
	c := OdomNodeConfig{OdomFrame: FrameOdom, BaseFrame: FrameBase, PublishTF: true}
	_ = control.ApplyParams(control.OdometryBindings, &c.Odometry) // the defaults are within their ranges
	return c
}

// OdomNodeBindings is the odometry node's parameter table: frames, then
// the odometry's rows. All are read-only: the odometer and the publishers
// are made once with them.
func OdomNodeBindings() rosparam.Bindings[OdomNodeConfig] {
	ro := rosparam.ReadOnly()
	b := rosparam.Bindings[OdomNodeConfig]{
		rosparam.BindString("odom_frame", "fixed frame of the odometry (header.frame_id of odom and tf)", func(c *OdomNodeConfig) *string { return &c.OdomFrame }, ro),
		rosparam.BindString("base_frame", "vehicle frame, middle of the rear axle (child_frame_id)", func(c *OdomNodeConfig) *string { return &c.BaseFrame }, ro),
		rosparam.BindBool("publish_tf", "broadcast odom -> base_link on /tf", func(c *OdomNodeConfig) *bool { return &c.PublishTF }, ro),
	}
	return appendBindings(b, control.OdometryBindings, func(c *OdomNodeConfig) *control.OdometryConfig { return &c.Odometry }, true)
}

// OdomNodeParameterTable returns the odometry node's declarations with
// their defaults.
func OdomNodeParameterTable() rosparam.Table {
	return OdomNodeBindings().Table(DefaultOdomNodeConfig())
}

// LoadOdomNodeConfig builds the odometry node's configuration from its
// start-up parameters and checks it.
func LoadOdomNodeConfig(s *rosparam.Store) (OdomNodeConfig, error) {
	return loadNodeConfig(OdometryName, OdomNodeBindings(), DefaultOdomNodeConfig(), s, func(c *OdomNodeConfig) error {
		if c.OdomFrame == "" || c.BaseFrame == "" || c.OdomFrame == c.BaseFrame {
			return fmt.Errorf("%w: frames %q -> %q", control.ErrConfig, c.OdomFrame, c.BaseFrame)
		}
		return control.ApplyParams(control.OdometryBindings, &c.Odometry)
	})
}

// OdomStats are the odometry node's counters.
type OdomStats struct {
	Used    uint64 // traction samples integrated
	Old     uint64 // dropped: vehicle time not newer (repeats at the publish rate)
	Resyncs uint64 // vehicle clock restarts followed
	Gaps    uint64 // intervals longer than MaxGap (pose held)
}

// OdomTracker is the core of furbot_odometry: it integrates the traction
// samples the bridge publishes (TractionData), on the vehicle's clock, so
// that samples repeated by the bridge's publishing loop (it publishes the
// latest status every period, and a status frame can be seen twice or
// skipped) are integrated once and network delays do not enter. For the
// bicycle source it uses the latest steering sample. It is not safe for
// concurrent use: the node serialises its callbacks.
type OdomTracker struct {
	odo   *control.Odometer
	clock furbot.VehicleClock
	frame wire.Status
	stats OdomStats
}

// NewOdomTracker validates cfg and starts at the origin of odom.
func NewOdomTracker(cfg control.OdometryConfig) (*OdomTracker, error) {
	odo, err := control.NewOdometer(cfg)
	if err != nil {
		return nil, err
	}
	return &OdomTracker{odo: odo, clock: furbot.NewVehicleClock(odo.Config().MaxGap)}, nil
}

// Config returns the odometry configuration in use, defaults filled.
func (o *OdomTracker) Config() control.OdometryConfig { return o.odo.Config() }

// Steering stores the latest steering block (SteeringData), used by the
// bicycle source from the next traction sample on.
func (o *OdomTracker) Steering(s wire.Steering) {
	o.frame.Steering = s
	o.frame.Present |= 1 << wire.BlockSteering
}

// Traction integrates one traction sample taken at vehicleMs (the status
// frame's timestamp [ms], TractionData.vehicle_time) and received at, and
// returns the odometry stamped at. ok is false for a sample that is not
// newer than the latest (nothing to publish).
func (o *OdomTracker) Traction(tr wire.Traction, vehicleMs uint32, at time.Time) (st odometry.State, ok bool) {
	ms, v := o.clock.Next(vehicleMs)
	switch {
	case v.Old:
		o.stats.Old++
		return odometry.State{}, false
	case v.Resync:
		o.stats.Resyncs++
		o.odo.Forget()
	}
	if v.Gap {
		o.stats.Gaps++
	}
	o.frame.Traction = tr
	o.frame.Present |= 1 << wire.BlockTraction
	o.frame.Timestamp = vehicleMs
	o.stats.Used++
	return o.odo.Update(&o.frame, ms, at), true
}

// Stats returns the counters.
func (o *OdomTracker) Stats() OdomStats { return o.stats }
