package cmdvel

import (
	"errors"
	"fmt"
	"time"

	"github.com/telebridge/telebridge/pkg/rosparam"
)

// ParamStamped is the name of the read-only parameter that switches a
// cmd_vel subscription from geometry_msgs/Twist (false, the default) to
// geometry_msgs/TwistStamped (true).
const ParamStamped = "cmd_vel_stamped"

// StampedDescription is ParamStamped's description in every node's table.
const StampedDescription = "subscribe cmd_vel as geometry_msgs/TwistStamped (read at start; a command whose header stamp is older than command_timeout, or that far ahead of the node's clock, is refused; a zero stamp counts as unstamped)"

// Binding returns the ParamStamped row of a node's parameter table, bound
// to the bool f selects in the node's configuration C.
func Binding[C any](f func(*C) *bool) rosparam.Binding[C] {
	return rosparam.BindBool(ParamStamped, StampedDescription, f, rosparam.ReadOnly())
}

// ErrStale is wrapped by Check for a command stamped longer ago than the
// bound; ErrFuture for one stamped that far ahead of the node's clock
// (the source's clock is not the node's: an unsynchronised machine, or
// wall time against /clock).
var (
	ErrStale  = errors.New("cmdvel: stamped command is stale")
	ErrFuture = errors.New("cmdvel: stamped command is ahead of the node's clock")
)

// Check decides whether a command stamped at stamp may be taken at now,
// both on the node's clock (ROS time). maxAge is the bound of the age in
// both directions: the subscriber's command timeout, after which the
// command would be dropped to zero anyway. A zero stamp (the zero
// time.Time or the Unix epoch, which a zero header stamp converts to) is a
// source that does not stamp: taken, its age counted from receipt as for a
// Twist. maxAge <= 0 takes every command. Check allocates nothing unless
// it refuses.
func Check(stamp, now time.Time, maxAge time.Duration) error {
	if maxAge <= 0 || Unstamped(stamp) {
		return nil
	}
	age := now.Sub(stamp)
	switch {
	case age > maxAge:
		return fmt.Errorf("%w: stamp %s is %.3f s old, more than %.3f s", ErrStale, stamp.UTC().Format(time.RFC3339Nano), age.Seconds(), maxAge.Seconds())
	case -age > maxAge:
		return fmt.Errorf("%w: stamp %s is %.3f s ahead, more than %.3f s", ErrFuture, stamp.UTC().Format(time.RFC3339Nano), -age.Seconds(), maxAge.Seconds())
	}
	return nil
}

// Unstamped reports whether t is a zero header stamp: the zero time.Time
// or the Unix epoch.
func Unstamped(t time.Time) bool { return t.IsZero() || t.Unix() == 0 && t.Nanosecond() == 0 }

// Refusals counts refused commands so that a subscriber logs the first
// one and then every power of two, not every message of a 20 Hz stream.
// Not safe for concurrent use: one subscription callback owns it.
type Refusals struct{ n uint64 }

// Add counts a refusal and reports whether this one should be logged,
// with the count so far.
func (r *Refusals) Add() (log bool, count uint64) {
	r.n++
	return r.n&(r.n-1) == 0, r.n
}
