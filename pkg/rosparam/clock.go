package rosparam

import (
	"sync/atomic"
	"time"

	"github.com/telebridge/telebridge/pkg/mailbox"
)

// Clock is a node's time source, as rclcpp's ROS clock: the system clock by
// default; with use_sim_time true, the latest time received on /clock
// (rosgraph_msgs/Clock), fed in by the ROS layer with FeedClock.
//
// With use_sim_time true and no /clock message received yet, Now returns
// the epoch, time.Unix(0, 0) (ROS time 0, as rclcpp does), and SimTimeValid
// is false: a node should wait for it before it integrates anything. A
// /clock that goes backwards (a bag played in a loop) is taken as is.
//
// All methods are safe for concurrent use and allocate nothing.
type Clock struct {
	wall   func() time.Time
	useSim atomic.Bool
	sim    mailbox.Latest[Time]
}

// NewClock returns a clock reading wall (time.Now when nil) until
// SetUseSimTime(true).
func NewClock(wall func() time.Time) *Clock {
	if wall == nil {
		wall = time.Now
	}
	return &Clock{wall: wall}
}

// SetUseSimTime switches between the system clock (false) and /clock
// (true). The Store calls it when use_sim_time is declared or set.
func (c *Clock) SetUseSimTime(on bool) { c.useSim.Store(on) }

// UseSimTime reports whether time comes from /clock.
func (c *Clock) UseSimTime() bool { return c.useSim.Load() }

// FeedClock stores the time of a /clock message (its clock field). It is
// kept even while use_sim_time is false, so switching to simulated time
// does not wait for the next message.
func (c *Clock) FeedClock(t Time) { c.sim.Store(t, c.wall()) }

// SimTimeValid reports whether a /clock message has been received.
func (c *Clock) SimTimeValid() bool {
	_, _, ok := c.sim.Load()
	return ok
}

// Now returns the current time: the system clock (with its monotonic
// reading), or with use_sim_time the latest /clock time (UTC, no monotonic
// reading), or the epoch before the first /clock message.
func (c *Clock) Now() time.Time {
	if !c.useSim.Load() {
		return c.wall()
	}
	t, _, ok := c.sim.Load()
	if !ok {
		return time.Unix(0, 0).UTC()
	}
	return t.Time()
}

// Stamp returns Now as a message stamp.
func (c *Clock) Stamp() Time { return TimeOf(c.Now()) }

// TimeOf converts t to a stamp: seconds since the Unix epoch and
// nanoseconds in [0, 1e9). Seconds outside int32 saturate.
func TimeOf(t time.Time) Time {
	sec := t.Unix()
	switch {
	case sec > 1<<31-1:
		return Time{Sec: 1<<31 - 1, Nanosec: 999_999_999}
	case sec < -1<<31:
		return Time{Sec: -1 << 31}
	}
	return Time{Sec: int32(sec), Nanosec: uint32(t.Nanosecond())}
}

// Time returns the stamp as a UTC time.Time.
func (t Time) Time() time.Time { return time.Unix(int64(t.Sec), int64(t.Nanosec)).UTC() }
