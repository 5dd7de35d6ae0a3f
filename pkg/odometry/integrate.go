package odometry

import "math"

// Pose2D is the pose of base_link in the odom frame.
type Pose2D struct {
	X   float64 // [m] along odom x
	Y   float64 // [m] along odom y
	Yaw float64 // [rad] heading, counter-clockwise from odom x, in (-pi, pi]
}

// Twist2D is a body velocity expressed in base_link.
type Twist2D struct {
	V float64 // [m/s] forward speed along base_link x
	W float64 // [rad/s] yaw rate about base_link z
}

// Finite reports whether both components are finite numbers.
func (t Twist2D) Finite() bool {
	return !math.IsNaN(t.V) && !math.IsInf(t.V, 0) && !math.IsNaN(t.W) && !math.IsInf(t.W, 0)
}

// smallYawRate is the yaw rate [rad/s] below which the arc formula loses
// precision (it divides by w) and a second-order straight step is used.
const smallYawRate = 1e-6

// Integrate returns the pose reached from p after moving at the constant
// twist t for dt seconds. For w != 0 the motion is the exact circular arc
// of radius v/w; for a vanishing w it is the straight line along the mean
// heading.
func Integrate(p Pose2D, t Twist2D, dt float64) Pose2D {
	dYaw := t.W * dt
	if math.Abs(t.W) < smallYawRate {
		mid := p.Yaw + dYaw/2
		d := t.V * dt
		return Pose2D{X: p.X + d*math.Cos(mid), Y: p.Y + d*math.Sin(mid), Yaw: NormalizeAngle(p.Yaw + dYaw)}
	}
	r := t.V / t.W
	yaw1 := p.Yaw + dYaw
	return Pose2D{
		X:   p.X + r*(math.Sin(yaw1)-math.Sin(p.Yaw)),
		Y:   p.Y - r*(math.Cos(yaw1)-math.Cos(p.Yaw)),
		Yaw: NormalizeAngle(yaw1),
	}
}

// NormalizeAngle maps an angle [rad] into (-pi, pi].
func NormalizeAngle(a float64) float64 {
	a = math.Remainder(a, 2*math.Pi)
	if a <= -math.Pi {
		a += 2 * math.Pi
	}
	return a
}

// FromWheels returns the twist of a vehicle whose left and right wheels on
// one axle move at left and right [m/s], track [m] apart: v is their mean,
// w their difference over the track. base_link is assumed at the middle of
// that axle.
func FromWheels(left, right, track float64) Twist2D {
	return Twist2D{V: (left + right) / 2, W: (right - left) / track}
}

// FromBicycle returns the twist of a car-like vehicle with base_link at the
// middle of the rear axle, moving at v [m/s] with front steering angle steer
// [rad, positive left] and wheelbase [m].
func FromBicycle(v, steer, wheelbase float64) Twist2D {
	return Twist2D{V: v, W: v * math.Tan(steer) / wheelbase}
}

// Quaternion returns the orientation of p as a unit quaternion about z
// (x, y, z, w), as nav_msgs/Odometry and tf want it.
func (p Pose2D) Quaternion() (x, y, z, w float64) {
	s, c := math.Sincos(p.Yaw / 2)
	return 0, 0, s, c
}
