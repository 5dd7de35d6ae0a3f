package jog_test

import (
	"errors"
	"math"
	"os"
	"runtime"
	"testing"
	"time"

	"github.com/telebridge/telebridge/pkg/geom"
	"github.com/telebridge/telebridge/pkg/jog"
	"github.com/telebridge/telebridge/pkg/kinematics"
	"gonum.org/v1/gonum/spatial/r3"
)

// Tolerance of the finite-difference checks over the simulator's truth:
// the truth is sampled once per cycle, where the profile's points are, so
// velocities and accelerations match the profile's up to rounding.
const dynTol = 1e-6

// checkDynamics fails if a joint's finite-difference velocity or
// acceleration over the truth exceeds its limit (times scale).
func checkDynamics(t *testing.T, r *rig, from int, accScale float64) (vel, acc []float64) {
	t.Helper()
	vel, acc = r.dynamics(from)
	vmax, amax := r.ctrl.VelocityLimits(), r.ctrl.AccelerationLimits()
	for j := range vel {
		if vel[j] > vmax[j]*(1+dynTol) {
			t.Errorf("joint %d: speed %g over its limit %g", j, vel[j], vmax[j])
		}
		if acc[j] > amax[j]*accScale*(1+dynTol) {
			t.Errorf("joint %d: acceleration %g over its limit %g", j, acc[j], amax[j]*accScale)
		}
	}
	return vel, acc
}

// TestPTPSynchronised: an absolute joint goal from rest is a trapezoid in
// every joint, all starting and arriving together, within the velocity
// and acceleration limits (per joint acceleration limits given), judged
// on the simulator's truth.
func TestPTPSynchronised(t *testing.T) {
	p := testParams()
	p.JointsGoal.Velocity = 40
	p.JointAccelerations = []float64{1, 1, 2, 4, 4, 4}
	r := newRig(t, jog.Config{Params: p}, home)
	goal := []float64{0.9, -1.2, 1.0, -1.2, -1.0, 1.5}
	if err := r.ctrl.StartJointMove(r.now(), jog.JointMoveRequest{JointValues: goal, Speed: 1}); err != nil {
		t.Fatal(err)
	}
	n := r.runUntilIdle(400)
	r.settle()
	if d := maxAbsDiff(r.arm.Positions(), goal); d > 1e-12 {
		t.Fatalf("ended %g from the goal", d)
	}
	_, acc := checkDynamics(t, r, 0, 1)
	// The slowest joint sets the pace and uses its whole limit; the
	// others scale down to arrive together.
	if acc[0] < 0.99 {
		t.Errorf("pan acceleration %g, want its 1 rad/s² limit", acc[0])
	}
	// Together: every joint covers the same fraction of its way at every
	// cycle (a single normalised profile).
	for k, q := range r.truth {
		f0 := (q[0] - home[0]) / (goal[0] - home[0])
		for j := 1; j < len(q); j++ {
			if f := (q[j] - home[j]) / (goal[j] - home[j]); math.Abs(f-f0) > 1e-9 {
				t.Fatalf("cycle %d: joint %d at %.6f of its way, pan at %.6f", k, j, f, f0)
			}
		}
	}
	t.Logf("PTP took %d cycles; top accelerations %v", n, acc)
}

// settle runs two idle cycles: the last point sent is reached one cycle
// after the controller saw the arm near it.
func (r *rig) settle() {
	for range 2 {
		if _, ok, _ := r.cycle(); ok {
			r.t.Fatal("a target after the move ended")
		}
	}
}

// linParams are the test parameters with LIN for absolute Cartesian
// goals.
func linParams() *jog.Params {
	p := testParams()
	p.CartesianGoalCommandTypeTranslational = jog.CommandLIN
	p.CartesianGoalCommandTypeRotational = jog.CommandLIN
	return p
}

