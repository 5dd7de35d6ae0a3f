package control

import (
	"math"
	"testing"
)

func TestAckermannAngles(t *testing.T) {
	const L, T = 2.0, 1.2
	tests := []struct {
		name        string
		delta       float64
		left, right float64
	}{
		{"straight", 0, 0, 0},
		// Left turn about (0, R): the left (inner) wheel turns more.
		{"left 0.3", 0.3, math.Atan(L / (L/math.Tan(0.3) - T/2)), math.Atan(L / (L/math.Tan(0.3) + T/2))},
		{"right 0.3", -0.3, -math.Atan(L / (L/math.Tan(0.3) + T/2)), -math.Atan(L / (L/math.Tan(0.3) - T/2))},
		{"limit 0.55", 0.55, 0.64433, 0.47783},
	}
	for _, tc := range tests {
		l, r := AckermannAngles(tc.delta, L, T)
		if math.Abs(l-tc.left) > 1e-5 || math.Abs(r-tc.right) > 1e-5 {
			t.Errorf("%s: %.5f, %.5f, want %.5f, %.5f", tc.name, l, r, tc.left, tc.right)
		}
	}
}
