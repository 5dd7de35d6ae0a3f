package jog_test

import (
	"errors"
	"math"
	"testing"
	"time"

	"github.com/telebridge/telebridge/pkg/jog"
)

func TestJointStates(t *testing.T) {
	s := jog.NewJointStates([]string{"a", "b", "c"})
	q := make([]float64, 3)
	if _, err := s.JointPositions(q); !errors.Is(err, jog.ErrNoJointState) {
		t.Fatalf("empty: %v", err)
	}
	t0 := time.Unix(100, 0)
	if err := s.Store([]string{"gripper", "c", "a", "b"}, []float64{9, 3, 1, 2}, t0); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []struct {
		names []string
		pos   []float64
	}{
		{[]string{"a", "b"}, []float64{1, 2}},
		{[]string{"a", "b", "c"}, []float64{1, math.NaN(), 3}},
		{[]string{"a", "b", "c"}, []float64{1, 2}},
	} {
		if err := s.Store(bad.names, bad.pos, t0.Add(time.Second)); !errors.Is(err, jog.ErrRequest) {
			t.Errorf("Store(%v, %v) = %v, want ErrRequest", bad.names, bad.pos, err)
		}
	}
	// Another robot's joints on the same topic: skipped, not refused.
	if err := s.Store([]string{"waist", "flippers"}, []float64{7, 8}, t0.Add(time.Second)); !errors.Is(err, jog.ErrForeignJoints) {
		t.Errorf("a Servosila message: %v, want ErrForeignJoints", err)
	}
	at, err := s.JointPositions(q)
	if err != nil || !at.Equal(t0) || q[0] != 1 || q[1] != 2 || q[2] != 3 || s.Refused() != 3 || s.Foreign() != 1 {
		t.Fatalf("after refused and foreign messages: %v at %v (%v), %d refused, %d foreign", q, at, err, s.Refused(), s.Foreign())
	}
	names, pos := []string{"c", "b", "a"}, []float64{6, 5, 4}
	if n := testing.AllocsPerRun(100, func() {
		_ = s.Store(names, pos, t0)
		_, _ = s.JointPositions(q)
	}); n != 0 {
		t.Fatalf("%v allocations per store and read", n)
	}
	if q[0] != 4 || q[2] != 6 {
		t.Fatalf("positions %v", q)
	}
}
