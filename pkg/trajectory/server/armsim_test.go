package server_test

import (
	"errors"
	"math"
	"testing"
	"time"

	"github.com/telebridge/telebridge/pkg/armsim"
	"github.com/telebridge/telebridge/pkg/jog"
	"github.com/telebridge/telebridge/pkg/trajectory"
	"github.com/telebridge/telebridge/pkg/trajectory/server"
)

const tick = 10 * time.Millisecond

func sec(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }

func newSim(t *testing.T) *armsim.Arm {
	t.Helper()
	a, err := armsim.New(armsim.Config{Names: []string{"a", "b"}, MaxVelocity: []float64{1, 1}, Lower: []float64{-2, -2}, Upper: []float64{2, 2}})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func newServer(t *testing.T, arm jog.Arm, cfg trajectory.Config) *server.Server {
	t.Helper()
	s, err := server.New(server.Config{Arm: arm, Follower: cfg, Period: tick, StateTimeout: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// threePoints is a trajectory of the kind (linear, cubic, quintic) through
// three points of joints a and b, ending at rest at 3 s.
func threePoints(kind string) *trajectory.Goal {
	g := &trajectory.Goal{JointNames: []string{"a", "b"}, Points: []trajectory.Point{
		{Positions: []float64{0.5, -0.3}, TimeFromStart: sec(1)},
		{Positions: []float64{1.0, 0.2}, TimeFromStart: sec(2)},
		{Positions: []float64{0.4, 0.0}, TimeFromStart: sec(3)},
	}}
	if kind != "linear" {
		for k, v := range [][]float64{{0.6, -0.1}, {-0.2, 0.3}, {0, 0}} {
			g.Points[k].Velocities = v
		}
	}
	if kind == "quintic" {
		for k, a := range [][]float64{{0, 0.2}, {-0.5, 0}, {0, 0}} {
			g.Points[k].Accelerations = a
		}
	}
	return g
}

// run steps the server and advances the arm by one tick until the arm's
// clock reaches until, calling each (if not nil) after every step.
func run(s *server.Server, arm *armsim.Arm, until time.Time, each func(now time.Time)) {
	for now := arm.Now(); now.Before(until); now = arm.Now() {
		s.Step(now)
		if each != nil {
			each(now)
		}
		arm.Advance(tick)
	}
}

// The simulated arm's truth passes every knot of a 3-point trajectory at
// its time, whichever interpolation the points ask for, and the goal
// succeeds with the arm at rest on the last point.
func TestArmSimFollowsEveryPoint(t *testing.T) {
	for _, kind := range []string{"linear", "cubic", "quintic"} {
		t.Run(kind, func(t *testing.T) {
			arm := newSim(t)
			cfg := arm.TrajectoryConfig()
			cfg.PathTolerance = []trajectory.Tolerance{{Position: 0.02}, {Position: 0.02}}
			cfg.GoalTolerance = []trajectory.Tolerance{{Position: 0.001}, {Position: 0.001}}
			s := newServer(t, arm, cfg)
			g := threePoints(kind)
			start := arm.Now()
			feedbacks := 0
			h, err := s.Submit(g, start, func(trajectory.Feedback) { feedbacks++ })
			if err != nil {
				t.Fatal(err)
			}
			worst := 0.0
			run(s, arm, start.Add(4*time.Second), func(now time.Time) {
				for _, p := range g.Points {
					if now.Sub(start) != p.TimeFromStart {
						continue
					}
					for j, q := range arm.Positions() {
						worst = math.Max(worst, math.Abs(q-p.Positions[j]))
					}
				}
			})
			t.Logf("%s: largest distance of the truth from a knot at its time %.2e rad; %d feedbacks", kind, worst, feedbacks)
			if worst > 2e-3 {
				t.Errorf("truth %.4f rad from a knot at its time, want within 2e-3", worst)
			}
			select {
			case <-h.Done():
			default:
				t.Fatal("goal still running a second after its end")
			}
			if r := h.Result(); r.Status != trajectory.Succeeded || r.Code != trajectory.Successful {
				t.Fatalf("result %+v", r)
			}
			if feedbacks < 250 {
				t.Errorf("%d feedbacks over 3 s at 100 Hz", feedbacks)
			}
			for j, v := range arm.Velocities() {
				if v != 0 {
					t.Errorf("joint %d still moving at %g after the goal", j, v)
				}
			}
		})
	}
}

// jammed passes targets to the arm, except that from jamAt on joint b
// stays where it is (a blocked joint).
type jammed struct {
	*armsim.Arm
	jamAt time.Time
	pos   []float64
}

func (j *jammed) WriteJointTarget(t jog.JointTarget) error {
	if !t.Stamp.Before(j.jamAt) {
		if j.pos == nil {
			j.pos = j.Positions()
		}
		p := append([]float64(nil), t.Positions...)
		p[1] = j.pos[1]
		t.Positions = p
		t.Velocities, t.Next, t.NextVelocities = nil, nil, nil
	}
	return j.Arm.WriteJointTarget(t)
}

// A joint that stops following aborts the goal with
// PATH_TOLERANCE_VIOLATED, and the arm stops where it is.
func TestArmSimPathToleranceStops(t *testing.T) {
	arm := newSim(t)
	j := &jammed{Arm: arm, jamAt: arm.Now().Add(sec(1.2))}
	cfg := arm.TrajectoryConfig()
	cfg.PathTolerance = []trajectory.Tolerance{{Position: 0.05}, {Position: 0.05}}
	s := newServer(t, j, cfg)
	start := arm.Now()
	h, err := s.Submit(threePoints("cubic"), start, nil)
	if err != nil {
		t.Fatal(err)
	}
	var abortedAt time.Time
	run(s, arm, start.Add(3*time.Second), func(now time.Time) {
		if abortedAt.IsZero() {
			select {
			case <-h.Done():
				abortedAt = now
			default:
			}
		}
	})
	r := h.Result()
	if r.Status != trajectory.Aborted || r.Code != trajectory.PathToleranceViolated {
		t.Fatalf("result %+v", r)
	}
	if d := abortedAt.Sub(start); d < sec(1.2) || d > sec(1.6) {
		t.Errorf("aborted %v after the start, want soon after the jam at 1.2 s", d)
	}
	t.Logf("aborted %v after the start: %s", abortedAt.Sub(start), r.Msg)
	held := arm.Positions()
	run(s, arm, arm.Now().Add(time.Second), nil)
	for i, q := range arm.Positions() {
		if q != held[i] || arm.Velocities()[i] != 0 {
			t.Errorf("joint %d moved from %g to %g after the abort", i, held[i], q)
		}
	}
}

// stale reports the arm's joints as measured at frozeAt from then on (a
// lost link: no new telemetry).
type stale struct {
	*armsim.Arm
	frozeAt time.Time
}

func (s *stale) JointPositions(dst []float64) (time.Time, error) {
	at, err := s.Arm.JointPositions(dst)
	if at.After(s.frozeAt) {
		at = s.frozeAt
	}
	return at, err
}

// A lost joint state (older than StateTimeout) aborts the goal and stops
// the arm at the last setpoint; an unreadable one refuses new goals.
func TestArmSimStateLostStops(t *testing.T) {
	arm := newSim(t)
	st := &stale{Arm: arm, frozeAt: arm.Now().Add(sec(1.5))}
	s := newServer(t, st, arm.TrajectoryConfig())
	start := arm.Now()
	h, err := s.Submit(threePoints("cubic"), start, nil)
	if err != nil {
		t.Fatal(err)
	}
	run(s, arm, start.Add(sec(1.65)), nil)
	r := h.Result()
	if r.Status != trajectory.Aborted || r.Code != trajectory.PathToleranceViolated {
		t.Fatalf("result %+v, want aborted on a lost state", r)
	}
	t.Logf("%s", r.Msg)
	run(s, arm, arm.Now().Add(sec(0.5)), nil)
	held := arm.Positions()
	run(s, arm, arm.Now().Add(time.Second), nil)
	if v := arm.Velocities(); v[0] != 0 || v[1] != 0 || arm.Positions()[0] != held[0] {
		t.Errorf("arm moving after the state was lost: %v", v)
	}
	if _, err := s.Submit(threePoints("cubic"), arm.Now(), nil); err == nil || errors.As(err, new(*trajectory.Error)) {
		t.Errorf("goal accepted or refused as invalid without a joint state: %v", err)
	}
}

// A newer goal preempts the running one, which ends Canceled; the arm
// goes on from where the first goal had it, without a jump, to the new
// goal's end. Cancel stops the arm.
func TestArmSimPreemptAndCancel(t *testing.T) {
	arm := newSim(t)
	s := newServer(t, arm, arm.TrajectoryConfig())
	start := arm.Now()
	h1, err := s.Submit(threePoints("cubic"), start, nil)
	if err != nil {
		t.Fatal(err)
	}
	run(s, arm, start.Add(sec(1.5)), nil)
	g2 := &trajectory.Goal{JointNames: []string{"b", "a"}, Points: []trajectory.Point{{Positions: []float64{-0.5, 0.2}, Velocities: []float64{0, 0}, TimeFromStart: sec(2)}}}
	before := arm.Positions()
	h2, err := s.Submit(g2, arm.Now(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if r := h1.Result(); r.Status != trajectory.Canceled {
		t.Fatalf("preempted goal: %+v", r)
	}
	arm.Advance(tick)
	for i, q := range arm.Positions() {
		if math.Abs(q-before[i]) > 0.02 {
			t.Errorf("joint %d jumped from %g to %g at the preemption", i, before[i], q)
		}
	}
	run(s, arm, arm.Now().Add(sec(2.2)), nil)
	if r := h2.Result(); r.Status != trajectory.Succeeded {
		t.Fatalf("second goal: %+v", r)
	}
	if p := arm.Positions(); math.Abs(p[0]-0.2) > 1e-9 || math.Abs(p[1]+0.5) > 1e-9 {
		t.Errorf("arm at %v, want [0.2 -0.5]", p)
	}

	h3, err := s.Submit(threePoints("linear"), arm.Now(), nil)
	if err != nil {
		t.Fatal(err)
	}
	run(s, arm, arm.Now().Add(sec(0.5)), nil)
	if !s.Cancel(h3, arm.Now()) || h3.Result().Status != trajectory.Canceled {
		t.Fatalf("cancel: %+v", h3.Result())
	}
	at := arm.Positions()
	run(s, arm, arm.Now().Add(sec(1)), nil)
	for i, q := range arm.Positions() {
		if math.Abs(q-at[i]) > 1e-9 {
			t.Errorf("joint %d went on from %g to %g after the cancel", i, at[i], q)
		}
	}
}

// A goal the arm cannot follow is refused with the JTC's code and moves
// nothing.
func TestArmSimRefusesInvalidGoals(t *testing.T) {
	arm := newSim(t)
	s := newServer(t, arm, arm.TrajectoryConfig())
	for _, tc := range []struct {
		g    *trajectory.Goal
		code trajectory.Code
	}{
		{&trajectory.Goal{JointNames: []string{"a", "c"}, Points: []trajectory.Point{{Positions: []float64{0, 0}, TimeFromStart: sec(1)}}}, trajectory.InvalidJoints},
		{&trajectory.Goal{JointNames: []string{"a", "b"}, Points: []trajectory.Point{{Positions: []float64{3, 0}, TimeFromStart: sec(5)}}}, trajectory.InvalidGoal},
		{&trajectory.Goal{JointNames: []string{"a", "b"}, Start: arm.Now().Add(-sec(3)), Points: []trajectory.Point{{Positions: []float64{0, 0}, TimeFromStart: sec(1)}}}, trajectory.OldHeaderTimestamp},
	} {
		_, err := s.Submit(tc.g, arm.Now(), nil)
		var e *trajectory.Error
		if !errors.As(err, &e) || e.Code != tc.code {
			t.Errorf("got %v, want %v", err, tc.code)
		}
	}
	if _, targets := arm.Violations(); targets != 0 {
		t.Errorf("%d targets written for refused goals", targets)
	}
}

// refusing refuses every target from refuseAt on (an e-stop latched).
type refusing struct {
	*armsim.Arm
	refuseAt time.Time
}

func (r *refusing) WriteJointTarget(t jog.JointTarget) error {
	if !t.Stamp.Before(r.refuseAt) {
		return errors.New("e-stopped")
	}
	return r.Arm.WriteJointTarget(t)
}

// A target the arm refuses aborts the goal: it would otherwise run on, and
// succeed, with the arm standing still.
func TestArmSimRefusedTargetAborts(t *testing.T) {
	arm := newSim(t)
	rf := &refusing{Arm: arm, refuseAt: arm.Now().Add(sec(1))}
	s := newServer(t, rf, arm.TrajectoryConfig())
	h, err := s.Submit(threePoints("cubic"), arm.Now(), nil)
	if err != nil {
		t.Fatal(err)
	}
	run(s, arm, arm.Now().Add(sec(1.5)), nil)
	r := h.Result()
	if r.Status != trajectory.Aborted || r.Code != trajectory.PathToleranceViolated {
		t.Fatalf("result %+v", r)
	}
	if n, err := s.WriteErrors(); n == 0 || err == nil {
		t.Errorf("write errors %d, %v", n, err)
	}
	t.Logf("%s", r.Msg)
}
