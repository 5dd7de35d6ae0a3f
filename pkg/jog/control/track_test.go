package control_test

import (
	"math"
	"testing"

	"github.com/telebridge/telebridge/pkg/jog/control"
)

// TestTrackLimitsSynchronised: from rest, joints with different
// distances and limits cover the same fraction of their way every cycle
// and arrive together, none over its own limits.
func TestTrackLimitsSynchronised(t *testing.T) {
	const dt = 0.05
	q := []float64{0, 1, -0.5}
	v := make([]float64, 3)
	goal := []float64{0.8, 0.9, 0.7}
	vmax := []float64{1, 0.5, 2}
	amax := []float64{2, 4, 1}
	lo := []float64{-3, -3, -3}
	hi := []float64{3, 3, 3}
	tv, ta := make([]float64, 3), make([]float64, 3)
	control.TrackLimits(tv, ta, q, v, goal, vmax, amax, 50, 100, 0.8)
	for i := range tv {
		if tv[i] > vmax[i]*0.5*0.8+1e-12 || ta[i] > amax[i]+1e-12 {
			t.Fatalf("joint %d: limits %g, %g over %g, %g", i, tv[i], ta[i], vmax[i]*0.4, amax[i])
		}
	}
	start := append([]float64(nil), q...)
	for k := 0; k < 1000; k++ {
		done := control.TrackStep(q, v, q, v, goal, tv, ta, lo, hi, dt)
		f0 := (q[0] - start[0]) / (goal[0] - start[0])
		for i := range q {
			if f := (q[i] - start[i]) / (goal[i] - start[i]); math.Abs(f-f0) > 1e-9 {
				t.Fatalf("cycle %d: joint %d at %.12f of its way, joint 0 at %.12f", k, i, f, f0)
			}
		}
		if done {
			for i := range q {
				if q[i] != goal[i] || v[i] != 0 {
					t.Fatalf("arrived with joint %d at %g (goal %g), %g", i, q[i], goal[i], v[i])
				}
			}
			return
		}
	}
	t.Fatal("never arrived")
}

// TestTrackStepLookahead: a step written elsewhere (the lookahead) is
// the step taken in place, and leaves the state unchanged.
func TestTrackStepLookahead(t *testing.T) {
	q, v := []float64{0.1, -0.2}, []float64{0.3, 0}
	goal, vl, al := []float64{1, -1}, []float64{0.5, 0.5}, []float64{2, 2}
	lo, hi := []float64{-1, -1}, []float64{0.2, 1}
	nq, nv := make([]float64, 2), make([]float64, 2)
	control.TrackStep(q, v, nq, nv, goal, vl, al, lo, hi, 0.05)
	if q[0] != 0.1 || v[0] != 0.3 {
		t.Fatalf("the state changed: %v %v", q, v)
	}
	control.TrackStep(q, v, q, v, goal, vl, al, lo, hi, 0.05)
	for i := range q {
		if q[i] != nq[i] || v[i] != nv[i] || q[i] > hi[i] {
			t.Fatalf("joint %d: in place %g, %g; apart %g, %g", i, q[i], v[i], nq[i], nv[i])
		}
	}
}

// TestBrakeStopsTogether: every joint's velocity falls linearly to zero
// at T, where the position is q0 + v0·T/2, and BrakeTime honours the
// acceleration limits up to the cap.
func TestBrakeStopsTogether(t *testing.T) {
	v0 := []float64{0.4, -0.2}
	amax := []float64{2, 2}
	if got := control.BrakeTime(v0, amax, 0.5); got != 0.2 {
		t.Fatalf("BrakeTime = %g, want 0.2", got)
	}
	if got := control.BrakeTime(v0, amax, 0.1); got != 0.1 {
		t.Fatalf("BrakeTime capped = %g, want 0.1", got)
	}
	b := control.Brake{Q0: []float64{1, 2}, V0: v0, T: 0.2}
	q, v := make([]float64, 2), make([]float64, 2)
	b.At(0.1, q, v)
	for i := range v {
		if math.Abs(v[i]-v0[i]/2) > 1e-12 {
			t.Fatalf("joint %d: velocity %g half way, want %g", i, v[i], v0[i]/2)
		}
	}
	b.At(1, q, v)
	for i := range q {
		if want := b.Q0[i] + v0[i]*b.T/2; q[i] != want || v[i] != 0 {
			t.Fatalf("joint %d: rest at %g, %g; want %g, 0", i, q[i], v[i], want)
		}
	}
}