// lineDeviation returns the largest distance of the tool (FK of the
// truth) from the segment a-b [m].
func lineDeviation(r *rig, from int, a, b r3.Vec) float64 {
	var dev float64
	ab := r3.Sub(b, a)
	for _, q := range r.truth[from:] {
		tool, _ := r.ctrl.Chain().FK(q)
		f := math.Max(0, math.Min(1, r3.Dot(r3.Sub(tool.Translation, a), ab)/r3.Dot(ab, ab)))
		dev = math.Max(dev, r3.Norm(r3.Sub(tool.Translation, r3.Add(a, r3.Scale(f, ab)))))
	}
	return dev
}

// TestLINFollowsTheLine: a LIN goal moves the tool (FK of the simulator's
// truth) along the straight line at cartesian_goal_velocity_lin, turning
// the tool by slerp, within the joint limits, and ends at the goal.
func TestLINFollowsTheLine(t *testing.T) {
	r := newRig(t, jog.Config{Params: linParams()}, home)
	r.sub = 10 // the truth between the points as well
	start, _ := r.ctrl.Chain().FK(home)
	goal := start.Mul(geom.Transform{Translation: r3.Vec{X: 0.15, Y: -0.1, Z: 0.2}, Rotation: geom.FromEulerZYX(0.3, 0, 0)})
	goal.Translation = r3.Add(start.Translation, r3.Vec{X: 0.15, Y: -0.1, Z: 0.2})
	req := jog.CartesianMoveRequest{PoseReference: "base_link", Pose: jog.EulerPoseOf(goal), Speed: 1}
	if err := r.ctrl.StartCartesianMove(r.now(), req); err != nil {
		t.Fatal(err)
	}
	if m := r.ctrl.Status().Mode; m != jog.CartesianLine {
		t.Fatalf("mode %v", m)
	}
	n := r.runUntilIdle(400)
	r.settle()
	end, _ := r.ctrl.Chain().FK(r.arm.Positions())
	if d, a := geom.Distance(end, goal); d > 2e-5 || a > 2e-5 {
		t.Fatalf("ended %g m, %g rad from the goal", d, a)
	}
	dev := lineDeviation(r, 0, start.Translation, goal.Translation)
	if dev > 1e-3 {
		t.Fatalf("tool left the line by %g m", dev)
	}
	checkDynamics(t, r, 0, 1)
	// Orientation by slerp: at every cycle the tool's rotation is the
	// slerp at the fraction of the way the position is.
	length := r3.Norm(r3.Sub(goal.Translation, start.Translation))
	var top, rotDev float64
	for k, q := range r.truth {
		tool, _ := r.ctrl.Chain().FK(q)
		f := r3.Norm(r3.Sub(tool.Translation, start.Translation)) / length
		rotDev = math.Max(rotDev, tool.Rotation.AngleTo(geom.Slerp(start.Rotation, goal.Rotation, f)))
		if k > 0 {
			prev, _ := r.ctrl.Chain().FK(r.truth[k-1])
			top = math.Max(top, r3.Norm(r3.Sub(tool.Translation, prev.Translation))/r.period.Seconds())
		}
	}
	if rotDev > 1e-4 {
		t.Fatalf("orientation left the slerp by %g rad", rotDev)
	}
	if math.Abs(top-0.1) > 1e-3 {
		t.Fatalf("top tool speed %g m/s, want 0.1", top)
	}
	if v, _ := r.arm.Violations(); v != 0 {
		t.Fatalf("%d targets outside the limits", v)
	}
	// Between the points (a tenth of a cycle), the truth's joint
	// accelerations exceed the limit by at most 10 %: the joint path
	// curves within a cycle, which the cubic segments approximate.
	fv, fa := r.fineDynamics()
	vmax, amax := r.ctrl.VelocityLimits(), r.ctrl.AccelerationLimits()
	for j := range fv {
		if fv[j] > vmax[j] || fa[j] > 1.1*amax[j] {
			t.Errorf("joint %d between points: %g rad/s, %g rad/s²", j, fv[j], fa[j])
		}
	}
	t.Logf("between points: top accelerations %.3f rad/s²", fa)
	t.Logf("LIN %.3f m in %d cycles: deviation from the line %.2g m, from the slerp %.2g rad", length, n, dev, rotDev)
}

