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

// halfTrack is the driver's default HalfTrack: the English paper's
// calibration, Angular/Linear units per m/s and rad/s.
const halfTrack = 25171.216 / 71553.837

// stopC is the drive of a stopped track per drive of the other, with the
// default half track: speed = d(1+k)/2 + other(1-k)/2 = 0.
const stopC = (1 - halfTrack) / (1 + halfTrack)

// definite reports whether every track of the twist either stands still
// (speed 0) or has a drive at or above the start m: what the robot then
// does does not depend on whether a track was moving.
func definite(v, w, m float64) bool {
	for _, s := range []float64{-1, 1} {
		speed, drive := v+s*halfTrack*w, v+s*w
		if math.Abs(speed) > 1e-9 && math.Abs(drive) < m*(1-1e-9) {
			return false
		}
	}
	return true
}

// TestChassis is the chassis rule as a table: the seed's minimum for the
// cases it was measured for (pure linear, pure rotation from standstill),
// the start speed per track (a track below it started or stopped, never
// left to the robot's friction), small yaw rates passing while driving,
// and limits that keep the curvature.
func TestChassis(t *testing.T) {
	// The driver's defaults: min 0.2, max 0.45 m/s, 1.3 rad/s.
	cfg := ChassisLimits{MaxLinear: 0.45, MaxAngular: 1.3, MinStart: 0.2, HalfTrack: halfTrack}
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
		{"driving 0.5 m/s, 0.01 rad/s passes", &cfg, 0.5 * 0.9, 0.01, 0.45, 0.01},
		{"reversing -0.3 m/s, -0.05 rad/s passes", &cfg, -0.3, -0.05, -0.3, -0.05},
		{"turning 0.5 rad/s, 0.05 m/s passes", &cfg, 0.05, 0.5, 0.05, 0.5},
		// Left drive 0.19: raised to 0.2, the right keeps 0.21.
		{"driving 0.2 m/s, 0.01 rad/s: the left track raised", &cfg, 0.2, 0.01, 0.205, 0.005},
		// The probe: left drive -0.1 (speed +0.03) would hold the
		// left track still from standstill and turn at 0.242 rad/s; it
		// stops (0.044 from its drive) rather than starts (0.1 away).
		{"0.1 m/s, 0.2 rad/s: the left track stopped", &cfg, 0.1, 0.2, 0.15 * (1 - stopC), 0.15 * (1 + stopC)},
		{"the diagonal 0.2, 0.2: left drive 0, stopped", &cfg, 0.2, 0.2, 0.2 * (1 - stopC), 0.2 * (1 + stopC)},
		{"0.1, -0.1: the right track stopped", &cfg, 0.1, -0.1, 0.1 * (1 - stopC), -0.1 * (1 + stopC)},
		{"both tracks below start: each raised, 0.1, 0.05 -> 0.2, 0", &cfg, 0.1, 0.05, 0.2, 0},
		{"both below start: -0.05, 0.1 -> 0, 0.2", &cfg, -0.05, 0.1, 0, 0.2},
		// A pivot about the still left track, its right drive 0.135:
		// raised, which sets the left moving below start: both raised.
		{"a slow pivot becomes a turn in place", &cfg, 0.1 * halfTrack, 0.1, 0, 0.2},
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
			if c.cfg.MinStart > 0 && !definite(v, w, c.cfg.MinStart) {
				t.Errorf("(%g, %g): a track below its start", v, w)
			}
			if v2, w2 := c.cfg.Apply(v, w); math.Abs(v2-v) > 1e-12 || math.Abs(w2-w) > 1e-12 {
				t.Errorf("not a fixed point: (%g, %g) -> (%g, %g)", v, w, v2, w2)
			}
		})
	}
}

