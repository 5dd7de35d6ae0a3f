package control

import (
	"errors"
	"math"
	"testing"
	"time"

	"github.com/telebridge/telebridge/pkg/furbot/wire"
)

var tc0 = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

func newCtl(t *testing.T, cfg ControllerConfig) *Controller {
	t.Helper()
	c, err := NewController(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestControllerDefaultsFromTable(t *testing.T) {
	cfg := newCtl(t, ControllerConfig{}).Config()
	for _, b := range ControllerBindings {
		if got := b.Value(&cfg); got != b.Default {
			t.Errorf("%s = %v, table default %v", b.Name, got, b.Default)
		}
		if b.Default < b.Min || b.Default > b.Max {
			t.Errorf("%s default %v outside %v..%v", b.Name, b.Default, b.Min, b.Max)
		}
	}
}

func TestControllerConfigRejected(t *testing.T) {
	for name, cfg := range map[string]ControllerConfig{
		"negative wheelbase": {Wheelbase: -1},
		"NaN kp":             {Kp: math.NaN()},
		"steer limit 2 rad":  {MaxSteer: 2},
		"hold brake 1.5":     {HoldBrake: 1.5},
		"timeout 1 ms":       {CommandTimeout: time.Millisecond},
	} {
		if _, err := NewController(cfg); !errors.Is(err, ErrConfig) {
			t.Errorf("%s: error %v, want ErrConfig", name, err)
		}
	}
}

// drive steps the controller n times at 100 Hz with a fresh command and
// the given measured speed; it returns the last output.
func drive(c *Controller, now *time.Time, n int, cmd Twist, speed float64) Output {
	var out Output
	for i := 0; i < n; i++ {
		out = c.Step(*now, 0.01, Input{Cmd: cmd, CmdAt: *now, Ready: true, Speed: speed})
		*now = now.Add(10 * time.Millisecond)
	}
	return out
}

func TestControllerNeverThrottleAndBrake(t *testing.T) {
	c := newCtl(t, ControllerConfig{})
	now := tc0
	for i := 0; i < 3000; i++ {
		cmd := Twist{V: 3 * math.Sin(float64(i)/97), W: 0.3}
		speed := 3 * math.Sin(float64(i)/90+0.5)
		out := c.Step(now, 0.01, Input{Cmd: cmd, CmdAt: now, Ready: true, Speed: speed, Reverse: speed < 0})
		if out.Throttle > 0 && out.Brake > 0 {
			t.Fatalf("step %d: throttle %v and brake %v", i, out.Throttle, out.Brake)
		}
		if out.Throttle < 0 || out.Throttle > 1 || out.Brake < 0 || out.Brake > 1 {
			t.Fatalf("step %d: pedals out of range: %+v", i, out)
		}
		if ctl := out.Control(); ctl.Throttle > 0 && ctl.Brake > 0 {
			t.Fatalf("step %d: frame with throttle and brake: %+v", i, ctl)
		}
		now = now.Add(10 * time.Millisecond)
	}
}

func TestControllerAntiWindup(t *testing.T) {
	c := newCtl(t, ControllerConfig{})
	now := tc0
	// Vehicle stuck at 0 m/s while 3 m/s is commanded for 60 s: the
	// integral must stay bounded.
	out := drive(c, &now, 6000, Twist{V: 3}, 0.0)
	if out.Throttle != 1 {
		t.Fatalf("throttle %v, want saturated 1", out.Throttle)
	}
	if c.integral > c.cfg.IntegralMax+1e-12 {
		t.Fatalf("integral %v above its bound %v", c.integral, c.cfg.IntegralMax)
	}
	// Once the vehicle reaches the target the output comes back at once
	// instead of unwinding for seconds.
	out = drive(c, &now, 1, Twist{V: 3}, 3.0)
	if out.Throttle > c.cfg.IntegralMax+c.cfg.Kf+1e-9 {
		t.Errorf("throttle %v at the target after windup, want <= %v", out.Throttle, c.cfg.IntegralMax+c.cfg.Kf)
	}
}

func TestControllerIntegratorResetWhenStaleOrDisabled(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   func(now time.Time) Input
	}{
		{"stale", func(now time.Time) Input {
			return Input{Cmd: Twist{V: 2}, CmdAt: now.Add(-time.Second), Ready: true, Speed: 1.9}
		}},
		{"not ready", func(now time.Time) Input { return Input{Cmd: Twist{V: 2}, CmdAt: now, Speed: 1} }},
		{"estop", func(now time.Time) Input {
			return Input{Cmd: Twist{V: 2}, CmdAt: now, EStop: true, Ready: true, Speed: 1}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := newCtl(t, ControllerConfig{})
			now := tc0
			drive(c, &now, 500, Twist{V: 2}, 1.9)
			if c.integral == 0 {
				t.Fatal("integral did not build up")
			}
			out := c.Step(now, 0.01, tc.in(now))
			if c.integral != 0 {
				t.Errorf("integral %v after %s, want reset", c.integral, tc.name)
			}
			for i := 0; i < 30; i++ {
				now = now.Add(10 * time.Millisecond)
				out = c.Step(now, 0.01, tc.in(now))
			}
			if out.Throttle != 0 || out.Brake == 0 {
				t.Errorf("%s: throttle %v brake %v, want brake only", tc.name, out.Throttle, out.Brake)
			}
		})
	}
}

func TestControllerTimeoutInjectedClock(t *testing.T) {
	c := newCtl(t, ControllerConfig{CommandTimeout: 300 * time.Millisecond})
	at := tc0
	in := Input{Cmd: Twist{V: 1}, CmdAt: at, Ready: true, Speed: 1}
	if out := c.Step(at.Add(300*time.Millisecond), 0.01, in); out.Stale {
		t.Error("stale at exactly the timeout")
	}
	out := c.Step(at.Add(301*time.Millisecond), 0.01, in)
	if !out.Stale || out.Mode != ModeStop || out.Throttle != 0 || out.Brake <= 0 {
		t.Errorf("after the timeout: %+v, want stale, stopping with brake", out)
	}
}

func TestControllerBrakeHoldAndReversal(t *testing.T) {
	c := newCtl(t, ControllerConfig{})
	now := tc0
	out := drive(c, &now, 10, Twist{}, 0)
	if out.Mode != ModeHold || out.Brake != c.cfg.HoldBrake || out.Throttle != 0 {
		t.Errorf("zero target at standstill: %+v, want hold brake %v", out, c.cfg.HoldBrake)
	}
	// Moving forward at 2 m/s, target reversed: brake, no throttle, no gear change.
	c = newCtl(t, ControllerConfig{})
	drive(c, &now, 300, Twist{V: 2}, 2)
	out = drive(c, &now, 1, Twist{V: -1}, 2)
	if out.Mode != ModeStop || out.Throttle != 0 || out.Brake <= 0 || out.Reverse {
		t.Errorf("reversed target while moving: %+v, want brake without gear change", out)
	}
	// Stopped: ask for reverse gear and hold until the vehicle reports it.
	out = drive(c, &now, 1, Twist{V: -1}, 0)
	if !out.Reverse || out.Throttle != 0 || out.Brake == 0 {
		t.Errorf("stopped, reverse wanted: %+v, want reverse flag and brake", out)
	}
	out = c.Step(now, 0.01, Input{Cmd: Twist{V: -1}, CmdAt: now, Ready: true, Speed: 0, Reverse: true})
	if out.Mode != ModeDrive || !out.Reverse {
		t.Errorf("in reverse gear: %+v, want drive", out)
	}
	for i := 0; i < 100; i++ {
		now = now.Add(10 * time.Millisecond)
		out = c.Step(now, 0.01, Input{Cmd: Twist{V: -1}, CmdAt: now, Ready: true, Speed: 0, Reverse: true})
	}
	if out.Throttle <= 0 || out.Ref >= 0 {
		t.Errorf("reverse drive: throttle %v ref %v, want throttle and a negative reference", out.Throttle, out.Ref)
	}
}

func TestControllerSteeringRule(t *testing.T) {
	const L = 2.0
	cases := []struct {
		name       string
		cmd        Twist
		speed, exp float64
	}{
		{"commanded speed above 0.1", Twist{V: 1, W: 0.2}, 0, math.Atan(L * 0.2 / 1)},
		{"commanded speed just above 0.1, measured 3", Twist{V: 0.2, W: 0.05}, 3, math.Atan(L * 0.05 / 0.2)},
		{"reverse commanded speed", Twist{V: -1, W: 0.2}, 0, math.Atan(L * 0.2 / -1)},
		{"commanded 0.05, measured 1 above 0.5", Twist{V: 0.05, W: 0.2}, 1, math.Atan(L * 0.2 / 1)},
		{"commanded 0.05, measured 0.4", Twist{V: 0.05, W: 0.2}, 0.4, 0},
		{"clamped to the steering limit", Twist{V: 0.5, W: 2}, 0, 0.55},
		{"clamped right", Twist{V: 0.5, W: -2}, 0, -0.55},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := newCtl(t, ControllerConfig{SteerRate: 10})
			now := tc0
			var out Output
			for i := 0; i < 50; i++ {
				out = c.Step(now, 0.01, Input{Cmd: tc.cmd, CmdAt: now, Ready: true, Speed: tc.speed, Reverse: tc.cmd.V < 0 && tc.speed <= 0})
				now = now.Add(10 * time.Millisecond)
			}
			if math.Abs(out.Steer-tc.exp) > 1e-9 {
				t.Errorf("steer %v, want %v", out.Steer, tc.exp)
			}
		})
	}
}