// TestLINRotationOnly: a goal that only turns the tool keeps the tool
// point still (within 1 mm) and turns at cartesian_goal_velocity_lin
// [rad/s].
func TestLINRotationOnly(t *testing.T) {
	p := linParams()
	p.CartesianGoalLinVelocity = 0.5
	r := newRig(t, jog.Config{Params: p}, home)
	start, _ := r.ctrl.Chain().FK(home)
	goal := start.Mul(geom.Rotation(geom.FromEulerZYX(0, 0.4, 0.3)))
	if err := r.ctrl.StartCartesianMove(r.now(), jog.CartesianMoveRequest{PoseReference: "base_link", Pose: jog.EulerPoseOf(goal), Speed: 1}); err != nil {
		t.Fatal(err)
	}
	r.runUntilIdle(400)
	r.settle()
	var drift, top float64
	for k, q := range r.truth {
		tool, _ := r.ctrl.Chain().FK(q)
		drift = math.Max(drift, r3.Norm(r3.Sub(tool.Translation, start.Translation)))
		if k > 0 {
			prev, _ := r.ctrl.Chain().FK(r.truth[k-1])
			top = math.Max(top, prev.Rotation.AngleTo(tool.Rotation)/r.period.Seconds())
		}
	}
	if drift > 1e-3 {
		t.Fatalf("tool point drifted %g m", drift)
	}
	if top > 0.5*(1+1e-3) || top < 0.45 {
		t.Fatalf("top turn rate %g rad/s, want 0.5", top)
	}
	checkDynamics(t, r, 0, 1)
	end, _ := r.ctrl.Chain().FK(r.arm.Positions())
	if d, a := geom.Distance(end, goal); d > 2e-5 || a > 2e-5 {
		t.Fatalf("ended %g m, %g rad from the goal", d, a)
	}
}

// TestLINRefusedBeforeMotion: a line that leaves the workspace, or on
// which a joint would exceed its velocity limit, is refused with the
// reason, and nothing moves.
func TestLINRefusedBeforeMotion(t *testing.T) {
	for _, tc := range []struct {
		name  string
		delta r3.Vec
		speed float64 // cartesian_goal_velocity_lin [m/s]
		want  string
	}{
		{"out of reach", r3.Vec{X: 1.5}, 0.1, "leaves the reachable joint range"},
		{"too fast for the joints", r3.Vec{Z: 0.2}, 3, "over its limit"},
		{"far beyond the reach (found by FuzzRequests)", r3.Vec{X: 48.7, Z: -93510}, 0.1, "beyond the arm's reach"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := linParams()
			p.CartesianGoalLinVelocity = tc.speed
			r := newRig(t, jog.Config{Params: p}, home)
			start, _ := r.ctrl.Chain().FK(home)
			goal := start
			goal.Translation = r3.Add(start.Translation, tc.delta)
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			err := r.ctrl.StartCartesianMove(r.now(), jog.CartesianMoveRequest{PoseReference: "base_link", Pose: jog.EulerPoseOf(goal), Speed: 1})
			runtime.ReadMemStats(&after)
			if !errors.Is(err, jog.ErrUnreachable) || !contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
			// The line's samples are allocated before they are solved:
			// a refusal must not have cost more than a line across the
			// arm's reach (the far goal once took 5 GB).
			if n := after.TotalAlloc - before.TotalAlloc; n > 1<<20 {
				t.Fatalf("the refusal allocated %d bytes", n)
			}
			t.Log(err)
			for range 10 {
				if tg, ok, _ := r.beatAndCycle(); ok {
					t.Fatalf("sent %+v", tg)
				}
			}
			if d := maxAbsDiff(r.arm.Positions(), home); d != 0 {
				t.Fatalf("arm moved %g", d)
			}
		})
	}
}

