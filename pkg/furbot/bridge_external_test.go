package furbot

import (
	"errors"
	"math"
	"net/netip"
	"testing"
	"time"

	"github.com/telebridge/telebridge/pkg/furbot/control"
	"github.com/telebridge/telebridge/pkg/furbot/wire"
	"github.com/telebridge/telebridge/pkg/rate"
)

// externalBridge returns a bridge in External mode on a virtual clock
// (*clk, starting at t0), with a status handler that delivers an
// all-working status frame at the clock's time, and its loop step.
func externalBridge(t testing.TB) (b *Bridge, step func(rate.Tick) error, status func(), clk *time.Time) {
	t.Helper()
	clk = new(time.Time)
	*clk = time.Unix(1000, 0)
	b, err := NewBridge(BridgeConfig{Listen: "127.0.0.1:0", Vehicle: netip.MustParseAddrPort("127.0.0.1:9"), External: true,
		Clock: func() time.Time { return *clk }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.conn.Close() })
	h := b.receiver()
	ts := uint32(0)
	status = func() {
		ts += 10
		if err := h(goldenAt(ts), netip.MustParseAddrPort("127.0.0.1:5000"), *clk); err != nil {
			t.Fatal(err)
		}
	}
	status()
	return b, b.loop(), status, clk
}

func TestBridgeExternalControl(t *testing.T) {
	b, step, status, clk := externalBridge(t)
	t0 := *clk
	tick := func(d time.Duration) Snapshot {
		t.Helper()
		now := t0.Add(d)
		*clk = now
		status() // the vehicle keeps reporting: the link stays fresh
		if err := step(rate.Tick{Deadline: now, Now: now}); err != nil {
			t.Fatal(err)
		}
		s, ok := b.Latest()
		if !ok {
			t.Fatal("not publishing")
		}
		return s
	}
	fullBrake := func(s Snapshot, flags uint8, what string) {
		t.Helper()
		if s.Control.Flags != flags || s.Control.Brake != wire.PedalMax || s.Control.Throttle != 0 {
			t.Errorf("%s: sent %+v, want full brake with flags %#x", what, s.Control, flags)
		}
	}
	fullBrake(tick(0), 0, "no control signals yet")

	drive := wire.Control{Steer: 1500, Throttle: 250, Flags: wire.FlagEnable, Seq: 77}
	if err := b.SetControl(drive, t0); err != nil {
		t.Fatal(err)
	}
	s := tick(10 * time.Millisecond)
	if s.Control.Steer != 1500 || s.Control.Throttle != 250 || s.Control.Brake != 0 || s.Control.Flags != wire.FlagEnable || s.Output.Stale {
		t.Errorf("fresh signals: sent %+v (stale %v)", s.Control, s.Output.Stale)
	}
	if s.Control.Seq == 77 || math.Abs(s.Output.Steer-15*math.Pi/180) > 1e-9 || s.Output.Throttle != 0.25 || s.Output.Mode != control.ModeDrive {
		t.Errorf("the bridge's own sequence and the SI output: %+v %+v", s.Control, s.Output)
	}

	// Out of range or undefined flags: refused, the previous signals stay.
	for _, bad := range []wire.Control{{Throttle: wire.PedalMax + 1}, {Brake: -1}, {Steer: wire.SteerMax + 1}, {Flags: 1 << 5}} {
		if err := b.SetControl(bad, t0.Add(20*time.Millisecond)); !errors.Is(err, wire.ErrRange) && !errors.Is(err, wire.ErrFlags) {
			t.Errorf("%+v: err %v", bad, err)
		}
	}
	if s := tick(50 * time.Millisecond); s.Control.Throttle != 250 {
		t.Errorf("refused signals changed the output: %+v", s.Control)
	}

	// Stale after ControlTimeout (0.2 s): disabled, full brake, steering held.
	if s := tick(200 * time.Millisecond); s.Control.Throttle != 250 {
		t.Errorf("signals exactly ControlTimeout old: %+v", s.Control)
	}
	s = tick(210 * time.Millisecond)
	fullBrake(s, 0, "stale signals")
	if s.Control.Steer != 1500 || !s.Output.Stale || s.Output.Mode != control.ModeDisabled {
		t.Errorf("stale: steering %d stale %v mode %v", s.Control.Steer, s.Output.Stale, s.Output.Mode)
	}

	// E-stop wins over fresh signals.
	_ = b.SetControl(drive, t0.Add(220*time.Millisecond))
	b.SetEStop(true)
	fullBrake(tick(220*time.Millisecond), wire.FlagEStop, "e-stop")
	b.SetEStop(false)
	if s := tick(230 * time.Millisecond); s.Control.Throttle != 250 {
		t.Errorf("after release: %+v", s.Control)
	}

	// Link lost (status older than LinkTimeout): disabled despite fresh signals.
	now := t0.Add(400 * time.Millisecond)
	_ = b.SetControl(drive, now)
	if err := step(rate.Tick{Deadline: now, Now: now}); err != nil {
		t.Fatal(err)
	}
	s, _ = b.Latest()
	fullBrake(s, 0, "link lost")
	if s.Output.Stale || s.Ready {
		t.Errorf("link lost: stale %v ready %v, want fresh signals on a link that is not ready", s.Output.Stale, s.Ready)
	}

	// A bridge running its own controller refuses external signals.
	own := newTestBridge(t)
	if err := own.SetControl(drive, t0); !errors.Is(err, ErrNotExternal) {
		t.Errorf("internal mode: %v", err)
	}
}

func TestBridgeExternalStepAllocatesNothing(t *testing.T) {
	b, step, _, clk := externalBridge(t)
	now := *clk
	if n := testing.AllocsPerRun(200, func() {
		_ = b.SetControl(wire.Control{Throttle: 100, Flags: wire.FlagEnable}, now)
		_ = step(rate.Tick{Deadline: now, Now: now})
	}); n != 0 {
		t.Errorf("SetControl + loop step: %v allocations", n)
	}
}

func BenchmarkBridgeExternalStep(b *testing.B) {
	br, step, _, clk := externalBridge(b)
	now := *clk
	b.ReportAllocs()
	for b.Loop() {
		_ = br.SetControl(wire.Control{Throttle: 100, Flags: wire.FlagEnable}, now)
		_ = step(rate.Tick{Deadline: now, Now: now})
	}
}
