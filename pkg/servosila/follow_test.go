package servosila_test

import (
	"context"
	"math"
	"testing"
	"time"

	"github.com/telebridge/telebridge/pkg/servosila"
	servosilasim "github.com/telebridge/telebridge/pkg/servosila/sim"
)

// followPath is a path for the pure-pursuit follower: the arc-length
// parameter s of the point closest to (x, y), the signed cross-track
// error there [m, positive left of the path], and the point at s.
type followPath struct {
	name   string
	length float64 // [m]
	start  [3]float64
	near   func(x, y float64) (s, cte float64)
	at     func(s float64) (x, y float64)
}

// arcPath is a 90° left arc of radius r from the origin, heading +x,
// continued by a straight line past its end (for the lookahead).
func arcPath(r float64) followPath {
	return followPath{
		name:   "arc",
		length: r * math.Pi / 2,
		near: func(x, y float64) (float64, float64) {
			th := math.Max(0, math.Atan2(x, r-y))
			return r * th, r - math.Hypot(x, y-r)
		},
		at: func(s float64) (float64, float64) {
			if th := s / r; th < math.Pi/2 {
				return r * math.Sin(th), r - r*math.Cos(th)
			}
			return r, r + s - r*math.Pi/2
		},
	}
}

// linePath is the x axis, the robot starting off it by y0.
func linePath(length, y0 float64) followPath {
	return followPath{
		name:   "line",
		length: length,
		start:  [3]float64{0, y0, 0},
		near:   func(x, y float64) (float64, float64) { return x, y },
		at:     func(s float64) (float64, float64) { return s, 0 },
	}
}

// followed is what one run of the follower measured from the truth.
type followed struct {
	cte        []float64 // cross-track error at each step [m]
	s          []float64 // path parameter at each step [m]
	yawCmd     []float64 // commanded yaw rate at each step [rad/s]
	yawTrue    []float64 // yaw rate the simulator executes [rad/s]
	simSeconds float64
}

// follow drives the path with a pure-pursuit follower (speed v [m/s],
// lookahead l [m]) that reads the pose from the simulator's truth on
// each physics step (lock-step on Sim.Updated, no sleeps) and commands
// the driver with SetTwist. The robot starts at p.start in path
// coordinates; the truth starts at the origin, so poses are shifted.
func follow(t *testing.T, cfg servosila.Config, p followPath, v, l float64) followed {
	t.Helper()
	// Steps integrate at most 20 ms of simulated time: a late step on a
	// loaded machine slows the simulated clock instead of jumping, so the
	// follower (acting on every step) sees the same motion per step.
	r := startRigSim(t, cfg, servosilasim.Config{TelemetryRate: 50, PhysicsRate: 100, MaxStep: 20 * time.Millisecond})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second+time.Duration(4*p.length/v*float64(time.Second)))
	defer cancel()
	var out followed
	for {
		select {
		case <-r.sim.Updated():
		case <-ctx.Done():
			t.Fatalf("%s: follower did not reach the end within the deadline: s = %.2f of %.2f m", p.name, last(out.s), p.length)
		}
		st := r.sim.State()
		// Truth in path coordinates (start pose p.start).
		c, sn := math.Cos(p.start[2]), math.Sin(p.start[2])
		x := p.start[0] + c*st.Pose.X - sn*st.Pose.Y
		y := p.start[1] + sn*st.Pose.X + c*st.Pose.Y
		yaw := p.start[2] + st.Pose.Yaw
		s, cte := p.near(x, y)
		if s >= p.length {
			out.simSeconds = st.Elapsed.Seconds()
			r.stop(t)
			return out
		}
		gx, gy := p.at(s + l)
		dx, dy := gx-x, gy-y
		// The lookahead point in the robot frame.
		fx, fy := math.Cos(yaw)*dx+math.Sin(yaw)*dy, -math.Sin(yaw)*dx+math.Cos(yaw)*dy
		d := math.Hypot(fx, fy)
		w := 2 * v * (fy / d) / d // 2 v sin(alpha) / L
		if err := r.drv.SetTwist(v, w); err != nil {
			t.Fatal(err)
		}
		out.cte = append(out.cte, cte)
		out.s = append(out.s, s)
		out.yawCmd = append(out.yawCmd, w)
		out.yawTrue = append(out.yawTrue, st.Angular)
	}
}

