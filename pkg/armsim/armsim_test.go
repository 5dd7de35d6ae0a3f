package armsim

import (
	"errors"
	"math"
	"testing"
	"time"

	"github.com/telebridge/telebridge/pkg/jog"
)

func newArm(t *testing.T) *Arm {
	t.Helper()
	a, err := New(Config{
		Names:       []string{"a", "b"},
		MaxVelocity: []float64{1, 0.1},
		Lower:       []float64{-1, 0}, Upper: []float64{1, 0.5},
		Initial: []float64{0, 0.1},
	})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func TestFollowsTargetsTogether(t *testing.T) {
	a := newArm(t)
	// Both joints asked to arrive in 1 s: a moves 0.5 at 0.5/s, b 0.05 at 0.05/s.
	if err := a.WriteJointTarget(jog.JointTarget{JointNames: []string{"a", "b"}, Positions: []float64{0.5, 0.15}, TimeFromStart: time.Second}); err != nil {
		t.Fatal(err)
	}
	a.Advance(500 * time.Millisecond)
	if q := a.Positions(); math.Abs(q[0]-0.25) > 1e-12 || math.Abs(q[1]-0.125) > 1e-12 {
		t.Fatalf("halfway at %v", q)
	}
	a.Advance(600 * time.Millisecond)
	if q := a.Positions(); q[0] != 0.5 || q[1] != 0.15 {
		t.Fatalf("arrived at %v, no overshoot wanted", q)
	}
	if got := a.Now().Sub(time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)); got != 1100*time.Millisecond {
		t.Fatalf("clock advanced %v", got)
	}
}

func TestVelocityLimit(t *testing.T) {
	a := newArm(t)
	// Asked to move b by 0.3 in 0.1 s: capped at 0.1/s.
	_ = a.WriteJointTarget(jog.JointTarget{JointNames: []string{"a", "b"}, Positions: []float64{0, 0.4}, TimeFromStart: 100 * time.Millisecond})
	a.Advance(time.Second)
	if q := a.Positions(); math.Abs(q[1]-0.2) > 1e-12 {
		t.Fatalf("b at %g after 1 s at 0.1/s from 0.1", q[1])
	}
	var dst [2]float64
	if _, err := a.JointPositions(dst[:1]); err == nil {
		t.Fatal("short dst accepted")
	}
}

func TestBadTargetsAndViolations(t *testing.T) {
	a := newArm(t)
	for _, tg := range []jog.JointTarget{
		{JointNames: []string{"a"}, Positions: []float64{0}},
		{JointNames: []string{"a", "c"}, Positions: []float64{0, 0}},
		{JointNames: []string{"a", "b"}, Positions: []float64{math.NaN(), 0}},
	} {
		if err := a.WriteJointTarget(tg); !errors.Is(err, ErrTarget) {
			t.Errorf("%+v: err = %v", tg, err)
		}
	}
	_ = a.WriteJointTarget(jog.JointTarget{JointNames: []string{"a", "b"}, Positions: []float64{2, 0.1}})
	if v, n := a.Violations(); v != 1 || n != 1 {
		t.Fatalf("violations %d of %d", v, n)
	}
	if _, err := New(Config{Names: []string{"a"}, MaxVelocity: []float64{0}}); err == nil {
		t.Fatal("zero velocity limit accepted")
	}
}