func TestControllerSteeringRateAndLateralLimit(t *testing.T) {
	c := newCtl(t, ControllerConfig{SteerRate: 0.5})
	now := tc0
	out := drive(c, &now, 1, Twist{V: 1, W: 0.5}, 1)
	if math.Abs(out.Steer-0.005) > 1e-12 {
		t.Errorf("first step steer %v, want 0.5 rad/s * 0.01 s = 0.005", out.Steer)
	}
	c = newCtl(t, ControllerConfig{SteerRate: 10, MaxLatAccel: 1})
	out = drive(c, &now, 100, Twist{V: 4, W: 0.5}, 4)
	want := math.Atan(1 * 2.0 / 16)
	if math.Abs(out.Steer-want) > 1e-9 {
		t.Errorf("lateral-limited steer %v, want %v", out.Steer, want)
	}
	if lat := 4 * 4 * math.Tan(out.Steer) / 2.0; lat > 1+1e-9 {
		t.Errorf("lateral acceleration %v m/s², limit 1", lat)
	}
}

func TestControllerRejectsNonFinite(t *testing.T) {
	c := newCtl(t, ControllerConfig{})
	now := tc0
	drive(c, &now, 100, Twist{V: 1}, 1)
	for _, cmd := range []Twist{{V: math.NaN()}, {V: 1, W: math.Inf(1)}, {V: math.Inf(-1)}} {
		out := c.Step(now, 0.01, Input{Cmd: cmd, CmdAt: now, Ready: true, Speed: 1})
		if !out.Stale || out.Throttle != 0 || math.IsNaN(out.Steer) {
			t.Errorf("cmd %+v: %+v, want treated as stale", cmd, out)
		}
	}
	out := c.Step(now, math.NaN(), Input{Cmd: Twist{V: 1}, CmdAt: now, Ready: true, Speed: math.NaN()})
	if out.Enable || out.Brake != 1 {
		t.Errorf("NaN speed: %+v, want disabled with full brake", out)
	}
}

