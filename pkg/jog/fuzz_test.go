package jog_test

import (
	"testing"

	"github.com/telebridge/telebridge/pkg/jog"
)

// FuzzRequests: any request, good or bad (absolute Cartesian goals as
// LIN when ref has bit 2), then 20 cycles against the simulated arm:
// nothing panics, a refused request moves nothing, no target ever leaves
// the joint limits, and the truth stays within the velocity and
// acceleration limits.
func FuzzRequests(f *testing.F) {
	f.Add(false, true, 0.0, 0.0, -1.0, 0.0, 0.0, 0.0, 1.0, uint8(0))
	f.Add(false, false, -0.3, -1.2, 1.2, -1.5, -1.2, 0.8, 0.5, uint8(0))
	f.Add(true, true, 0.0, 0.0, 1.0, 0.0, 0.0, 0.5, 1.0, uint8(1))
	f.Add(true, false, -0.5, -0.2, 0.3, 0.0, 3.1, 0.0, 1.0, uint8(0))
	f.Add(true, false, 5.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, uint8(2))
	f.Add(false, true, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, uint8(3))
	f.Add(true, false, -0.45, -0.25, 0.4, 1.47, 0.0, -3.1, 1.0, uint8(5))
	f.Add(true, false, 3.0, -0.2, 0.35, 1.47, 0.0, -3.1, 1.0, uint8(5))
	chain := ur5(f)
	f.Fuzz(func(t *testing.T, cartesian, delta bool, a, b, c, d, e, g, speed float64, ref uint8) {
		p := testParams()
		if ref&4 != 0 {
			p = linParams()
		}
		r := newRig(t, jog.Config{Chain: chain, Params: p}, home)
		lo, hi := r.ctrl.Limits()
		var err error
		if cartesian {
			refs := []string{"", "base_link", "tool0", "nowhere"}
			err = r.ctrl.StartCartesianMove(r.now(), jog.CartesianMoveRequest{
				PoseReference: refs[int(ref)%len(refs)], MoveDelta: delta,
				Pose: jog.EulerPose{X: a, Y: b, Z: c, RZ: d, RY: e, RX: g}, Speed: speed,
			})
		} else {
			err = r.ctrl.StartJointMove(r.now(), jog.JointMoveRequest{MoveDelta: delta, JointValues: []float64{a, b, c, d, e, g}, Speed: speed})
		}
		for range 20 {
			tg, ok, _ := r.beatAndCycle()
			if ok && err != nil && !tg.Hold {
				t.Fatalf("refused request (%v) sent %+v", err, tg)
			}
			for j, q := range tg.Positions {
				if q < lo[j] || q > hi[j] {
					t.Fatalf("target %v outside the limits at joint %d", tg.Positions, j)
				}
			}
		}
		if v, _ := r.arm.Violations(); v != 0 {
			t.Fatalf("%d targets outside the limits", v)
		}
		checkDynamics(t, r, 0, 1)
	})
}
