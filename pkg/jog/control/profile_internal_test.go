package control

import (
	"math"
	"testing"
)

// TestAxisStepLimits drives AxisStep from many starts and checks each
// cycle's acceleration and velocity, arrival, and no overshoot from rest.
func TestAxisStepLimits(t *testing.T) {
	const dt = 0.05
	for _, tc := range []struct {
		name                     string
		p, v, target, vmax, amax float64
		overshootOK              bool
	}{
		{"long from rest", 0, 0, 1, 0.5, 2, false},
		{"short from rest (triangle)", 0, 0, 0.01, 0.5, 2, false},
		{"backwards", 1, 0, -0.3, 3, 10, false},
		{"moving toward", 0, 0.4, 1, 0.5, 2, false},
		{"moving away", 0, -0.4, 1, 0.5, 2, true},
		{"too fast to stop", 0, 0.5, 0.01, 0.5, 2, true},
		{"tiny", 0, 0, 1e-7, 0.5, 2, false},
		{"above vmax", 0, 1, 2, 0.5, 2, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, v := tc.p, tc.v
			vPrev := v
			lo, hi := math.Min(tc.p, tc.target), math.Max(tc.p, tc.target)
			for k := 0; k < 10000; k++ {
				np, nv, done := AxisStep(p, v, tc.target, tc.vmax, tc.amax, dt)
				if a := math.Abs(nv-vPrev) / dt; a > tc.amax*(1+1e-9) {
					t.Fatalf("cycle %d: acceleration %g > %g", k, a, tc.amax)
				}
				if math.Abs(nv) > math.Max(tc.vmax, math.Abs(vPrev))*(1+1e-9) {
					t.Fatalf("cycle %d: speed %g > %g", k, nv, tc.vmax)
				}
				if !tc.overshootOK && (np < lo-1e-12 || np > hi+1e-12) {
					t.Fatalf("cycle %d: %g outside [%g, %g]", k, np, lo, hi)
				}
				p, v, vPrev = np, nv, nv
				if done {
					if p != tc.target || v != 0 {
						t.Fatalf("done at %g, %g", p, v)
					}
					// time-optimal within a few cycles
					d := math.Abs(tc.target - tc.p)
					opt := d/tc.vmax + tc.vmax/tc.amax
					if tri := 2 * math.Sqrt(d/tc.amax); d < tc.vmax*tc.vmax/tc.amax {
						opt = tri
					}
					if tc.v == 0 && float64(k+1)*dt > opt+4*dt {
						t.Fatalf("took %g s, optimum %g s", float64(k+1)*dt, opt)
					}
					return
				}
			}
			t.Fatalf("never arrived: %g, %g", p, v)
		})
	}
}
