//go:build ros2

package rosnode

import (
	"time"

	builtin_interfaces_msg "github.com/telebridge/telebridge/internal/rosmsg/builtin_interfaces/msg"
	std_msgs_msg "github.com/telebridge/telebridge/internal/rosmsg/std_msgs/msg"
	"github.com/telebridge/telebridge/pkg/rosparam"
)

// Stamp converts a time to a builtin_interfaces/Time.
func Stamp(t time.Time) builtin_interfaces_msg.Time {
	s := rosparam.TimeOf(t)
	return builtin_interfaces_msg.Time{Sec: s.Sec, Nanosec: s.Nanosec}
}

// Header returns a std_msgs/Header stamped t in frame.
func Header(t time.Time, frame string) std_msgs_msg.Header {
	return std_msgs_msg.Header{Stamp: Stamp(t), FrameId: frame}
}

// Duration converts a duration to a builtin_interfaces/Duration, whose
// nanoseconds are always in [0, 1e9), also for a negative duration.
func Duration(d time.Duration) builtin_interfaces_msg.Duration {
	sec, rem := d/time.Second, d%time.Second
	if rem < 0 {
		sec--
		rem += time.Second
	}
	return builtin_interfaces_msg.Duration{Sec: int32(sec), Nanosec: uint32(rem)}
}
