package control

import "math"

// AckermannAngles returns the road-wheel angles of the left and right
// front wheels [rad, positive left] that turn about the same centre as a
// virtual wheel at steering angle delta [rad] in the middle of the front
// axle (the bicycle model the controller and the odometry use), for the
// wheelbase and front track [m]. The inner wheel turns more than delta,
// the outer one less; delta 0 gives 0, 0.
func AckermannAngles(delta, wheelbase, track float64) (left, right float64) {
	t := math.Tan(delta)
	// A wheel at lateral offset y points at the turning centre
	// (0, wheelbase / t) from (wheelbase, y).
	left = math.Atan2(wheelbase*t, wheelbase-track/2*t)
	right = math.Atan2(wheelbase*t, wheelbase+track/2*t)
	return left, right
}

// FrontSpeedRatio returns the rolling speed of the front wheel at lateral
// offset y [m] (left positive) over the speed of the middle of the rear
// axle, for a virtual steering angle delta [rad] and the wheelbase [m]:
// the ratio of their distances from the turning centre.
func FrontSpeedRatio(delta, wheelbase, y float64) float64 {
	t := math.Tan(delta)
	return math.Hypot(wheelbase*t, wheelbase-y*t) / wheelbase
}
