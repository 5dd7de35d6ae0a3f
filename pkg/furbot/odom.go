package furbot

import (
	"fmt"
	"time"

	"github.com/telebridge/telebridge/pkg/odometry"
)

// OdomSource selects what the odometry integrates.
type OdomSource = int

// Odometry sources.
const (
	// OdomWheels uses the rear wheel speeds: v is their mean, omega their
	// difference over the track (default).
	OdomWheels OdomSource = 1
	// OdomBicycle uses the traction speed and the measured steering angle:
	// omega = v·tan(steer)/wheelbase.
	OdomBicycle OdomSource = 2
)

// OdometryConfig configures the Furbot odometry. Zero fields take the
// defaults shown; OdometryParams lists the same table as data.
type OdometryConfig struct {
	// Source is OdomWheels (default) or OdomBicycle.
	Source OdomSource
	// Track is the distance between the rear wheels [m], default 1.2.
	Track float64
	// WheelRadius is the rear wheel radius [m], default 0.3.
	WheelRadius float64
	// Wheelbase is the distance between the axles, for OdomBicycle [m],
	// default 2.0.
	Wheelbase float64
	// PoseCovXY is the pose covariance in x and y [m²], default 1e-4.
	PoseCovXY float64
	// PoseCovYaw is the pose covariance in yaw [rad²], default 1e-2.
	PoseCovYaw float64
	// TwistCovV is the covariance of the forward speed [(m/s)²], default
	// 1e-4.
	TwistCovV float64
	// TwistCovW is the covariance of the yaw rate [(rad/s)²], default 1e-2.
	TwistCovW float64
	// MaxGap is the longest gap between status frames that is integrated;
	// after a longer one the pose is held [s], default 0.5 s.
	MaxGap time.Duration
}

type oc = OdometryConfig

var odometryParams = []binding[oc]{
	integer("odom_source", float64(OdomWheels), "-", 1, 2, "1: rear wheel speeds, 2: speed and steering angle (bicycle)", func(c *oc) *int { return &c.Source }).ro(),
	dbl("track", 1.2, "m", 0.3, 5, "rear wheel track", func(c *oc) *float64 { return &c.Track }).ro(),
	dbl("wheel_radius", 0.3, "m", 0.05, 2, "rear wheel radius", func(c *oc) *float64 { return &c.WheelRadius }).ro(),
	dbl("odom_wheelbase", 2.0, "m", 0.5, 10, "wheelbase for the bicycle odometry", func(c *oc) *float64 { return &c.Wheelbase }).ro(),
	dbl("pose_covariance_xy", 1e-4, "m^2", 0, 1e6, "pose covariance in x and y", func(c *oc) *float64 { return &c.PoseCovXY }),
	dbl("pose_covariance_yaw", 1e-2, "rad^2", 0, 1e6, "pose covariance in yaw", func(c *oc) *float64 { return &c.PoseCovYaw }),
	dbl("twist_covariance_v", 1e-4, "(m/s)^2", 0, 1e6, "forward speed covariance", func(c *oc) *float64 { return &c.TwistCovV }),
	dbl("twist_covariance_w", 1e-2, "(rad/s)^2", 0, 1e6, "yaw rate covariance", func(c *oc) *float64 { return &c.TwistCovW }),
	dur("odom_max_gap", 0.5, 0.02, 10, "longest gap between status frames that is integrated", func(c *oc) *time.Duration { return &c.MaxGap }).ro(),
}

// OdometryParams returns the parameter table of OdometryConfig.
func OdometryParams() []Param { return params(odometryParams) }

// Odometer integrates status frames into odometry in the odom frame
// (REP 103/105; base_link in the middle of the rear axle). It is not safe
// for concurrent use: the bridge's receive goroutine owns it.
type Odometer struct {
	cfg   OdometryConfig
	odo   *odometry.Odometry
	epoch time.Time
	prev  odometry.Twist2D // twist of the previous usable frame
	have  bool
}

// NewOdometer validates cfg, fills its defaults and starts at the origin.
func NewOdometer(cfg OdometryConfig) (*Odometer, error) {
	if err := applyParams(odometryParams, &cfg); err != nil {
		return nil, fmt.Errorf("furbot: odometry: %w", err)
	}
	big := 1e6
	pose := [6]float64{cfg.PoseCovXY, cfg.PoseCovXY, big, big, big, cfg.PoseCovYaw}
	twist := [6]float64{cfg.TwistCovV, big, big, big, big, cfg.TwistCovW}
	odo, err := odometry.New(odometry.Config{PoseCovariance: &pose, TwistCovariance: &twist, MaxGap: cfg.MaxGap})
	if err != nil {
		return nil, fmt.Errorf("furbot: odometry: %w", err)
	}
	return &Odometer{cfg: cfg, odo: odo, epoch: time.Unix(0, 0)}, nil
}

// Config returns the configuration in use, defaults filled.
func (o *Odometer) Config() OdometryConfig { return o.cfg }

// Twist returns the body twist measured in s: from the rear wheel speeds
// or, for OdomBicycle, from the traction speed and steering angle.
func (o *Odometer) Twist(s *Status) odometry.Twist2D {
	if o.cfg.Source == OdomBicycle {
		return odometry.FromBicycle(s.Traction.SpeedMPS(), s.Steering.AngleRad(), o.cfg.Wheelbase)
	}
	l, r := s.Traction.WheelRates()
	return odometry.FromWheels(l*o.cfg.WheelRadius, r*o.cfg.WheelRadius, o.cfg.Track)
}

// Update integrates the motion up to vehicleMs, the vehicle's clock
// unwrapped to 64 bits [ms]; intervals come from the vehicle clock, not
// from arrival times, so network jitter does not enter the odometry. Over
// each interval it uses the mean of the twists measured at its two ends
// (trapezoidal rule: exact in distance for a constant acceleration, so a
// late or stalled sender costs no accuracy). at is when the frame arrived;
// it becomes the stamp of the returned state. A frame without the traction
// block (or, for OdomBicycle, the steering block) is skipped: the next
// usable frame covers its interval.
func (o *Odometer) Update(s *Status, vehicleMs uint64, at time.Time) odometry.State {
	if s.Has(BlockTraction) && (o.cfg.Source != OdomBicycle || s.Has(BlockSteering)) {
		tw := o.Twist(s)
		mean := tw
		if o.have {
			mean = odometry.Twist2D{V: (o.prev.V + tw.V) / 2, W: (o.prev.W + tw.W) / 2}
		}
		// Integer inputs always give a finite twist, so Update cannot fail.
		_ = o.odo.Update(mean, o.epoch.Add(time.Duration(vehicleMs)*time.Millisecond))
		o.prev, o.have = tw, true
	}
	st := o.odo.State()
	st.Stamp = at
	st.Twist = o.prev // the latest measurement, not the interval's mean
	return st
}

// Reset moves base_link back to p in odom.
func (o *Odometer) Reset(p odometry.Pose2D) {
	o.odo.Reset(p)
	o.have = false
}
