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

// TestSplineFollowsPositionsAndVelocities: a target with velocities is a
// cubic Hermite segment from the current state; at the point the arm has
// the point's velocity, which the next segment continues from; a
// constant-acceleration profile is reproduced exactly; going over a
// velocity limit is counted, not prevented.
func TestSplineFollowsPositionsAndVelocities(t *testing.T) {
	a := newArm(t)
	names := []string{"a", "b"}
	const dt = 0.1
	// Joint a accelerates at 2 rad/s² from rest for two segments.
	p, v := 0.0, 0.0
	for k := 1; k <= 2; k++ {
		nv := v + 2*dt
		np := p + dt*(v+nv)/2
		if err := a.WriteJointTarget(jog.JointTarget{JointNames: names, Positions: []float64{np, 0.1}, Velocities: []float64{nv, 0}, TimeFromStart: 100 * time.Millisecond}); err != nil {
			t.Fatal(err)
		}
		for i := 1; i <= 4; i++ {
			a.Advance(25 * time.Millisecond)
			s := float64(i) * 0.025
			wantP, wantV := p+v*s+s*s, v+2*s // p + v s + a s²/2
			if q, r := a.Positions(), a.Velocities(); math.Abs(q[0]-wantP) > 1e-12 || math.Abs(r[0]-wantV) > 1e-12 {
				t.Fatalf("segment %d at %g s: %g at %g rad/s, want %g at %g", k, s, q[0], r[0], wantP, wantV)
			}
		}
		p, v = np, nv
	}
	if a.OverSpeed() != 0 {
		t.Fatalf("over speed %d", a.OverSpeed())
	}
	// Joint b (limit 0.1 rad/s) told to move 0.1 rad in 0.1 s.
	_ = a.WriteJointTarget(jog.JointTarget{JointNames: names, Positions: []float64{p, 0.2}, Velocities: []float64{0, 0}, TimeFromStart: 100 * time.Millisecond})
	a.Advance(50 * time.Millisecond)
	if a.OverSpeed() != 1 {
		t.Fatalf("over speed %d, want 1", a.OverSpeed())
	}
	// Past the point the arm rests there.
	a.Advance(200 * time.Millisecond)
	if q, r := a.Positions(), a.Velocities(); q[1] != 0.2 || r[0] != 0 || r[1] != 0 {
		t.Fatalf("after the point: %v at %v", q, r)
	}
	if err := a.WriteJointTarget(jog.JointTarget{JointNames: names, Positions: []float64{0, 0}, Velocities: []float64{1}, TimeFromStart: time.Second}); !errors.Is(err, ErrTarget) {
		t.Fatalf("one velocity for two joints: %v", err)
	}
}

// TestNextPointCarriesOn: with no newer target, the arm goes on from the
// first point to Next without stopping there (its velocity at the first
// point is the point's), arrives at Next on time and rests there.
func TestNextPointCarriesOn(t *testing.T) {
	a := newArm(t)
	tg := jog.JointTarget{
		JointNames: []string{"a", "b"}, Positions: []float64{0.05, 0.1}, Velocities: []float64{1, 0},
		TimeFromStart: 50 * time.Millisecond,
		Next:          []float64{0.1, 0.1}, NextVelocities: []float64{1, 0}, NextTimeFromStart: 100 * time.Millisecond,
	}
	if err := a.WriteJointTarget(tg); err != nil {
		t.Fatal(err)
	}
	for range 10 {
		a.Advance(5 * time.Millisecond)
	}
	if q, v := a.Positions(), a.Velocities(); math.Abs(q[0]-0.05) > 1e-12 || math.Abs(v[0]-1) > 1e-9 {
		t.Fatalf("at the first point: %v, %v", q, v)
	}
	a.Advance(25 * time.Millisecond)
	if q, v := a.Positions(), a.Velocities(); math.Abs(q[0]-0.075) > 1e-9 || math.Abs(v[0]-1) > 1e-9 {
		t.Fatalf("halfway to Next: %v, %v (want 0.075 at 1)", q, v)
	}
	a.Advance(25 * time.Millisecond)
	if q := a.Positions(); math.Abs(q[0]-0.1) > 1e-12 {
		t.Fatalf("at Next's time: %v", q)
	}
	a.Advance(20 * time.Millisecond)
	if q, v := a.Positions(), a.Velocities(); q[0] != 0.1 || v[0] != 0 {
		t.Fatalf("after Next: %v, %v (rest at 0.1 wanted)", q, v)
	}
}

