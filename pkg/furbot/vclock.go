package furbot

import "time"

// ResyncAfter is how many consecutive old frames make the vehicle clock
// follow the vehicle's timestamps backwards (half a second at 100 Hz).
const ResyncAfter = 50

// VehicleClock unwraps the vehicle's 32-bit millisecond timestamps into a
// 64-bit time and decides which frames are new. A frame with the same or
// an older timestamp is old (repeated or reordered) and dropped; after
// ResyncAfter old frames in a row the vehicle's clock is taken to have
// restarted and is followed, with a jump longer than maxGap so that the
// odometry holds the pose across the discontinuity. It is a plain value
// owned by one goroutine (the bridge's receive goroutine, or a node's
// callbacks). Create it with NewVehicleClock.
type VehicleClock struct {
	maxGap time.Duration // odometry's longest integrated gap
	last   uint32        // latest accepted timestamp [ms]
	ms     uint64        // unwrapped vehicle time [ms]
	have   bool
	older  int // consecutive old frames
}

// ClockVerdict is what VehicleClock.Next decided about one timestamp.
type ClockVerdict struct {
	Old    bool // drop the frame: not newer than the latest
	Resync bool // the clock went back for good and is followed
	Gap    bool // the interval since the latest frame exceeds maxGap
}

// NewVehicleClock returns a clock that has seen no frame yet; maxGap is
// the odometry's longest integrated gap (OdometryConfig.MaxGap).
func NewVehicleClock(maxGap time.Duration) VehicleClock { return VehicleClock{maxGap: maxGap} }

// Next takes the timestamp of a new frame [ms] and returns the unwrapped
// vehicle time [ms] and the verdict; an Old frame leaves the clock as it
// was (the time returned is then the latest accepted one).
func (c *VehicleClock) Next(ts uint32) (uint64, ClockVerdict) {
	var v ClockVerdict
	if c.have {
		d := ts - c.last
		switch {
		case (d == 0 || d >= 1<<31) && c.older < ResyncAfter:
			c.older++
			v.Old = true
			return c.ms, v
		case d == 0 || d >= 1<<31:
			d = uint32(c.maxGap/time.Millisecond) + 1
			v.Resync = true
		}
		c.older = 0
		c.ms += uint64(d)
		v.Gap = time.Duration(d)*time.Millisecond > c.maxGap
	}
	c.last, c.have = ts, true
	return c.ms, v
}
