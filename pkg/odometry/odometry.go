package odometry

import (
	"errors"
	"fmt"
	"math"
	"time"
)

// ErrNotFinite is returned by Update for a NaN or infinite twist; the state
// is left unchanged.
var ErrNotFinite = errors.New("odometry: twist is not finite")

// Config configures an Odometry.
type Config struct {
	// PoseCovariance is the diagonal of the pose covariance, in the order
	// of nav_msgs/Odometry: x, y, z [m^2], roll, pitch, yaw [rad^2].
	// Optional, defaults to DefaultPoseCovariance.
	PoseCovariance *[6]float64
	// TwistCovariance is the diagonal of the twist covariance: vx, vy, vz
	// [(m/s)^2], wx, wy, wz [(rad/s)^2]. Optional, defaults to
	// DefaultTwistCovariance.
	TwistCovariance *[6]float64
	// MaxGap is the longest interval between updates that is integrated
	// [s]; after a longer gap (a lost link) the pose is held and integration
	// resumes from the next update. Optional, defaults to 1 s.
	MaxGap time.Duration
}

// DefaultPoseCovariance is used when Config.PoseCovariance is nil: 1 cm^2
// in x and y, 0.01 rad^2 in yaw, and a huge value for the three dimensions a
// planar vehicle does not measure (z, roll, pitch), as REP 105 users expect.
var DefaultPoseCovariance = [6]float64{1e-4, 1e-4, 1e6, 1e6, 1e6, 1e-2}

// DefaultTwistCovariance is used when Config.TwistCovariance is nil.
var DefaultTwistCovariance = [6]float64{1e-4, 1e6, 1e6, 1e6, 1e6, 1e-2}

// State is the odometry at one instant, shaped like nav_msgs/Odometry with
// header.frame_id = odom and child_frame_id = base_link.
type State struct {
	Stamp time.Time // when the latest update was taken
	Pose  Pose2D    // base_link in odom
	Twist Twist2D   // the latest twist, in base_link
	// Distance is the path length travelled [m], always >= 0.
	Distance float64
	// PoseCovariance and TwistCovariance are 6x6 row-major matrices in
	// the order x, y, z, roll, pitch, yaw, like the message fields.
	PoseCovariance  [36]float64
	TwistCovariance [36]float64
}

// Odometry accumulates twists into a pose. It is not safe for concurrent
// use: one loop owns it and hands out State copies.
type Odometry struct {
	poseCov, twistCov [36]float64
	maxGap            time.Duration
	st                State
	started           bool
}

// New returns an Odometry at the origin of odom.
func New(cfg Config) (*Odometry, error) {
	pc, tc := DefaultPoseCovariance, DefaultTwistCovariance
	if cfg.PoseCovariance != nil {
		pc = *cfg.PoseCovariance
	}
	if cfg.TwistCovariance != nil {
		tc = *cfg.TwistCovariance
	}
	for i := range 6 {
		if !(pc[i] >= 0) || math.IsInf(pc[i], 0) || !(tc[i] >= 0) || math.IsInf(tc[i], 0) {
			return nil, fmt.Errorf("odometry: covariance diagonal must be finite and >= 0 (pose %v, twist %v)", pc, tc)
		}
	}
	if cfg.MaxGap < 0 {
		return nil, fmt.Errorf("odometry: MaxGap %v is negative", cfg.MaxGap)
	}
	if cfg.MaxGap == 0 {
		cfg.MaxGap = time.Second
	}
	o := &Odometry{maxGap: cfg.MaxGap}
	for i := range 6 {
		o.poseCov[i*7] = pc[i]
		o.twistCov[i*7] = tc[i]
	}
	o.st.PoseCovariance, o.st.TwistCovariance = o.poseCov, o.twistCov
	return o, nil
}

// Update integrates t over the interval since the previous update, which
// ends at now: t must be the velocity that held during that interval (for
// dead reckoning, the command that was in force; for wheel encoders, the
// measured speed). The first update only sets the time. An interval that is
// not positive, or longer than MaxGap, moves nothing. A NaN or infinite
// twist returns ErrNotFinite and changes nothing.
func (o *Odometry) Update(t Twist2D, now time.Time) error {
	if !t.Finite() {
		return fmt.Errorf("%w: v=%v w=%v", ErrNotFinite, t.V, t.W)
	}
	if o.started {
		if gap := now.Sub(o.st.Stamp); gap > 0 && gap <= o.maxGap {
			dt := gap.Seconds()
			o.st.Pose = Integrate(o.st.Pose, t, dt)
			o.st.Distance += math.Abs(t.V) * dt
		} else if gap <= 0 {
			return nil // out of order or repeated: keep the later stamp
		}
	}
	o.started = true
	o.st.Stamp = now
	o.st.Twist = t
	return nil
}

// State returns a copy of the current odometry.
func (o *Odometry) State() State { return o.st }

// Reset moves base_link to p in odom and clears the distance; the next
// update starts a new interval.
func (o *Odometry) Reset(p Pose2D) {
	o.st = State{Pose: Pose2D{X: p.X, Y: p.Y, Yaw: NormalizeAngle(p.Yaw)}, PoseCovariance: o.poseCov, TwistCovariance: o.twistCov}
	o.started = false
}
