package jog

import (
	"fmt"
	"math"
	"slices"
	"time"
)

// The controller's inputs besides the requests: the operator's heartbeat
// (the deadman) and the arm's measured joint positions.

// Heartbeat resets the heartbeat timer at now (service call, or a true on
// the topic).
func (c *Controller) Heartbeat(now time.Time) {
	c.mu.Lock()
	c.beat = now
	c.mu.Unlock()
}

// HeartbeatMessage handles a std_msgs/Bool on the heartbeat topic: true
// resets the timer like the service; false is not a heartbeat and is
// ignored. It reports whether the timer was reset.
func (c *Controller) HeartbeatMessage(now time.Time, data bool) bool {
	if data {
		c.Heartbeat(now)
	}
	return data
}

// UpdateJointState stores the measured joint positions (chain order) and
// when they were measured.
func (c *Controller) UpdateJointState(q []float64, at time.Time) error {
	if len(q) != len(c.measured) {
		return fmt.Errorf("jog: joint state: %w: %d values for %d joints", ErrRequest, len(q), len(c.measured))
	}
	for i, v := range q {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("jog: joint state: %w: joint %q is %g", ErrRequest, c.names[i], v)
		}
	}
	c.mu.Lock()
	copy(c.measured, q)
	c.measuredAt, c.haveState = at, true
	c.mu.Unlock()
	return nil
}

// UpdateJointStateByName stores measured positions given as a
// sensor_msgs/JointState gives them: names and positions in any order,
// possibly with other joints (a gripper, flippers), which are ignored.
// Every joint of the chain must be there. It allocates nothing.
func (c *Controller) UpdateJointStateByName(names []string, positions []float64, at time.Time) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := selectJoints(c.scratch, c.names, names, positions); err != nil {
		return err
	}
	copy(c.measured, c.scratch)
	c.measuredAt, c.haveState = at, true
	return nil
}

// selectJoints writes into dst the positions of the joints want (in that
// order) found by name in names/positions. Every wanted joint must be
// there with a finite value; dst is then partly written. It allocates
// nothing.
func selectJoints(dst []float64, want, names []string, positions []float64) error {
	if len(names) != len(positions) {
		return fmt.Errorf("jog: joint state: %w: %d names, %d positions", ErrRequest, len(names), len(positions))
	}
	for i, w := range want {
		j := slices.Index(names, w)
		if j < 0 {
			return fmt.Errorf("jog: joint state: %w: no joint %q", ErrRequest, w)
		}
		if v := positions[j]; math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("jog: joint state: %w: joint %q is %g", ErrRequest, w, v)
		}
		dst[i] = positions[j]
	}
	return nil
}
