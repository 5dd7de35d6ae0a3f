package control

import (
	"math"
	"testing"
)

func TestMinStart(t *testing.T) {
	for _, c := range []struct{ v, want float64 }{
		{0, 0}, {0.1, 0.2}, {-0.1, -0.2}, {1e-9, 0.2}, {-1e-9, -0.2},
		{0.2, 0.2}, {-0.2, -0.2}, {0.35, 0.35}, {-0.35, -0.35},
	} {
		if got := MinStart(c.v, 0.2); got != c.want {
			t.Errorf("MinStart(%g) = %g, want %g", c.v, got, c.want)
		}
	}
}

// TestChassis is the chassis rule as a table: the seed's minimum for the
// cases it was measured for (pure linear, pure rotation from standstill),
// small yaw rates passing while driving, mixed small twists raised with
// their curvature, and limits that keep the curvature.
func TestChassis(t *testing.T) {
	// The driver's defaults: min 0.2, max 0.45 m/s, 1.3 rad/s.
	cfg := ChassisLimits{MaxLinear: 0.45, MaxAngular: 1.3, MinStart: 0.2}
	off := cfg
	off.MinStart = -1
	for _, c := range []struct {
		name               string
		cfg                *ChassisLimits
		v, w, wantV, wantW float64
	}{
		{"zero stays zero", &cfg, 0, 0, 0, 0},
		{"pure linear +0.1 -> +0.2", &cfg, 0.1, 0, 0.2, 0},
		{"pure linear -0.1 -> -0.2", &cfg, -0.1, 0, -0.2, 0},
		{"pure linear 1e-9 -> 0.2", &cfg, 1e-9, 0, 0.2, 0},
		{"pure linear 0.35 unchanged", &cfg, 0.35, 0, 0.35, 0},
		{"pure rotation +0.1 -> +0.2", &cfg, 0, 0.1, 0, 0.2},
		{"pure rotation -0.05 -> -0.2", &cfg, 0, -0.05, 0, -0.2},
		{"pure rotation 0.2 unchanged", &cfg, 0, 0.2, 0, 0.2},
		{"Nav2 arc: 0.45 m/s, 0.125 rad/s passes", &cfg, 0.45, 0.125, 0.45, 0.125},
		{"driving 0.2 m/s, 0.01 rad/s passes", &cfg, 0.2, 0.01, 0.2, 0.01},
		{"reversing -0.3 m/s, -0.05 rad/s passes", &cfg, -0.3, -0.05, -0.3, -0.05},
		{"turning 0.5 rad/s, 0.05 m/s passes", &cfg, 0.05, 0.5, 0.05, 0.5},
		{"mixed 0.1, 0.05 -> 0.2, 0.1 (radius 2 m)", &cfg, 0.1, 0.05, 0.2, 0.1},
		{"mixed -0.05, 0.1 -> -0.1, 0.2", &cfg, -0.05, 0.1, -0.1, 0.2},
		{"mixed equal 0.1, -0.1 -> 0.2, -0.2", &cfg, 0.1, -0.1, 0.2, -0.2},
		{"rule off: 0.1 m/s unchanged", &off, 0.1, 0.05, 0.1, 0.05},
		{"max_linear keeps curvature: 0.5, 0.25 -> 0.45, 0.225", &cfg, 0.5, 0.25, 0.45, 0.225},
		{"max_linear backwards: -0.9, 0.3 -> -0.45, 0.15", &cfg, -0.9, 0.3, -0.45, 0.15},
		{"max_angular keeps curvature: 0.2, 2.6 -> 0.1, 1.3", &cfg, 0.2, 2.6, 0.1, 1.3},
		{"both limits: 0.9, 5.2 -> 0.45*1.3/2.6, 1.3", &cfg, 0.9, 5.2, 0.225, 1.3},
		{"max_linear then in range: -1.5, -3.0 -> -0.45, -0.9", &cfg, -1.5, -3.0, -0.45, -0.9},
		{"max_angular backwards: -0.3, -2.6 -> -0.15, -1.3", &cfg, -0.3, -2.6, -0.15, -1.3},
	} {
		t.Run(c.name, func(t *testing.T) {
			v, w := c.cfg.Apply(c.v, c.w)
			if math.Abs(v-c.wantV) > 1e-12 || math.Abs(w-c.wantW) > 1e-12 {
				t.Fatalf("Apply(%g, %g) = (%g, %g), want (%g, %g)", c.v, c.w, v, w, c.wantV, c.wantW)
			}
			// Curvature kept whenever something was sent.
			if c.v != 0 && v != 0 && math.Abs(w/v-c.w/c.v) > 1e-9 {
				t.Errorf("curvature %g -> %g", c.w/c.v, w/v)
			}
		})
	}
}
