package control

import (
	"errors"
	"math"
	"testing"
	"time"

	"github.com/telebridge/telebridge/pkg/furbot/wire"
)

func TestOdometerDelta(t *testing.T) {
	cases := []struct {
		name      string
		prev, cur int32
		want      int64
		ok        bool
	}{
		{"forward", 100, 250, 150, true},
		{"still", 7, 7, 0, true},
		{"31-bit wrap", 1<<31 - 10, 5, 15, true},
		{"int32 overflow", math.MaxInt32 - 10, math.MinInt32 + 5, 16, true},
		{"reset to zero", 123456, 0, 0, false},
		{"went back a little", 1000, 990, 0, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, ok := OdometerDelta(c.prev, c.cur)
			if got != c.want || ok != c.ok {
				t.Errorf("OdometerDelta(%d, %d) = %d, %v; want %d, %v", c.prev, c.cur, got, ok, c.want, c.ok)
			}
		})
	}
}

// odoFrame is a traction frame at speed v [m/s] and yaw rate w [rad/s]
// (wheels of radius 0.3 m, track 1.2 m) with the odometer at cm.
func odoFrame(v, w float64, cm int32, reverse bool) *wire.Status {
	half := w * 1.2 / 2
	s := tractionFrame((v-half)/0.3, (v+half)/0.3, v, 0)
	s.Traction.Odometer = cm
	if reverse {
		s.Traction.Reverse = 1
	}
	return s
}

func TestOdometerBridgesGaps(t *testing.T) {
	cases := []struct {
		name          string
		v, w          float64 // before and after the gap
		before, after int32   // odometer [cm] at the gap's ends
		reverse       bool
		wantX, wantY  float64
		wantYaw       float64
		bridged, held uint64
		implausible   uint64
	}{
		// 1.5 s gap at 1.5 m/s: 2.25 m from the odometer.
		{name: "straight", v: 1.5, before: 1000, after: 1225, wantX: 2.25 + 0.15, bridged: 1},
		{name: "across the 31-bit wrap", v: 1.5, before: 1<<31 - 100, after: 125, wantX: 2.25 + 0.15, bridged: 1},
		// Arc: curvature 0.2 /m, 2 m along it.
		{name: "arc", v: 1, w: 0.2, before: 0, after: 200, wantX: 5 * math.Sin(0.4+0.02), wantY: 5 * (1 - math.Cos(0.4+0.02)), wantYaw: 0.42, bridged: 1},
		{name: "reverse", v: -1, before: 500, after: 650, reverse: true, wantX: -0.1 - 1.5, bridged: 1},
		{name: "odometer reset: held", v: 1.5, before: 5000, after: 10, wantX: 0.15, held: 1},
		{name: "impossible delta: held", v: 1.5, before: 0, after: 10000, wantX: 0.15, held: 1, implausible: 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			o := newOdo(t, OdometryConfig{})
			// Two frames 100 ms apart, then a 1.5 s gap.
			step := int32(math.Round(math.Abs(c.v) * 10))
			o.Update(odoFrame(c.v, c.w, c.before-step, c.reverse), 0, tc0)
			o.Update(odoFrame(c.v, c.w, c.before, c.reverse), 100, tc0)
			st := o.Update(odoFrame(c.v, c.w, c.after, c.reverse), 1600, tc0)
			p := st.Pose
			if math.Abs(p.X-c.wantX) > 0.011 || math.Abs(p.Y-c.wantY) > 0.011 || math.Abs(p.Yaw-c.wantYaw) > 0.003 {
				t.Errorf("pose %+v, want x %.3f y %.3f yaw %.3f", p, c.wantX, c.wantY, c.wantYaw)
			}
			g := o.GapStats()
			if g.Bridged != c.bridged || g.Held != c.held || g.Implausible != c.implausible {
				t.Errorf("gap stats %+v, want bridged %d held %d implausible %d", g, c.bridged, c.held, c.implausible)
			}
		})
	}
}

func TestOdometerForgetHoldsTheNextGap(t *testing.T) {
	o := newOdo(t, OdometryConfig{})
	o.Update(odoFrame(1.5, 0, 0, false), 0, tc0)
	o.Forget() // vehicle restarted
	st := o.Update(odoFrame(1.5, 0, 300, false), 2000, tc0)
	if st.Pose.X != 0 {
		t.Errorf("x %v after a restart, want held at 0", st.Pose.X)
	}
}

func TestPlausibility(t *testing.T) {
	ref := func() *wire.Status { s := odoFrame(1.5, 0, 1000, false); s.Steering.Angle = 1000; return s }
	cases := []struct {
		name string
		dtMs uint64
		mod  func(s *wire.Status)
		bad  bool
	}{
		{"next frame", 10, func(s *wire.Status) { s.Traction.Odometer += 1 }, false},
		{"speed jump", 10, func(s *wire.Status) { *s = *odoFrame(6.5, 0, 1001, false) }, true},
		{"speed change over a long gap", 2000, func(s *wire.Status) { *s = *odoFrame(6.5, 0, 1800, false) }, false},
		{"wheels disagree with speed", 10, func(s *wire.Status) { s.Traction.Left = 3000 }, true},
		{"odometer jump", 10, func(s *wire.Status) { s.Traction.Odometer += 1000 }, true},
		{"odometer reset is left to the odometry", 10, func(s *wire.Status) { s.Traction.Odometer = 0 }, false},
		{"steering jump", 10, func(s *wire.Status) { s.Steering.Angle = -1000 }, true},
		{"steering moving at its rate", 100, func(s *wire.Status) { s.Steering.Angle += 500 }, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := NewPlausibility(0.3)
			if err := p.Check(ref(), 1000, tc0); err != nil {
				t.Fatalf("reference refused: %v", err)
			}
			s := ref()
			c.mod(s)
			err := p.Check(s, 1000+c.dtMs, tc0)
			if (err != nil) != c.bad || (err != nil && !errors.Is(err, ErrImplausible)) {
				t.Errorf("check: %v, want implausible %v", err, c.bad)
			}
		})
	}
}

func TestPlausibilityClockLeadAndReanchor(t *testing.T) {
	p := NewPlausibility(0.3)
	_ = p.Check(odoFrame(0, 0, 0, false), 0, tc0)
	p.ts = 1000
	if err := p.Clock(1010, tc0.Add(10*time.Millisecond)); err != nil {
		t.Errorf("on-time timestamp refused: %v", err)
	}
	if err := p.Clock(1000+600000, tc0.Add(10*time.Millisecond)); !errors.Is(err, ErrImplausible) {
		t.Errorf("timestamp 10 min ahead of its arrival: %v, want ErrImplausible", err)
	}
	if err := p.Clock(1000+600000, tc0.Add(600*time.Second)); err != nil {
		t.Errorf("timestamp after a real 10 min silence refused: %v", err)
	}
	// A frame that stays implausible becomes the reference after
	// reanchorAfter tries.
	far := odoFrame(8, 0, 0, false)
	for i := 1; i < reanchorAfter; i++ {
		if err := p.Check(far, uint64(i*10), tc0); err == nil {
			t.Fatalf("try %d accepted", i)
		}
	}
	if err := p.Check(far, reanchorAfter*10, tc0); err != nil || p.reanchd != 1 {
		t.Errorf("try %d: %v, reanchors %d; want accepted as the new reference", reanchorAfter, err, p.reanchd)
	}
}
