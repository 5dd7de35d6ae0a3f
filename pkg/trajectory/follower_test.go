package trajectory

import (
	"math"
	"testing"
	"time"
)

var t0 = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

func sec(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }

func at(s float64) time.Time { return t0.Add(sec(s)) }

func newF(t *testing.T, cfg Config) *Follower {
	t.Helper()
	f, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func one(f *Follower, s float64) (p, v, a float64) {
	sp := Setpoint{make([]float64, f.n), make([]float64, f.n), make([]float64, f.n)}
	f.Desired(at(s), sp)
	return sp.Positions[0], sp.Velocities[0], sp.Accelerations[0]
}

func near(t *testing.T, what string, got, want, tol float64) {
	t.Helper()
	if math.Abs(got-want) > tol || math.IsNaN(got) {
		t.Errorf("%s = %.12g, want %.12g (±%g)", what, got, want, tol)
	}
}

func rest(n int) State { return State{Positions: make([]float64, n)} }

// Hand-computed values of the three interpolations from rest at 0.
func TestInterpolationKinds(t *testing.T) {
	for _, tc := range []struct {
		name    string
		pts     []Point
		s       float64
		p, v, a float64
	}{
		// Linear: 0 -> 1 in 1 s, then 1 -> 3 in 1 s.
		{"linear first", []Point{{Positions: []float64{1}, TimeFromStart: sec(1)}, {Positions: []float64{3}, TimeFromStart: sec(2)}}, 0.5, 0.5, 1, 0},
		{"linear second", []Point{{Positions: []float64{1}, TimeFromStart: sec(1)}, {Positions: []float64{3}, TimeFromStart: sec(2)}}, 1.5, 2, 2, 0},
		// Cubic rest to rest, 0 -> 1 in 1 s: 3s² − 2s³.
		{"cubic mid", []Point{{Positions: []float64{1}, Velocities: []float64{0}, TimeFromStart: sec(1)}}, 0.5, 0.5, 1.5, 0},
		{"cubic start", []Point{{Positions: []float64{1}, Velocities: []float64{0}, TimeFromStart: sec(1)}}, 0, 0, 0, 6},
		{"cubic quarter", []Point{{Positions: []float64{1}, Velocities: []float64{0}, TimeFromStart: sec(1)}}, 0.25, 0.15625, 1.125, 3},
		// Quintic rest to rest: 10s³ − 15s⁴ + 6s⁵.
		{"quintic mid", []Point{{Positions: []float64{1}, Velocities: []float64{0}, Accelerations: []float64{0}, TimeFromStart: sec(1)}}, 0.5, 0.5, 1.875, 0},
		{"quintic quarter", []Point{{Positions: []float64{1}, Velocities: []float64{0}, Accelerations: []float64{0}, TimeFromStart: sec(1)}}, 0.25, 0.103515625, 1.0546875, 5.625},
		// Past the end: the last point, at rest.
		{"hold after end", []Point{{Positions: []float64{1}, Velocities: []float64{0.5}, TimeFromStart: sec(1)}}, 3, 1, 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newF(t, Config{Joints: []string{"j"}})
			if _, err := f.Start(&Goal{JointNames: []string{"j"}, Points: tc.pts}, t0, rest(1)); err != nil {
				t.Fatal(err)
			}
			p, v, a := one(f, tc.s)
			near(t, "position", p, tc.p, 1e-12)
			near(t, "velocity", v, tc.v, 1e-12)
			near(t, "acceleration", a, tc.a, 1e-12)
		})
	}
}

func threePoints(kind string) []Point {
	pts := []Point{
		{Positions: []float64{0.5, -0.2}, TimeFromStart: sec(1)},
		{Positions: []float64{1.0, 0.3}, TimeFromStart: sec(2.5)},
		{Positions: []float64{0.2, 0.0}, TimeFromStart: sec(4)},
	}
	if kind != "linear" {
		vs := [][]float64{{0.4, 0.3}, {-0.1, 0.2}, {0, 0}}
		for k := range pts {
			pts[k].Velocities = vs[k]
		}
	}
	if kind == "quintic" {
		as := [][]float64{{0.1, -0.2}, {-0.5, 0.1}, {0, 0}}
		for k := range pts {
			pts[k].Accelerations = as[k]
		}
	}
	return pts
}

