package jog_test

import (
	"math"
	"testing"
	"time"

	"github.com/telebridge/telebridge/pkg/geom"
	"github.com/telebridge/telebridge/pkg/jog"
	"gonum.org/v1/gonum/spatial/r3"
)

// lookaheadMoves start the moves whose profile no later cycle retargets,
// so that each target's Next must be exactly the following target.
var lookaheadMoves = []struct {
	name   string
	params func() *jog.Params
	start  func(t *testing.T, r *rig)
}{
	{"PTP joint goal", func() *jog.Params {
		p := testParams()
		p.JointsGoal.Velocity = 40
		return p
	}, func(t *testing.T, r *rig) {
		goal := []float64{0.9, -1.2, 1.0, -1.2, -1.0, 1.5}
		if err := r.ctrl.StartJointMove(r.now(), jog.JointMoveRequest{JointValues: goal, Speed: 1}); err != nil {
			t.Fatal(err)
		}
	}},
	{"LIN goal", linParams, func(t *testing.T, r *rig) {
		start, _ := r.ctrl.Chain().FK(home)
		goal := start.Mul(geom.Transform{Rotation: geom.FromEulerZYX(0.3, 0, 0)})
		goal.Translation = r3.Add(start.Translation, r3.Vec{X: 0.15, Y: -0.1, Z: 0.2})
		if err := r.ctrl.StartCartesianMove(r.now(), jog.CartesianMoveRequest{PoseReference: "base_link", Pose: jog.EulerPoseOf(goal), Speed: 1}); err != nil {
			t.Fatal(err)
		}
	}},
	{"PTP Cartesian goal", testParams, func(t *testing.T, r *rig) {
		start, _ := r.ctrl.Chain().FK(home)
		goal := start
		goal.Translation = r3.Add(start.Translation, r3.Vec{X: -0.1, Z: 0.1})
		if err := r.ctrl.StartCartesianMove(r.now(), jog.CartesianMoveRequest{PoseReference: "base_link", Pose: jog.EulerPoseOf(goal), Speed: 1}); err != nil {
			t.Fatal(err)
		}
	}},
}

// TestNextIsTheFollowingPoint: every target of a motion carries the
// profile's point one period later as Next, exactly the point the next
// cycle sends, due one period after the first; the final point (arrived)
// and rest points carry none.
func TestNextIsTheFollowingPoint(t *testing.T) {
	for _, m := range lookaheadMoves {
		t.Run(m.name, func(t *testing.T) {
			r := newRig(t, jog.Config{Params: m.params()}, home)
			m.start(t, r)
			r.runUntilIdle(400)
			if len(r.targets) < 10 {
				t.Fatalf("%d targets", len(r.targets))
			}
			withNext := 0
			for k, tg := range r.targets {
				if tg.Next == nil {
					if k+1 < len(r.targets) && maxAbsDiff(r.targets[k+1].Positions, tg.Positions) > 1e-12 {
						t.Fatalf("target %d has no Next, but the arm moves on", k)
					}
					continue
				}
				withNext++
				if tg.NextTimeFromStart != tg.TimeFromStart+r.period {
					t.Fatalf("target %d: Next due at %v, the point at %v", k, tg.NextTimeFromStart, tg.TimeFromStart)
				}
				if k+1 == len(r.targets) {
					t.Fatalf("the last target has a Next")
				}
				nx := r.targets[k+1]
				if d, dv := maxAbsDiff(tg.Next, nx.Positions), maxAbsDiff(tg.NextVelocities, nx.Velocities); d > 1e-12 || dv > 1e-12 {
					t.Fatalf("target %d: Next %v %v, the next target %v %v", k, tg.Next, tg.NextVelocities, nx.Positions, nx.Velocities)
				}
			}
			if withNext < len(r.targets)-3 {
				t.Fatalf("only %d of %d targets carry a Next", withNext, len(r.targets))
			}
		})
	}
}

// TestLateTargetsKeepTheProfile: targets that reach the arm late (20 ms
// of a 50 ms period, every third cycle) leave the simulated arm's truth
// exactly as on time, because each target's Next carries the arm through
// the delay and the stamped times keep the schedule. The same delays
// without Next stop the arm at each point until the late target comes:
// the truth's accelerations then exceed the limit, which is what the ROS
// check measured under CI load before targets carried a Next.
func TestLateTargetsKeepTheProfile(t *testing.T) {
	run := func(lateEvery int, noNext bool) *rig {
		p := testParams()
		p.JointsGoal.Velocity = 40
		r := newRig(t, jog.Config{Params: p}, home)
		r.sub = 10 // 5 ms samples: the truth between the cycles as well
		r.lateEvery, r.lateBy, r.noNext = lateEvery, 20*time.Millisecond, noNext
		lookaheadMoves[0].start(t, r)
		r.runUntilIdle(400)
		r.settle()
		return r
	}
	onTime, late, lateNoNext := run(0, false), run(3, false), run(3, true)
	if len(late.truth) != len(onTime.truth) {
		t.Fatalf("%d cycles late, %d on time", len(late.truth), len(onTime.truth))
	}
	var dev float64
	for k := range onTime.fine {
		dev = math.Max(dev, maxAbsDiff(late.fine[k], onTime.fine[k]))
	}
	if dev > 1e-9 {
		t.Fatalf("late targets moved the truth by up to %g rad", dev)
	}
	if l, off := late.arm.Timing(); l != 0 || off != 0 {
		t.Fatalf("the arm counted %d late targets and %d stamps off its clock", l, off)
	}
	checkDynamics(t, late, 0, 1)
	// Between the cycles: 5 ms differences, as joint_states at 200 Hz.
	_, fa := late.fineDynamics()
	_, faNoNext := lateNoNext.fineDynamics()
	amax := late.ctrl.AccelerationLimits()
	worst, worstNoNext := 0.0, 0.0
	for j := range fa {
		worst = math.Max(worst, fa[j]/amax[j])
		worstNoNext = math.Max(worstNoNext, faNoNext[j]/amax[j])
	}
	if worst > 1+dynTol {
		t.Fatalf("late targets: accelerations between the cycles up to %.3f times the limit", worst)
	}
	if worstNoNext < 1.5 {
		t.Fatalf("without Next the late targets stay within %.2f of the acceleration limit: the test does not exercise the delay", worstNoNext)
	}
	t.Logf("20 ms late every third target: truth unchanged (%.1g rad), accelerations up to %.3f of the limit; without Next up to %.1f times the limit", dev, worst, worstNoNext)
}