func TestControllerEStopFrame(t *testing.T) {
	c := newCtl(t, ControllerConfig{})
	now := tc0
	drive(c, &now, 100, Twist{V: 1, W: 0.1}, 1)
	out := c.Step(now, 0.01, Input{Cmd: Twist{V: 1}, CmdAt: now, EStop: true, Ready: true, Speed: 1})
	f := out.Control()
	if f.Flags&wire.FlagEStop == 0 || f.Brake != wire.PedalMax || f.Throttle != 0 || out.Mode != ModeEStop {
		t.Errorf("estop frame %+v, want e-stop flag, full brake, no throttle", f)
	}
	if err := f.Validate(); err != nil {
		t.Error(err)
	}
}

func TestControllerStepAllocatesNothing(t *testing.T) {
	c := newCtl(t, ControllerConfig{})
	now := tc0
	in := Input{Cmd: Twist{V: 1, W: 0.1}, CmdAt: now, Ready: true, Speed: 0.9}
	if n := testing.AllocsPerRun(100, func() {
		out := c.Step(now, 0.01, in)
		_ = out.Control()
	}); n != 0 {
		t.Errorf("%v allocations per step", n)
	}
}

func BenchmarkControllerStep(b *testing.B) {
	c, _ := NewController(ControllerConfig{})
	now := tc0
	in := Input{Cmd: Twist{V: 1, W: 0.1}, CmdAt: now, Ready: true, Speed: 0.9}
	b.ReportAllocs()
	for b.Loop() {
		out := c.Step(now, 0.01, in)
		_ = out.Control()
	}
}