func contains(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return true
		}
	}
	return false
}

// TestLINHeartbeatLoss: heartbeats stop in the middle of a LIN move: the
// arm (truth) is at rest within heartbeat_timeout + one cycle +
// max_stop_time of the last heartbeat, decelerating within the limits,
// and the tool stays within 1 mm of the line.
func TestLINHeartbeatLoss(t *testing.T) {
	p := linParams()
	p.CartesianGoalLinVelocity = 0.25
	r := newRig(t, jog.Config{Params: p}, home)
	start, _ := r.ctrl.Chain().FK(home)
	goal := start
	goal.Translation = r3.Add(start.Translation, r3.Vec{X: 0.25, Y: 0.05, Z: 0.1})
	if err := r.ctrl.StartCartesianMove(r.now(), jog.CartesianMoveRequest{PoseReference: "base_link", Pose: jog.EulerPoseOf(goal), Speed: 1}); err != nil {
		t.Fatal(err)
	}
	for range 20 {
		r.beatAndCycle()
	}
	if _, v := r.ctrl.Commanded(); maxAbsDiff(v, make([]float64, len(v))) == 0 {
		t.Fatal("not moving mid-line")
	}
	lastBeat := r.now().Add(-r.period)
	var restAt time.Time
	for range 40 {
		before := r.arm.Positions()
		r.cycle()
		if maxAbsDiff(before, r.arm.Positions()) == 0 && r.ctrl.Status().Mode == jog.Idle {
			restAt = r.now().Add(-r.period)
			break
		}
	}
	if restAt.IsZero() {
		t.Fatal("never at rest")
	}
	bound := 200*time.Millisecond + r.period + 500*time.Millisecond
	if d := restAt.Sub(lastBeat); d > bound {
		t.Fatalf("at rest %v after the last heartbeat, bound %v", d, bound)
	} else {
		t.Logf("at rest %v after the last heartbeat (bound %v)", d, bound)
	}
	if s := r.ctrl.Status(); s.Reason != "heartbeat timeout" {
		t.Fatalf("status %+v", s)
	}
	checkDynamics(t, r, 0, 1)
	if dev := lineDeviation(r, 0, start.Translation, goal.Translation); dev > 1e-3 {
		t.Fatalf("tool left the line by %g m while stopping", dev)
	}
}

// TestLINWhileMovingRefused: a LIN goal starts from rest.
func TestLINWhileMovingRefused(t *testing.T) {
	r := newRig(t, jog.Config{Params: linParams()}, home)
	_ = r.ctrl.StartJointMove(r.now(), jog.JointMoveRequest{MoveDelta: true, JointValues: []float64{1, 0, 0, 0, 0, 0}, Speed: 1})
	r.beatAndCycle()
	start, _ := r.ctrl.Chain().FK(home)
	start.Translation.Z += 0.05
	err := r.ctrl.StartCartesianMove(r.now(), jog.CartesianMoveRequest{PoseReference: "base_link", Pose: jog.EulerPoseOf(start), Speed: 1})
	if !errors.Is(err, jog.ErrRequest) || r.ctrl.Status().Mode != jog.JointDelta {
		t.Fatalf("err %v, mode %v", err, r.ctrl.Status().Mode)
	}
}