// Every knot is passed exactly at its time, and the splines are
// continuous there: position (all kinds), velocity (cubic, quintic),
// acceleration (quintic).
func TestKnotsExactAndContinuous(t *testing.T) {
	for _, kind := range []string{"linear", "cubic", "quintic"} {
		t.Run(kind, func(t *testing.T) {
			f := newF(t, Config{Joints: []string{"a", "b"}})
			pts := threePoints(kind)
			if _, err := f.Start(&Goal{JointNames: []string{"a", "b"}, Points: pts}, t0, rest(2)); err != nil {
				t.Fatal(err)
			}
			sp := Setpoint{make([]float64, 2), make([]float64, 2), make([]float64, 2)}
			lo := Setpoint{make([]float64, 2), make([]float64, 2), make([]float64, 2)}
			hi := Setpoint{make([]float64, 2), make([]float64, 2), make([]float64, 2)}
			const eps = 1e-6
			for k, p := range pts {
				tk := p.TimeFromStart.Seconds()
				f.Desired(at(tk), sp)
				f.Desired(at(tk-eps), lo)
				f.Desired(at(tk+eps), hi)
				for j := range 2 {
					near(t, "knot position", sp.Positions[j], p.Positions[j], 1e-12)
					if kind != "linear" {
						near(t, "knot velocity", sp.Velocities[j], p.Velocities[j], 1e-9)
					}
					if k == len(pts)-1 {
						continue // past the end the arm rests
					}
					near(t, "position across knot", hi.Positions[j], lo.Positions[j], 1e-5)
					if kind != "linear" {
						near(t, "velocity across knot", hi.Velocities[j], lo.Velocities[j], 1e-4)
					}
					if kind == "quintic" {
						near(t, "acceleration across knot", hi.Accelerations[j], lo.Accelerations[j], 1e-3)
					}
				}
			}
		})
	}
}

func TestPathTolerance(t *testing.T) {
	for _, tc := range []struct {
		name   string
		off    float64 // actual = desired − off
		tol    float64 // goal's path tolerance (0: the default 0.1)
		status Status
		code   Code
	}{
		{"within", 0.05, 0, Active, Successful},
		{"beyond default", 0.15, 0, Aborted, PathToleranceViolated},
		{"goal widens it", 0.15, 0.2, Active, Successful},
		{"goal says none", 5, -1, Active, Successful},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newF(t, Config{Joints: []string{"j"}, PathTolerance: []Tolerance{{Position: 0.1}}})
			g := &Goal{JointNames: []string{"j"}, Points: []Point{{Positions: []float64{1}, TimeFromStart: sec(2)}},
				PathTolerance: []Tolerance{{Name: "j", Position: tc.tol}}}
			if _, err := f.Start(g, t0, rest(1)); err != nil {
				t.Fatal(err)
			}
			// At 1 s the setpoint is 0.5.
			got := f.Sample(at(1), State{Positions: []float64{0.5 - tc.off}})
			if got != tc.status || f.Result().Code != tc.code {
				t.Fatalf("status %v %v (%q), want %v %v", got, f.Result().Code, f.Result().Msg, tc.status, tc.code)
			}
			if got == Aborted {
				// Holds where the arm was, not where it should have been.
				p, v, _ := one(f, 1.5)
				near(t, "held position", p, 0.5-tc.off, 0)
				near(t, "held velocity", v, 0, 0)
			}
		})
	}
}

