package crawler_test

import (
	"math"
	"testing"

	"github.com/telebridge/telebridge/pkg/physics"
	"github.com/telebridge/telebridge/pkg/physics/crawler"
)

// rampFriction is the ramps' and the ground's Coulomb coefficient.
const rampFriction = 0.8

// ramp is flat ground with a 3 m ramp of deg degrees rising along +x from
// x = 0 (friction mu on both); start is base_link's distance along the
// slope from the ramp's foot (negative: on the flat ground before it,
// facing the ramp; positive: placed on the slope, pitched with it).
func ramp(t testing.TB, deg, mu, start float64) (*physics.World, *crawler.Robot, func() (along, tilt float64)) {
	t.Helper()
	th := deg * math.Pi / 180
	pose := physics.Pose{Pos: physics.Vec3{start, 0, crawler.SprocketRadius + 0.001}}
	if start > 0 {
		n := physics.Vec3{-math.Sin(th), 0, math.Cos(th)}
		pose = physics.Pose{Pos: physics.Vec3{start * math.Cos(th), 0, start * math.Sin(th)}.Add(n.Scale(crawler.SprocketRadius + 0.001)), Rot: physics.RPY(0, -th, 0)}
	}
	w, r := flat(t, mu, crawler.Config{Pose: pose})
	const length, thick = 3.0, 0.2
	d := physics.Vec3{math.Cos(th), 0, math.Sin(th)}
	n := physics.Vec3{-math.Sin(th), 0, math.Cos(th)}
	c := d.Scale(length / 2).Sub(n.Scale(thick / 2))
	if _, err := w.AddStatic(physics.Box(length, 2, thick), physics.Pose{Pos: c, Rot: physics.RPY(0, -th, 0)}, physics.Material{Friction: mu}); err != nil {
		t.Fatal(err)
	}
	measure := func() (float64, float64) {
		s := state(t, r)
		return s.Base.Pos.Dot(d), s.Tilt * 180 / math.Pi
	}
	return w, r, measure
}

// 15 and 25 degree ramps are climbed from flat ground at 0.4 m/s: the
// robot ends on the slope (pitched with it), over a metre up it, still
// climbing.
func TestRampsClimbed(t *testing.T) {
	for _, deg := range []float64{15, 25} {
		w, r, at := ramp(t, deg, rampFriction, -0.45)
		must(t, w.Step(300))
		must(t, r.SetTwist(0.4, 0))
		must(t, w.Step(5000))
		a1, _ := at()
		must(t, w.Step(1000))
		a2, tilt := at()
		t.Logf("%g deg: %.3f m up the slope after 6 s, %.3f m/s over the last second, tilt %.1f deg", deg, a2, a2-a1, tilt)
		if a2 < 1 || a2-a1 < 0.15 || math.Abs(tilt-deg) > 1 {
			t.Errorf("%g deg ramp not climbed: %.3f m up, %.3f m/s, tilt %.1f deg", deg, a2, a2-a1, tilt)
		}
	}
}

// 35 degrees: from flat ground the robot cannot get onto the ramp (its
// chassis overhangs the rear pulleys: the URDF's 0.50 m body against
// axles 0.32 m apart with 0.08 m pulleys; the rear corner of the body
// touches the ground at a pitch of 30.7 degrees, so it stops at about
// 31 degrees with its rear on the flat). Placed on the slope it climbs
// where friction allows (mu 0.8 > tan 35 = 0.70) and slides back where
// it does not (mu 0.6).
func TestRamp35(t *testing.T) {
	t.Run("entry from flat refused", func(t *testing.T) {
		w, r, at := ramp(t, 35, rampFriction, -0.45)
		must(t, w.Step(300))
		must(t, r.SetTwist(0.4, 0))
		must(t, w.Step(4000))
		a, tilt := at()
		t.Logf("after 4 s: %.3f m along, tilt %.1f deg", a, tilt)
		if a > 0.3 || tilt > 32 {
			t.Errorf("entered the 35 degree ramp from flat ground: %.3f m along, tilt %.1f deg", a, tilt)
		}
	})
	for _, tc := range []struct {
		mu    float64
		climb bool
	}{{0.8, true}, {0.6, false}} {
		w, r, at := ramp(t, 35, tc.mu, 0.8)
		must(t, w.Step(300))
		a0, _ := at()
		must(t, r.SetTwist(0.4, 0))
		must(t, w.Step(3000))
		a, tilt := at()
		t.Logf("35 deg, mu %.1f, on the slope: %.3f m -> %.3f m in 3 s driving up, tilt %.1f deg", tc.mu, a0, a, tilt)
		if tc.climb && a-a0 < 0.2 {
			t.Errorf("mu %.1f: did not climb (%.3f m in 3 s)", tc.mu, a-a0)
		}
		if !tc.climb && a-a0 > -0.1 {
			t.Errorf("mu %.1f < tan 35: did not slide back (%.3f m in 3 s)", tc.mu, a-a0)
		}
	}
}

// A stopped robot on the 25 degree ramp holds (stopped belts are braked).
func TestParkedOnSlopeHolds(t *testing.T) {
	w, _, at := ramp(t, 25, rampFriction, 0.8)
	must(t, w.Step(300))
	a0, _ := at()
	must(t, w.Step(2000))
	a, _ := at()
	if math.Abs(a-a0) > 0.01 {
		t.Errorf("parked on 25 degrees: moved %.4f m in 2 s", a-a0)
	}
}
