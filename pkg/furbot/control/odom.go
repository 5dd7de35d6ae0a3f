package control

import (
	"fmt"
	"math"
	"time"

	"github.com/telebridge/telebridge/pkg/furbot/wire"
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

// OdometryBindings is the table of OdometryConfig: name, default, unit,
// range and whether it may change while running.
var OdometryBindings = []Binding[oc]{
	Integer("odom_source", float64(OdomWheels), "-", 1, 2, "1: rear wheel speeds, 2: speed and steering angle (bicycle)", func(c *oc) *int { return &c.Source }).RO(),
	Double("track", 1.2, "m", 0.3, 5, "rear wheel track", func(c *oc) *float64 { return &c.Track }).RO(),
	Double("wheel_radius", 0.3, "m", 0.05, 2, "rear wheel radius", func(c *oc) *float64 { return &c.WheelRadius }).RO(),
	Double("odom_wheelbase", 2.0, "m", 0.5, 10, "wheelbase for the bicycle odometry", func(c *oc) *float64 { return &c.Wheelbase }).RO(),
	Double("pose_covariance_xy", 1e-4, "m^2", 0, 1e6, "pose covariance in x and y", func(c *oc) *float64 { return &c.PoseCovXY }),
	Double("pose_covariance_yaw", 1e-2, "rad^2", 0, 1e6, "pose covariance in yaw", func(c *oc) *float64 { return &c.PoseCovYaw }),
	Double("twist_covariance_v", 1e-4, "(m/s)^2", 0, 1e6, "forward speed covariance", func(c *oc) *float64 { return &c.TwistCovV }),
	Double("twist_covariance_w", 1e-2, "(rad/s)^2", 0, 1e6, "yaw rate covariance", func(c *oc) *float64 { return &c.TwistCovW }),
	Seconds("odom_max_gap", 0.5, 0.02, 10, "longest gap between status frames that is integrated", func(c *oc) *time.Duration { return &c.MaxGap }).RO(),
}

// OdometryParams returns the parameter table of OdometryConfig.
func OdometryParams() []Param { return Params(OdometryBindings) }

// Odometer integrates status frames into odometry in the odom frame
// (REP 103/105; base_link in the middle of the rear axle). It is not safe
// for concurrent use: the bridge's receive goroutine owns it.
type Odometer struct {
	cfg    OdometryConfig
	odo    *odometry.Odometry
	epoch  time.Time
	prev   odometry.Twist2D // twist of the previous usable frame
	have   bool
	lastMs uint64 // vehicle time of the previous usable frame [ms]
	count  int32  // traction odometer of the previous usable frame [cm]
	gaps   GapStats
}

// GapStats count what the odometry did across gaps longer than MaxGap.
type GapStats struct {
	// Bridged gaps were covered with the traction odometer's delta.
	Bridged uint64
	// Held gaps moved nothing: no odometer reference (first frame, or a
	// vehicle restart), the odometer went back (reset), or its delta was
	// more than the vehicle can travel in the gap.
	Held uint64
	// Implausible counts the held gaps whose odometer delta was too large.
	Implausible uint64
}

// maxGapAccel bounds the acceleration assumed across a gap [m/s²], for
// the plausibility of the odometer's delta (the simulated vehicle brakes
// at 6 m/s² and accelerates at 2 m/s²).
const maxGapAccel = 8.0

// gapSlack is the odometer delta always allowed across a gap [m]
// (quantisation of 1 cm, rounding of the vehicle clock).
const gapSlack = 0.05

// NewOdometer validates cfg, fills its defaults and starts at the origin.
func NewOdometer(cfg OdometryConfig) (*Odometer, error) {
	if err := ApplyParams(OdometryBindings, &cfg); err != nil {
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
func (o *Odometer) Twist(s *wire.Status) odometry.Twist2D {
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
//
// An interval longer than MaxGap (a status blackout) is not integrated
// from the twists, which say nothing about the gap: the traction
// odometer's delta gives the distance (wrap-around at 2^31 or 2^32 cm
// handled), travelled on the curvature measured at the gap's ends (the
// vehicle holds its steering while the link is down) in the direction of
// travel at its ends. Without a reference, after a reset (the odometer
// went back) or with a delta the vehicle cannot have travelled, the pose
// is held (GapStats).
func (o *Odometer) Update(s *wire.Status, vehicleMs uint64, at time.Time) odometry.State {
	if s.Has(wire.BlockTraction) && (o.cfg.Source != OdomBicycle || s.Has(wire.BlockSteering)) {
		tw := o.Twist(s)
		end := o.epoch.Add(time.Duration(vehicleMs) * time.Millisecond)
		if o.have && vehicleMs > o.lastMs && time.Duration(vehicleMs-o.lastMs)*time.Millisecond > o.cfg.MaxGap {
			o.bridge(s, tw, vehicleMs)
		} else {
			mean := tw
			if o.have {
				mean = odometry.Twist2D{V: (o.prev.V + tw.V) / 2, W: (o.prev.W + tw.W) / 2}
			}
			// Integer inputs always give a finite twist, so Update cannot fail.
			_ = o.odo.Update(mean, end)
		}
		o.prev, o.have = tw, true
		o.lastMs, o.count = vehicleMs, s.Traction.Odometer
	}
	st := o.odo.State()
	st.Stamp = at
	st.Twist = o.prev // the latest measurement, not the interval's mean
	return st
}

// bridge covers the gap from o.lastMs to vehicleMs with the odometer.
func (o *Odometer) bridge(s *wire.Status, tw odometry.Twist2D, vehicleMs uint64) {
	gap := time.Duration(vehicleMs-o.lastMs) * time.Millisecond
	start := o.epoch.Add(time.Duration(o.lastMs) * time.Millisecond)
	counts, ok := OdometerDelta(o.count, s.Traction.Odometer)
	dt := gap.Seconds()
	dist := float64(counts) * wire.OdometerScale
	vmax := math.Max(math.Abs(o.prev.V), math.Abs(tw.V))
	switch {
	case !ok:
		o.gaps.Held++
	case dist > vmax*dt+maxGapAccel*dt*dt/2+gapSlack:
		o.gaps.Held++
		o.gaps.Implausible++
	default:
		o.gaps.Bridged++
		sign := 1.0
		if o.prev.V+tw.V < 0 || (o.prev.V+tw.V == 0 && s.Traction.Reverse != 0) {
			sign = -1
		}
		// Curvature [1/m]: mean over the ends that move.
		var k float64
		n := 0
		for _, t := range [2]odometry.Twist2D{o.prev, tw} {
			if math.Abs(t.V) > 0.05 {
				k += t.W / t.V
				n++
			}
		}
		if n > 0 {
			k /= float64(n)
		}
		v := sign * dist / dt
		arc := odometry.Twist2D{V: v, W: k * v}
		// odometry.Update integrates at most MaxGap at once: cover the gap
		// in equal steps no longer than that (the arc is the same).
		steps := int64(gap/o.cfg.MaxGap) + 2
		for i := int64(1); i <= steps; i++ {
			_ = o.odo.Update(arc, start.Add(time.Duration(int64(gap)*i/steps)))
		}
		return
	}
	_ = o.odo.Update(tw, start.Add(gap)) // longer than MaxGap: moves nothing, restamps
}

// OdometerDelta returns how far the traction odometer advanced from prev
// to cur [counts of 1 cm], across a wrap-around at 2^31 (a 31-bit counter)
// or 2^32 (an int32 that overflows). ok is false when it went back: the
// odometer was reset (vehicle restart) and the delta is unknown.
func OdometerDelta(prev, cur int32) (delta int64, ok bool) {
	const wrapWindow = 1 << 29 // a wrap is a jump from near the top to near 0
	d := int64(cur) - int64(prev)
	switch {
	case d >= 0:
		return d, true
	case d+1<<31 >= 0 && d+1<<31 < wrapWindow:
		return d + 1<<31, true
	case d+1<<32 >= 0 && d+1<<32 < wrapWindow:
		return d + 1<<32, true
	}
	return 0, false
}

// GapStats returns the gap counters.
func (o *Odometer) GapStats() GapStats { return o.gaps }

// Forget drops the odometer reference (the vehicle restarted): the next
// gap is held instead of bridged.
func (o *Odometer) Forget() { o.have = false }

// Reset moves base_link back to p in odom.
func (o *Odometer) Reset(p odometry.Pose2D) {
	o.odo.Reset(p)
	o.have = false
}