func TestGoalTolerance(t *testing.T) {
	for _, tc := range []struct {
		name     string
		goalTime time.Duration
		actual   float64 // position at every sample after the end
		vel      []float64
		at       float64 // seconds after start (end at 1)
		status   Status
		code     Code
	}{
		{"within at end", 0, 1.005, nil, 1, Succeeded, Successful},
		{"outside, waiting forever", 0, 1.05, nil, 100, Active, Successful},
		{"outside within goal time", sec(0.5), 1.05, nil, 1.4, Active, Successful},
		{"outside after goal time", sec(0.5), 1.05, nil, 1.6, Aborted, GoalToleranceViolated},
		{"still moving", sec(0.5), 1.0, []float64{0.05}, 1.6, Aborted, GoalToleranceViolated},
		{"stopped", sec(0.5), 1.0, []float64{0.005}, 1.6, Succeeded, Successful},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newF(t, Config{Joints: []string{"j"}, GoalTolerance: []Tolerance{{Position: 0.01}}})
			g := &Goal{JointNames: []string{"j"}, Points: []Point{{Positions: []float64{1}, TimeFromStart: sec(1)}}, GoalTime: tc.goalTime}
			if _, err := f.Start(g, t0, rest(1)); err != nil {
				t.Fatal(err)
			}
			if s := f.Sample(at(0.999), State{Positions: []float64{1.05}}); s != Active {
				t.Fatalf("before the end: %v %q", s, f.Result().Msg)
			}
			got := f.Sample(at(tc.at), State{Positions: []float64{tc.actual}, Velocities: tc.vel})
			if got != tc.status || f.Result().Code != tc.code {
				t.Fatalf("status %v %v (%q), want %v %v", got, f.Result().Code, f.Result().Msg, tc.status, tc.code)
			}
			if got == Succeeded {
				if p, _, _ := one(f, 50); p != 1 {
					t.Errorf("succeeded goal holds %g, want its last point 1", p)
				}
			}
		})
	}
}

// A newer goal preempts the running one (Canceled) and starts from its
// setpoint, so the motion is continuous.
func TestPreemption(t *testing.T) {
	f := newF(t, Config{Joints: []string{"j"}})
	g1 := &Goal{JointNames: []string{"j"}, Points: []Point{{Positions: []float64{1}, Velocities: []float64{0}, TimeFromStart: sec(2)}}}
	if _, err := f.Start(g1, t0, rest(1)); err != nil {
		t.Fatal(err)
	}
	p1, v1, _ := one(f, 1) // 0.5, 0.75
	g2 := &Goal{JointNames: []string{"j"}, Points: []Point{{Positions: []float64{-1}, Velocities: []float64{0}, TimeFromStart: sec(3)}}}
	prev, err := f.Start(g2, at(1), State{Positions: []float64{0.4}})
	if err != nil {
		t.Fatal(err)
	}
	if prev == nil || prev.Status != Canceled || prev.Code != Successful {
		t.Fatalf("preempted result %+v, want canceled", prev)
	}
	p, v, _ := one(f, 1)
	near(t, "position at the preemption", p, p1, 1e-12)
	near(t, "velocity at the preemption", v, v1, 1e-12)
	if p, _, _ := one(f, 4); p != -1 {
		t.Errorf("new goal ends at %g, want -1", p)
	}
	if f.Status() != Active {
		t.Errorf("status %v", f.Status())
	}
}

func TestCancel(t *testing.T) {
	f := newF(t, Config{Joints: []string{"j"}})
	if r := f.Cancel(rest(1)); r != nil {
		t.Fatalf("cancel without a goal: %+v", r)
	}
	g := &Goal{JointNames: []string{"j"}, Points: []Point{{Positions: []float64{1}, TimeFromStart: sec(2)}}}
	if _, err := f.Start(g, t0, rest(1)); err != nil {
		t.Fatal(err)
	}
	r := f.Cancel(State{Positions: []float64{0.3}})
	if r == nil || r.Status != Canceled || r.Code != Successful {
		t.Fatalf("cancel: %+v", r)
	}
	if p, v, _ := one(f, 1.5); p != 0.3 || v != 0 {
		t.Errorf("after cancel: %g at %g, want to hold 0.3", p, v)
	}
}

// A goal stamped in the future holds its start state until then, and
// checks no path tolerance before it.
func TestFutureStart(t *testing.T) {
	f := newF(t, Config{Joints: []string{"j"}, PathTolerance: []Tolerance{{Position: 0.1}}})
	g := &Goal{JointNames: []string{"j"}, Start: at(2), Points: []Point{{Positions: []float64{1}, TimeFromStart: sec(1)}}}
	if _, err := f.Start(g, t0, State{Positions: []float64{0.2}}); err != nil {
		t.Fatal(err)
	}
	if s := f.Sample(at(1.5), State{Positions: []float64{0.9}}); s != Active {
		t.Fatalf("before the start: %v %q", s, f.Result().Msg)
	}
	if p, v, _ := one(f, 1.9); p != 0.2 || v != 0 {
		t.Errorf("before the start: %g at %g, want to hold 0.2", p, v)
	}
	p, v, _ := one(f, 2.5)
	near(t, "half way", p, 0.6, 1e-12)
	near(t, "speed", v, 0.8, 1e-12)
	if s := f.Sample(at(3), State{Positions: []float64{1}}); s != Succeeded {
		t.Errorf("at the end: %v %q", s, f.Result().Msg)
	}
}

