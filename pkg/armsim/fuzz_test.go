package armsim

import (
	"math"
	"testing"
	"time"

	"github.com/telebridge/telebridge/pkg/jog"
)

// FuzzWriteJointTarget: arm_sim takes targets from the network. Any
// target either is refused (ErrTarget, the arm unchanged) or is followed
// without panic; with finite inputs of sane size the truth stays finite.
func FuzzWriteJointTarget(f *testing.F) {
	f.Add(0.5, 0.15, 0.0, 0.0, int64(time.Second), true, int64(time.Millisecond))
	f.Add(math.NaN(), 0.0, 0.0, 0.0, int64(0), false, int64(time.Millisecond))
	f.Add(1.0, 0.2, 3.0, -1.0, int64(-5), true, int64(time.Hour))
	f.Add(1e300, 0.2, 1e300, -1.0, int64(1), true, int64(time.Second))
	f.Fuzz(func(t *testing.T, p0, p1, v0, v1 float64, tfs int64, withVel bool, dt int64) {
		a, err := New(Config{Names: []string{"a", "b"}, MaxVelocity: []float64{1, 0.1}})
		if err != nil {
			t.Fatal(err)
		}
		tg := jog.JointTarget{JointNames: []string{"a", "b"}, Positions: []float64{p0, p1}, TimeFromStart: time.Duration(tfs)}
		if withVel {
			tg.Velocities = []float64{v0, v1}
		}
		before := a.Positions()
		if err := a.WriteJointTarget(tg); err != nil {
			if q := a.Positions(); q[0] != before[0] || q[1] != before[1] {
				t.Fatalf("refused target moved the arm: %v", q)
			}
			return
		}
		a.Advance(time.Duration(dt % int64(time.Hour)))
		sane := true
		for _, x := range []float64{p0, p1, v0, v1} {
			sane = sane && math.Abs(x) < 1e6
		}
		if sane {
			for _, q := range append(a.Positions(), a.Velocities()...) {
				if math.IsNaN(q) || math.IsInf(q, 0) {
					t.Fatalf("truth %v, %v from %+v", a.Positions(), a.Velocities(), tg)
				}
			}
		}
	})
}

// FuzzWriteJointTargetNext: a two-point target with a stamp (arm_sim
// reads both from a JointTrajectory message) is refused or followed
// without panic; with finite inputs of sane size the truth stays finite.
func FuzzWriteJointTargetNext(f *testing.F) {
	f.Add(0.05, 1.0, 0.1, 1.0, int64(50*time.Millisecond), int64(100*time.Millisecond), int64(20*time.Millisecond), int64(5*time.Millisecond))
	f.Add(0.05, 1.0, 0.1, 1.0, int64(50*time.Millisecond), int64(100*time.Millisecond), int64(-900*time.Millisecond), int64(time.Second))
	f.Add(1e300, -1.0, math.Inf(1), 0.0, int64(1), int64(2), int64(2*time.Second), int64(1))
	f.Fuzz(func(t *testing.T, p, v, np, nv float64, tfs, ntfs, age, dt int64) {
		a, err := New(Config{Names: []string{"a", "b"}, MaxVelocity: []float64{1, 0.1}})
		if err != nil {
			t.Fatal(err)
		}
		tg := jog.JointTarget{
			Stamp: a.Now().Add(-time.Duration(age)), JointNames: []string{"a", "b"},
			Positions: []float64{p, 0}, Velocities: []float64{v, 0}, TimeFromStart: time.Duration(tfs),
			Next: []float64{np, 0}, NextVelocities: []float64{nv, 0}, NextTimeFromStart: time.Duration(ntfs),
		}
		before := a.Positions()
		if err := a.WriteJointTarget(tg); err != nil {
			if q := a.Positions(); q[0] != before[0] || q[1] != before[1] {
				t.Fatalf("refused target moved the arm: %v", q)
			}
			return
		}
		for range 4 {
			a.Advance(time.Duration(dt % int64(time.Minute)))
		}
		sane := time.Duration(ntfs-tfs) >= time.Microsecond
		for _, x := range []float64{p, v, np, nv} {
			sane = sane && math.Abs(x) < 1e6
		}
		if sane {
			for _, q := range append(a.Positions(), a.Velocities()...) {
				if math.IsNaN(q) || math.IsInf(q, 0) {
					t.Fatalf("truth %v, %v from %+v", a.Positions(), a.Velocities(), tg)
				}
			}
		}
	})
}
