package diag

import (
	"strings"
	"sync"
	"time"
)

// StatusName returns the name of the status that node (its fully
// qualified name, e.g. "/f1/furbot_bridge") reports about component:
// "/f1/furbot_bridge: vehicle link". A core's Diagnose gives Status.Name as
// the component; the ROS layer names the status with StatusName as it
// publishes it. Two robots in namespaces f1 and f2 thus
// report under distinct names, and an aggregator can group them by the
// node's name (a GenericAnalyzer's startswith).
func StatusName(node, component string) string { return node + ": " + component }

// Component returns the component of a status named by StatusName, and
// whether node reported it.
func Component(name, node string) (string, bool) {
	c, ok := strings.CutPrefix(name, node+": ")
	if !ok {
		return "", false
	}
	return c, true
}

// Input is a stream a node depends on, as its node saw it at one instant.
type Input struct {
	Name    string        // e.g. "joint_states"
	Count   uint64        // messages received so far
	Last    time.Time     // when the latest arrived (zero: none yet)
	Timeout time.Duration // older than this is stale
}

// Check adds in's count and age to s and raises s to level when nothing
// arrived yet or the latest is older than in.Timeout at now.
func (s *Status) Check(in Input, now time.Time, level Level) {
	s.Add(in.Name+" received", in.Count)
	if in.Last.IsZero() {
		s.Add(in.Name+" age", "never")
		s.Raise(level, "no "+in.Name+" received")
		return
	}
	age := now.Sub(in.Last)
	s.Add(in.Name+" age", age)
	if age > in.Timeout {
		s.Raise(level, in.Name+" is "+s.Values[len(s.Values)-1].Value+" old")
	}
}

// Arrivals counts the messages of one input and keeps the time of the
// latest. It is safe for concurrent use: a subscription callback calls
// Mark, the diagnostics loop calls Input.
type Arrivals struct {
	mu   sync.Mutex
	n    uint64
	last time.Time
}

// Mark records a message received at.
func (a *Arrivals) Mark(at time.Time) {
	a.mu.Lock()
	a.n++
	a.last = at
	a.mu.Unlock()
}

// Input returns the input as seen now, named name, stale after timeout.
func (a *Arrivals) Input(name string, timeout time.Duration) Input {
	a.mu.Lock()
	defer a.mu.Unlock()
	return Input{Name: name, Count: a.n, Last: a.last, Timeout: timeout}
}