// Joints a partial goal does not name hold their start.
func TestPartialGoal(t *testing.T) {
	f := newF(t, Config{Joints: []string{"a", "b"}, AllowPartial: true})
	g := &Goal{JointNames: []string{"b"}, Points: []Point{{Positions: []float64{1}, TimeFromStart: sec(1)}}}
	if _, err := f.Start(g, t0, State{Positions: []float64{0.7, 0}}); err != nil {
		t.Fatal(err)
	}
	sp := Setpoint{make([]float64, 2), make([]float64, 2), make([]float64, 2)}
	f.Desired(at(0.5), sp)
	if sp.Positions[0] != 0.7 || sp.Positions[1] != 0.5 {
		t.Errorf("setpoint %v, want [0.7 0.5]", sp.Positions)
	}
}

func TestFeedback(t *testing.T) {
	f := newF(t, Config{Joints: []string{"j"}})
	g := &Goal{JointNames: []string{"j"}, Points: []Point{{Positions: []float64{1}, TimeFromStart: sec(1)}}}
	if _, err := f.Start(g, t0, rest(1)); err != nil {
		t.Fatal(err)
	}
	f.Sample(at(0.5), State{Positions: []float64{0.4}, Velocities: []float64{0.9}})
	fb := f.Feedback()
	near(t, "desired", fb.Desired.Positions[0], 0.5, 1e-12)
	near(t, "actual", fb.Actual.Positions[0], 0.4, 0)
	near(t, "error", fb.Error.Positions[0], 0.1, 1e-12)
	near(t, "velocity error", fb.Error.Velocities[0], 0.1, 1e-12)
}

func TestAbortHoldsSetpoint(t *testing.T) {
	f := newF(t, Config{Joints: []string{"j"}})
	g := &Goal{JointNames: []string{"j"}, Points: []Point{{Positions: []float64{1}, TimeFromStart: sec(1)}}}
	if _, err := f.Start(g, t0, rest(1)); err != nil {
		t.Fatal(err)
	}
	f.Sample(at(0.5), rest(1))
	r := f.Abort(PathToleranceViolated, "state lost")
	if r == nil || r.Status != Aborted || r.Code != PathToleranceViolated {
		t.Fatalf("abort: %+v", r)
	}
	if p, _, _ := one(f, 2); p != 0.5 {
		t.Errorf("holds %g, want the last setpoint 0.5", p)
	}
}

// A stamped goal accepted after its start runs from the setpoint at its
// acceptance to its first point (as the JTC interpolates from the state at
// a trajectory's reception); a first point already due is skipped.
func TestLateAcceptance(t *testing.T) {
	pts := []Point{{Positions: []float64{1}, TimeFromStart: sec(1)}, {Positions: []float64{2}, TimeFromStart: sec(2)}}
	f := newF(t, Config{Joints: []string{"j"}})
	if _, err := f.Start(&Goal{JointNames: []string{"j"}, Start: at(-0.5), Points: pts}, t0, rest(1)); err != nil {
		t.Fatal(err)
	}
	for _, c := range [][2]float64{{0, 0}, {0.25, 0.5}, {0.5, 1}, {1, 1.5}} {
		p, _, _ := one(f, c[0])
		near(t, "position", p, c[1], 1e-12)
	}
	if _, err := f.Start(&Goal{JointNames: []string{"j"}, Start: at(-1.5), Points: pts}, t0, rest(1)); err != nil {
		t.Fatal(err)
	}
	p, v, _ := one(f, 0)
	near(t, "between the second and third point", p, 1.5, 1e-12)
	near(t, "its speed", v, 1, 1e-12)
}