// TestSoftLimits: on an arm whose URDF has safety controllers, the jog
// server keeps within the soft limits: a jog parks at the soft limit, a
// goal between the soft and the hard limit is refused.
func TestSoftLimits(t *testing.T) {
	f, err := os.Open("../kinematics/testdata/ur5_soft.urdf")
	if err != nil {
		t.Fatal(err)
	}
	chain, err := kinematics.ParseURDF(f, "base_link", "tool0")
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	r := newRig(t, jog.Config{Chain: chain}, home)
	if _, hi := r.ctrl.Limits(); hi[1] != 0 {
		t.Fatalf("shoulder lift upper limit %g, want the soft 0", hi[1])
	}
	_ = r.ctrl.StartJointMove(r.now(), jog.JointMoveRequest{MoveDelta: true, JointValues: []float64{0, 1, 0, 0, 0, 0}, Speed: 1})
	for range 400 {
		r.beatAndCycle()
	}
	if q := r.arm.Positions(); math.Abs(q[1]) > 1e-9 {
		t.Fatalf("shoulder lift at %g, want parked at its soft limit 0", q[1])
	}
	if v, _ := r.arm.Violations(); v != 0 {
		t.Fatalf("%d targets beyond the soft limits", v)
	}
	goal := append([]float64(nil), home...)
	goal[1] = 0.5 // within the hard limits (±2π), beyond the soft (0)
	if err := r.ctrl.StartJointMove(r.now(), jog.JointMoveRequest{JointValues: goal, Speed: 1}); !errors.Is(err, jog.ErrRequest) {
		t.Fatalf("goal beyond the soft limit: %v", err)
	}
}

// TestGoalQueueAndBlending: with joints_goal_replace false a second goal
// waits behind the first; PTP stops exactly at the first, PTPCP blends past it
// within the blending radius without stopping; with replace true the
// second goal takes over at once. Judged on the truth.
func TestGoalQueueAndBlending(t *testing.T) {
	g1 := []float64{0.7, -1.2, 1.3, -1.6, -1.3, 0.6}
	g2 := []float64{1.2, -1.0, 1.0, -1.4, -1.1, 0.9}
	g2r := []float64{-0.3, -1.6, 1.9, -2.0, -1.8, 0.1} // away from g1
	for _, tc := range []struct {
		name    string
		replace bool
		cmd     string
		blend   float64
	}{
		{"queued PTP", false, "PTP", 0.1},
		{"queued PTPCP", false, "PTPCP", 0.1},
		{"replace", true, "PTP", 0.1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := testParams()
			p.JointsGoal.Replace, p.JointsGoal.CommandType, p.JointsGoal.Blending = tc.replace, tc.cmd, tc.blend
			p.JointsGoal.Velocity = 20
			r := newRig(t, jog.Config{Params: p}, home)
			if err := r.ctrl.StartJointMove(r.now(), jog.JointMoveRequest{JointValues: g1, Speed: 1}); err != nil {
				t.Fatal(err)
			}
			beats(r, 5)
			second := g2
			if tc.replace {
				second = g2r
			}
			if err := r.ctrl.StartJointMove(r.now(), jog.JointMoveRequest{JointValues: second, Speed: 1}); err != nil {
				t.Fatal(err)
			}
			if q := r.ctrl.Status().Queued; q != map[bool]int{false: 1, true: 0}[tc.replace] {
				t.Fatalf("%d queued", q)
			}
			r.runUntilIdle(400)
			r.settle()
			if d := maxAbsDiff(r.arm.Positions(), second); d > 1e-12 {
				t.Fatalf("ended %g from the second goal", d)
			}
			closest, rests := 10.0, 0
			for k := 1; k < len(r.truth)-3; k++ {
				closest = math.Min(closest, maxAbsDiff(r.truth[k], g1))
				if k > 5 && maxAbsDiff(r.truth[k], r.truth[k-1]) == 0 {
					rests++
				}
			}
			switch {
			case tc.name == "queued PTP" && closest != 0:
				// An exact stop: the profile reaches the first goal at rest.
				t.Fatalf("PTP: closest %g to the first goal", closest)
			case tc.name == "queued PTPCP" && (closest == 0 || closest > tc.blend || rests != 0):
				t.Fatalf("PTPCP: closest %g to the first goal (blending %g), %d cycles at rest", closest, tc.blend, rests)
			case tc.replace && closest < 0.1:
				t.Fatalf("replace: came within %g of the first goal", closest)
			}
			checkDynamics(t, r, 0, 1)
			t.Logf("closest to the first goal %.4f rad, %d cycles at rest", closest, rests)
		})
	}
}