func last(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	return xs[len(xs)-1]
}

// signChanges counts sign changes in xs, ignoring exact zeros.
func signChanges(xs []float64) int { return swings(xs, 0) }

// swings counts sign changes in xs between values of magnitude above eps
// (smaller ones, e.g. noise around zero once converged, are skipped).
func swings(xs []float64, eps float64) int {
	n, prev := 0, 0.0
	for _, x := range xs {
		if math.Abs(x) <= eps {
			continue
		}
		if prev != 0 && (x > 0) != (prev > 0) {
			n++
		}
		prev = x
	}
	return n
}

// maxAbs is the largest |xs[i]| for s[i] >= from.
func maxAbs(xs, s []float64, from float64) float64 {
	m := 0.0
	for i, x := range xs {
		if s[i] >= from {
			m = math.Max(m, math.Abs(x))
		}
	}
	return m
}

// TestPurePursuitArc follows the 90° arc of radius 4 m at 0.5 m/s (the
// Nav2 case of issue 10): the follower asks a steady yaw rate of about
// 0.125 rad/s, below the minimum start velocity, while driving forward.
// Judged by the simulator's truth: cross-track error under 1.5 cm after
// the first metre and no sign change of the commanded yaw rate. The rule
// of raising each part separately to 0.2 fails this (see docs/servosila.md).
func TestPurePursuitArc(t *testing.T) {
	t.Parallel()
	cfg := fastConfig()
	cfg.MaxLinear = 0.5
	got := follow(t, cfg, arcPath(4), 0.5, 0.8)
	cte := maxAbs(got.cte, got.s, 1.0)
	flips := signChanges(got.yawCmd)
	t.Logf("arc: %d steps over %.1f s simulated; max cross-track after 1 m %.2f cm; yaw-rate command sign changes %d; true yaw rate swings %d",
		len(got.s), got.simSeconds, 100*cte, flips, swings(got.yawTrue, 0.01))
	if cte >= 0.015 {
		t.Errorf("cross-track error %.2f cm from the truth, want < 1.5 cm", 100*cte)
	}
	if flips != 0 {
		t.Errorf("commanded yaw rate changed sign %d times on the arc, want 0", flips)
	}
}

// TestPurePursuitStraightNoWeave starts 0.1 m off a straight line: the
// follower converges and stays on it without weaving: it crosses the line
// at most once, the commanded and the true yaw rate (simulator) swing sign
// at most once (between values above 0.01 rad/s), and after
// 2.5 m the cross-track error stays within 1 cm.
func TestPurePursuitStraightNoWeave(t *testing.T) {
	t.Parallel()
	cfg := fastConfig()
	cfg.MaxLinear = 0.5
	got := follow(t, cfg, linePath(4, 0.1), 0.5, 0.8)
	tail := maxAbs(got.cte, got.s, 2.5)
	// Crossings of the line by more than 1 mm, swings of the command
	// between yaw rates above 0.01 rad/s: noise around zero once
	// converged is not weaving.
	crossings := swings(got.cte, 0.001)
	flips := swings(got.yawCmd, 0.01)
	truth := swings(got.yawTrue, 0.01)
	t.Logf("line: %d steps over %.1f s simulated; max cross-track after 2.5 m %.2f cm; line crossings %d; yaw-rate swings: command %d (all sign changes %d), truth %d",
		len(got.s), got.simSeconds, 100*tail, crossings, flips, signChanges(got.yawCmd), truth)
	if tail >= 0.01 {
		t.Errorf("cross-track error %.2f cm after 2.5 m, want < 1 cm", 100*tail)
	}
	if crossings > 1 || flips > 1 || truth > 1 {
		t.Errorf("weaving: crossed the line %d times, yaw rate swung %d times in the command, %d in the truth", crossings, flips, truth)
	}
}
