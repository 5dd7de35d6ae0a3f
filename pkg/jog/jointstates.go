package jog

import (
	"fmt"
	"sync"
	"time"
)

// JointStates keeps the newest measured joint positions of the arm, taken
// from sensor_msgs/JointState messages (names in any order, other joints
// ignored), in chain order: the JointSource of the jog_server node. Safe
// for concurrent use (the subscription stores, the loop reads).
type JointStates struct {
	mu      sync.Mutex
	names   []string
	q, next []float64
	at      time.Time
	ok      bool
	refused uint64
	foreign uint64
}

// NewJointStates returns an empty source for the joints names (chain
// order, Chain.JointNames()).
func NewJointStates(names []string) *JointStates {
	return &JointStates{names: append([]string(nil), names...), q: make([]float64, len(names)), next: make([]float64, len(names))}
}

// Store takes one message received at at. A message that names none of
// the chain's joints is another robot's (joint_states is shared, e.g. with
// servosila_driver): it is skipped with ErrForeignJoints and counted apart.
// A message that lacks a chain joint, has a non-finite position or
// mismatched lengths is refused whole (counted; the previous state stays).
// It allocates nothing.
func (s *JointStates) Store(names []string, positions []float64, at time.Time) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !namesAny(names, s.names) {
		s.foreign++
		return ErrForeignJoints
	}
	if err := selectJoints(s.next, s.names, names, positions); err != nil {
		s.refused++
		return err
	}
	s.q, s.next = s.next, s.q
	s.at, s.ok = at, true
	return nil
}

// JointPositions implements JointSource: the newest state and when it was
// received. Without any it fails with ErrNoJointState.
func (s *JointStates) JointPositions(dst []float64) (time.Time, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.ok {
		return time.Time{}, ErrNoJointState
	}
	if len(dst) != len(s.q) {
		return time.Time{}, fmt.Errorf("jog: joint positions: %w: %d values for %d joints", ErrRequest, len(dst), len(s.q))
	}
	copy(dst, s.q)
	return s.at, nil
}

// Refused returns how many messages Store refused.
func (s *JointStates) Refused() uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.refused
}

// namesAny reports whether names holds any of want.
func namesAny(names, want []string) bool {
	for _, n := range names {
		for _, w := range want {
			if n == w {
				return true
			}
		}
	}
	return false
}

// Foreign returns how many messages Store skipped as another robot's.
func (s *JointStates) Foreign() uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.foreign
}
