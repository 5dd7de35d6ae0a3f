// Package laser is the simulated 2-D laser scanner of the Servosila
// Engineer: rays cast in the sensor's XY plane against a raycast.Scene,
// returned as a Scan whose fields are those of sensor_msgs/LaserScan.
//
// The default Config is the Hokuyo UTM-30LX-EW of seed 000: 270 degrees
// in 0.25 degree steps (1081 rays, counter-clockwise from -135 degrees,
// 0 along the sensor's +X), 40 Hz, 0.1-30 m. Ranges follow REP 117: a ray
// with no return within RangeMax reads +Inf, one that hits closer than
// RangeMin reads -Inf. Config.NoiseStdDev adds seeded Gaussian noise to
// the returns (none by default). Ranges are [m], angles [rad], times [s]; the sensor
// frame is REP 103's (X forward, Y left, Z up).
//
// A Scanner is immutable after New and may be shared; Scan writes only
// into the caller's *Scan and allocates nothing.
package laser