// TestStampedTimes: a target's times count from its stamp on the arm's
// clock: a late target still arrives when it was due; one whose first
// point is past heads for Next; one whose points are all past goes
// straight to the last one; a stamp off the arm's clock by more than
// MaxStampSkew is ignored. Timing counts the last three.
func TestStampedTimes(t *testing.T) {
	start := time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)
	ms := time.Millisecond
	for _, c := range []struct {
		name           string
		age            time.Duration // how long before the arm's now the stamp lies
		advance        time.Duration
		want           float64 // joint a after advance
		late, offClock uint64
	}{
		{"on time", 0, 100 * ms, 0.1, 0, 0},
		{"20 ms late: due at the same instant", 20 * ms, 30 * ms, 0.05, 0, 0},
		{"first point past: on to Next", 60 * ms, 40 * ms, 0.1, 1, 0},
		{"all past: straight to the last point", 150 * ms, 100 * ms, 0.1, 1, 0},
		{"stamp 2 s old: times from now", 2 * time.Second, 50 * ms, 0.05, 0, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			a := newArm(t)
			tg := jog.JointTarget{
				Stamp: start.Add(-c.age), JointNames: []string{"a", "b"},
				Positions: []float64{0.05, 0.1}, Velocities: []float64{1, 0}, TimeFromStart: 50 * ms,
				Next: []float64{0.1, 0.1}, NextVelocities: []float64{1, 0}, NextTimeFromStart: 100 * ms,
			}
			if err := a.WriteJointTarget(tg); err != nil {
				t.Fatal(err)
			}
			for d := time.Duration(0); d < c.advance; d += 5 * ms {
				a.Advance(5 * ms)
			}
			if q := a.Positions(); math.Abs(q[0]-c.want) > 1e-9 {
				t.Fatalf("joint a at %g after %v, want %g", q[0], c.advance, c.want)
			}
			if late, off := a.Timing(); late != c.late || off != c.offClock {
				t.Fatalf("Timing %d late, %d off the clock; want %d, %d", late, off, c.late, c.offClock)
			}
		})
	}
}

// TestBadNextPoint: a Next that does not fit (length, NaN, not after the
// first point, without velocities) is refused and leaves the arm as it
// was.
func TestBadNextPoint(t *testing.T) {
	base := func() jog.JointTarget {
		return jog.JointTarget{JointNames: []string{"a", "b"}, Positions: []float64{0.05, 0.1}, Velocities: []float64{1, 0},
			TimeFromStart: 50 * time.Millisecond,
			Next:          []float64{0.1, 0.1}, NextVelocities: []float64{1, 0}, NextTimeFromStart: 100 * time.Millisecond}
	}
	for name, change := range map[string]func(*jog.JointTarget){
		"short":         func(t *jog.JointTarget) { t.Next = t.Next[:1] },
		"NaN":           func(t *jog.JointTarget) { t.Next[1] = math.NaN() },
		"Inf velocity":  func(t *jog.JointTarget) { t.NextVelocities[0] = math.Inf(1) },
		"not after":     func(t *jog.JointTarget) { t.NextTimeFromStart = t.TimeFromStart },
		"no velocities": func(t *jog.JointTarget) { t.Velocities = nil },
		"no next vel":   func(t *jog.JointTarget) { t.NextVelocities = nil },
	} {
		a := newArm(t)
		tg := base()
		change(&tg)
		if err := a.WriteJointTarget(tg); !errors.Is(err, ErrTarget) {
			t.Fatalf("%s: %v, want ErrTarget", name, err)
		}
		a.Advance(200 * time.Millisecond)
		if q := a.Positions(); q[0] != 0 || q[1] != 0.1 {
			t.Fatalf("%s: refused target moved the arm to %v", name, q)
		}
	}
}