// TestChassisFit is the operator's maxima on what the robot does: the
// issue's probes (an angular maximum of 0.2 rad/s turned at 0.242, a
// linear maximum of 0.05 m/s driven at 0.060) scaled down until the
// executed twist fits, and maxima below the start speed refused.
func TestChassisFit(t *testing.T) {
	cfg := ChassisLimits{MaxLinear: 0.45, MaxAngular: 1.3, MinStart: 0.2, HalfTrack: halfTrack}
	for _, c := range []struct {
		name                 string
		v, w, maxLin, maxAng float64
		wantV, wantW         float64
		ok                   bool
	}{
		{"within: unchanged", 0.45, 0.2, 0.45, 0.2, 0.45, 0.2, true},
		{"max 0.2 rad/s, 0.1 m/s 0.2 rad/s: a pivot about the left at 0.2", 0.1, 0.2, 0.45, 0.2, 0.2 * halfTrack, 0.2, true},
		// Executed as a pivot at 0.0625 m/s; scaled down, the right drive
		// falls below start before the pivot slows to 0.05 m/s: both
		// tracks raised, a turn in place.
		{"max 0.05 m/s, 0.05 m/s 0.19 rad/s: a turn in place", 0.05, 0.19, 0.05, 1.3, 0, 0.2, true},
		{"the diagonal at 0.2 both", 0.2, 0.2, 0.2, 0.2, 0.2 * halfTrack, 0.2, true},
		{"curvature kept when the start rule is not involved", 0.45, 1, 0.45, 0.5, 0.225, 0.5, true},
		{"max 0.1 m/s below the start: refused", 0.1, 0, 0.1, 1.3, 0.2, 0, false},
		{"max 0.1 rad/s below the start: refused", 0, 0.1, 0.45, 0.1, 0, 0.2, false},
		{"zero fits", 0, 0, 0.1, 0.1, 0, 0, true},
		// A zero maximum is zero, not no limit: turning 0.1 rad/s would
		// pivot (moving the robot's centre), so it turns in place at 0.2.
		{"linear maximum 0: turning in place only", 0, 0.1, 0, 1.3, 0, 0.2, true},
		{"linear maximum 0, a curve asked: scaled to a turn in place", 0.05, 0.3, 0, 1.3, 0, 0.2, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			v, w, ok := cfg.Fit(c.v, c.w, c.maxLin, c.maxAng)
			if ok != c.ok || math.Abs(v-c.wantV) > 1e-6 || math.Abs(w-c.wantW) > 1e-6 {
				t.Fatalf("Fit(%g, %g, %g, %g) = (%g, %g, %v), want (%g, %g, %v)", c.v, c.w, c.maxLin, c.maxAng, v, w, ok, c.wantV, c.wantW, c.ok)
			}
			if !ok {
				return
			}
			if !within(v, w, c.maxLin, c.maxAng) || !definite(v, w, cfg.MinStart) {
				t.Fatalf("(%g, %g): over the maxima or a track below start", v, w)
			}
			if v2, w2 := cfg.Apply(v, w); math.Abs(v2-v) > 1e-9 || math.Abs(w2-w) > 1e-9 {
				t.Errorf("the driver changes (%g, %g) to (%g, %g)", v, w, v2, w2)
			}
		})
	}
}

// TestChassisGrid: over a grid of asked twists (every stick position of
// the console's maxima and beyond), what the driver sends has every track
// still or started, stays within its limits, and passes through again
// unchanged.
func TestChassisGrid(t *testing.T) {
	cfg := ChassisLimits{MaxLinear: 0.45, MaxAngular: 1.3, MinStart: 0.2, HalfTrack: halfTrack}
	for i := -30; i <= 30; i++ {
		for j := -30; j <= 30; j++ {
			av, aw := float64(i)*0.02, float64(j)*0.05
			v, w := cfg.Apply(av, aw)
			if !definite(v, w, cfg.MinStart) {
				t.Fatalf("Apply(%g, %g) = (%g, %g): a track below its start", av, aw, v, w)
			}
			if math.Abs(v) > cfg.MaxLinear*(1+1e-9) || math.Abs(w) > cfg.MaxAngular*(1+1e-9) {
				t.Fatalf("Apply(%g, %g) = (%g, %g): over the limits", av, aw, v, w)
			}
			if (av != 0 || aw != 0) && v == 0 && w == 0 {
				t.Fatalf("Apply(%g, %g): nothing sent", av, aw)
			}
			if v2, w2 := cfg.Apply(v, w); math.Abs(v2-v) > 1e-9 || math.Abs(w2-w) > 1e-9 {
				t.Fatalf("Apply(%g, %g) = (%g, %g), again (%g, %g)", av, aw, v, w, v2, w2)
			}
		}
	}
}

// BenchmarkChassisFit: the console's fit of a twist that needs scaling
// (allocations reported).
func BenchmarkChassisFit(b *testing.B) {
	cfg := ChassisLimits{MaxLinear: 0.45, MaxAngular: 1.3, MinStart: 0.2, HalfTrack: halfTrack}
	b.ReportAllocs()
	for range b.N {
		cfg.Fit(0.1, 0.2, 0.45, 0.2)
	}
}
