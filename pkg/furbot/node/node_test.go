package node

import (
	"errors"
	"math"
	"net/netip"
	"testing"
	"time"

	"github.com/telebridge/telebridge/pkg/diag"
	"github.com/telebridge/telebridge/pkg/furbot"
	"github.com/telebridge/telebridge/pkg/furbot/control"
	"github.com/telebridge/telebridge/pkg/furbot/wire"
	"github.com/telebridge/telebridge/pkg/furbot/wire/wiretest"
	"github.com/telebridge/telebridge/pkg/odometry"
	"github.com/telebridge/telebridge/pkg/rosparam"
)

// store declares table for node with the parameters given as a params
// file, as rosnode.Run does.
func store(t *testing.T, node string, table rosparam.Table, yaml string) *rosparam.Store {
	t.Helper()
	var o rosparam.Overrides
	if yaml != "" {
		if err := o.AddYAML([]byte(yaml)); err != nil {
			t.Fatal(err)
		}
	}
	s, err := rosparam.New(rosparam.Config{Node: "/" + node, Table: table, Overrides: &o})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestNodeParameterTables(t *testing.T) {
	live := map[string]map[string]bool{}
	for _, n := range []struct {
		name  string
		table rosparam.Table
	}{
		{BridgeName, BridgeNodeParameterTable()},
		{TwistName, TwistNodeParameterTable()},
		{OdometryName, OdomNodeParameterTable()},
	} {
		if err := n.table.Check(); err != nil {
			t.Errorf("%s: %v", n.name, err)
		}
		live[n.name] = map[string]bool{}
		for _, p := range n.table {
			if !p.ReadOnly {
				live[n.name][p.Name] = true
			}
		}
	}
	// Only what the running code applies is settable: the controller's
	// gains and limits in the twist node; nothing in the bridge and the
	// odometry (made once at start-up).
	if len(live[BridgeName]) != 0 || len(live[OdometryName]) != 0 {
		t.Errorf("settable parameters in nodes that cannot apply them: bridge %v, odometry %v", live[BridgeName], live[OdometryName])
	}
	for _, name := range []string{"kp", "ki", "max_speed", "command_timeout", "max_steer"} {
		if !live[TwistName][name] {
			t.Errorf("%s: %s should be settable", TwistName, name)
		}
	}
	for _, name := range []string{"wheelbase", "rate", "feedback_timeout", "stop_messages"} {
		if live[TwistName][name] {
			t.Errorf("%s: %s should be read-only", TwistName, name)
		}
	}
}

func TestLoadBridgeNodeConfig(t *testing.T) {
	table := BridgeNodeParameterTable()
	cfg, err := LoadBridgeNodeConfig(store(t, BridgeName, table, `
furbot_bridge:
  ros__parameters:
    vehicle_address: "127.0.0.1:18004"
    listen: "127.0.0.1:18003"
    control_timeout: 0.3
`))
	if err != nil {
		t.Fatal(err)
	}
	b := cfg.Bridge
	if !b.External || b.Vehicle != netip.MustParseAddrPort("127.0.0.1:18004") || b.Listen != "127.0.0.1:18003" ||
		b.StatusFrom != netip.MustParseAddrPort("127.0.0.1:0") || b.ControlTimeout != 300*time.Millisecond ||
		b.Rate != wire.FrameRate || b.StopFrames != 3 || cfg.BaseFrame != FrameBase {
		t.Errorf("loaded %+v", cfg)
	}
	for _, bad := range []string{
		"", // no vehicle address
		"furbot_bridge:\n  ros__parameters:\n    vehicle_address: \"vehicle\"\n",
		"furbot_bridge:\n  ros__parameters:\n    vehicle_address: \"127.0.0.1:18004\"\n    status_from: \"x\"\n",
		"furbot_bridge:\n  ros__parameters:\n    vehicle_address: \"127.0.0.1:18004\"\n    base_frame: \"\"\n",
	} {
		if _, err := LoadBridgeNodeConfig(store(t, BridgeName, table, bad)); !errors.Is(err, control.ErrConfig) {
			t.Errorf("%q: err %v, want ErrConfig", bad, err)
		}
	}
}

func TestLoadTwistAndOdomNodeConfig(t *testing.T) {
	tc, err := LoadTwistNodeConfig(store(t, TwistName, TwistNodeParameterTable(), "furbot_twist_control:\n  ros__parameters:\n    kp: 2.0\n"))
	if err != nil {
		t.Fatal(err)
	}
	if tc.Controller.Kp != 2 || tc.Controller.Ki != 0.8 || tc.Rate != wire.FrameRate || tc.FeedbackTimeout != 200*time.Millisecond || tc.StopMessages != 3 {
		t.Errorf("twist config %+v", tc)
	}
	oc, err := LoadOdomNodeConfig(store(t, OdometryName, OdomNodeParameterTable(), "furbot_odometry:\n  ros__parameters:\n    odom_source: 2\n"))
	if err != nil {
		t.Fatal(err)
	}
	if oc.Odometry.Source != control.OdomBicycle || oc.Odometry.Track != 1.2 || oc.OdomFrame != FrameOdom || oc.BaseFrame != FrameBase || !oc.PublishTF {
		t.Errorf("odometry config %+v", oc)
	}
	if _, err := LoadOdomNodeConfig(store(t, OdometryName, OdomNodeParameterTable(), "furbot_odometry:\n  ros__parameters:\n    base_frame: odom\n")); !errors.Is(err, control.ErrConfig) {
		t.Errorf("odom -> odom accepted: %v", err)
	}
}

func TestTwistControl(t *testing.T) {
	tc, err := NewTwistControl(TwistNodeConfig{})
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Unix(1000, 0)
	running := wire.Traction{State: wire.StateRunning, Mode: wire.TractRemote}
	if out := tc.Step(t0); out.Mode != control.ModeDisabled || out.Enable || out.Brake != 1 {
		t.Errorf("without feedback: %+v, want disabled full brake", out)
	}
	at := t0
	for i := 1; i <= 50; i++ {
		at = t0.Add(time.Duration(i) * 10 * time.Millisecond)
		tc.SetFeedback(running, at)
		if err := tc.SetCommand(control.Twist{V: 1, W: 0.2}, at); err != nil {
			t.Fatal(err)
		}
		out := tc.Step(at)
		if out.Mode != control.ModeDrive || out.Throttle <= 0 || out.Brake != 0 || !out.Enable {
			t.Fatalf("step %d driving: %+v", i, out)
		}
	}
	if err := tc.SetCommand(control.Twist{V: math.NaN()}, at); !errors.Is(err, control.ErrNotFinite) {
		t.Errorf("NaN cmd_vel: %v", err)
	}
	// Feedback older than FeedbackTimeout: not ready.
	if out := tc.Step(at.Add(210 * time.Millisecond)); out.Mode != control.ModeDisabled || out.Brake != 1 {
		t.Errorf("stale feedback: %+v", out)
	}
	// Traction not running: not ready.
	tc.SetFeedback(wire.Traction{State: wire.StateHalted}, at.Add(220*time.Millisecond))
	if out := tc.Step(at.Add(220 * time.Millisecond)); out.Mode != control.ModeDisabled {
		t.Errorf("traction halted: %+v", out)
	}
	// Command older than CommandTimeout (0.5 s): stale, braking or holding.
	late := at.Add(600 * time.Millisecond)
	tc.SetFeedback(wire.Traction{State: wire.StateRunning, Speed: 800}, late)
	if out := tc.Step(late); !out.Stale || out.Throttle != 0 || out.Brake <= 0 {
		t.Errorf("stale cmd_vel: %+v", out)
	}
	// The vehicle reports its e-stop latched: hold in e-stop, integrator
	// reset; a stale report is ignored.
	tc.SetMotion(wire.Motion{State: wire.StateRunning, Flags: wire.MotionEStop}, late)
	tc.SetFeedback(wire.Traction{State: wire.StateRunning, Speed: 800}, late.Add(5*time.Millisecond))
	if out := tc.Step(late.Add(5 * time.Millisecond)); out.Mode != control.ModeEStop || out.Throttle != 0 || out.Brake != 1 || out.Control().Flags&wire.FlagEStop != 0 {
		t.Errorf("vehicle e-stop latched: %+v, want full brake without the e-stop flag (that would keep the vehicle latched)", out)
	}
	tc.SetFeedback(wire.Traction{State: wire.StateRunning, Speed: 800}, late.Add(300*time.Millisecond))
	_ = tc.SetCommand(control.Twist{V: 1}, late.Add(300*time.Millisecond))
	if out := tc.Step(late.Add(300 * time.Millisecond)); out.Mode == control.ModeEStop {
		t.Errorf("a 0.3 s old e-stop report still holds: %+v", out)
	}
	// E-stop.
	tc.SetEStop(true)
	if out := tc.Step(late.Add(10 * time.Millisecond)); out.Mode != control.ModeEStop || out.Control().Flags&wire.FlagEStop == 0 || out.Brake != 1 {
		t.Errorf("e-stop: %+v", out)
	}
}

func TestTwistControlLiveParameters(t *testing.T) {
	tc, err := NewTwistControl(DefaultTwistNodeConfig())
	if err != nil {
		t.Fatal(err)
	}
	now := time.Unix(1000, 0)
	tc.Step(now)
	if err := tc.ApplyParams([]rosparam.Parameter{{Name: "max_speed", Value: rosparam.Double(0.5)}, {Name: "kp", Value: rosparam.Double(2)}}); err != nil {
		t.Fatal(err)
	}
	if c := tc.Controller(); c.MaxSpeed != 5 {
		t.Errorf("applied before the next step: %v", c.MaxSpeed)
	}
	tc.Step(now.Add(10 * time.Millisecond))
	if c := tc.Controller(); c.MaxSpeed != 0.5 || c.Kp != 2 || c.Ki != 0.8 {
		t.Errorf("after the step: max_speed %v kp %v ki %v", c.MaxSpeed, c.Kp, c.Ki)
	}
	// Out of range: refused whole, nothing changes.
	if err := tc.ApplyParams([]rosparam.Parameter{{Name: "kp", Value: rosparam.Double(3)}, {Name: "max_speed", Value: rosparam.Double(100)}}); !errors.Is(err, control.ErrConfig) {
		t.Errorf("max_speed 100: %v", err)
	}
	tc.Step(now.Add(20 * time.Millisecond))
	if c := tc.Controller(); c.Kp != 2 || c.MaxSpeed != 0.5 || tc.Config().Controller.Kp != 2 {
		t.Errorf("a refused update changed kp %v max_speed %v", c.Kp, c.MaxSpeed)
	}
	// The speed clamp is in force: the reference never passes 0.5 m/s.
	for i := 0; i < 300; i++ {
		at := now.Add(time.Duration(30+10*i) * time.Millisecond)
		tc.SetFeedback(wire.Traction{State: wire.StateRunning, Speed: 400}, at)
		_ = tc.SetCommand(control.Twist{V: 3}, at)
		if out := tc.Step(at); out.Ref > 0.5+1e-9 {
			t.Fatalf("reference %v above the live max_speed", out.Ref)
		}
	}
}

func TestTwistControlStepAllocatesNothing(t *testing.T) {
	tc, _ := NewTwistControl(TwistNodeConfig{})
	now := time.Unix(1000, 0)
	if n := testing.AllocsPerRun(200, func() {
		now = now.Add(10 * time.Millisecond)
		tc.SetFeedback(wire.Traction{State: wire.StateRunning, Speed: 900}, now)
		_ = tc.SetCommand(control.Twist{V: 1, W: 0.1}, now)
		_ = tc.Step(now)
	}); n != 0 {
		t.Errorf("TwistControl step: %v allocations", n)
	}
}

func TestStopOutput(t *testing.T) {
	c := StopOutput(0.1)
	if f := c.Control(); f.Flags != 0 || f.Brake != wire.PedalMax || f.Throttle != 0 || f.Steer != wire.AngleToCounts(0.1) {
		t.Errorf("stop frame %+v", f)
	}
}

func TestOdomTracker(t *testing.T) {
	o, err := NewOdomTracker(control.OdometryConfig{})
	if err != nil {
		t.Fatal(err)
	}
	// Wheels at 5 rad/s, r = 0.3 m: 1.5 m/s straight. The bridge publishes
	// every period; a status frame seen twice is integrated once.
	tr := wire.Traction{State: wire.StateRunning, Left: 500, Right: 500}
	at := time.Unix(1000, 0)
	var st odometry.State // at the origin
	for i := 0; i <= 100; i++ {
		ts := uint32(1000 + 10*i)
		var ok bool
		if st, ok = o.Traction(tr, ts, at); !ok {
			t.Fatalf("sample %d refused", i)
		}
		if _, ok := o.Traction(tr, ts, at); ok {
			t.Fatalf("repeat of sample %d integrated", i)
		}
	}
	if math.Abs(st.Distance-1.5) > 1e-9 || math.Abs(st.Pose.X-1.5) > 1e-9 || st.Pose.Y != 0 || st.Stamp != at {
		t.Errorf("after 1 s at 1.5 m/s: %+v", st.Pose)
	}
	if s := o.Stats(); s.Used != 101 || s.Old != 101 {
		t.Errorf("stats %+v", s)
	}

	// Bicycle source: yaw rate from the steering angle.
	b, _ := NewOdomTracker(control.OdometryConfig{Source: control.OdomBicycle})
	b.Steering(wire.Steering{State: wire.StateRunning, Angle: 1000}) // 10 degrees left
	fwd := wire.Traction{State: wire.StateRunning, Speed: 2000}
	for i := 0; i <= 100; i++ {
		st, _ = b.Traction(fwd, uint32(10*i), at)
	}
	want := 2 * math.Tan(10*math.Pi/180) / 2.0 // v tan(δ) / L over 1 s
	if math.Abs(st.Pose.Yaw-want) > 1e-9 {
		t.Errorf("bicycle yaw %v, want %v", st.Pose.Yaw, want)
	}

	// A restarted vehicle clock is followed after furbot.ResyncAfter old samples,
	// holding the pose across the jump.
	x := st.Pose.X
	for i := 0; i < furbot.ResyncAfter; i++ {
		if _, ok := b.Traction(wire.Traction{}, 5, at); ok {
			t.Fatalf("old sample %d integrated", i)
		}
	}
	if st, ok := b.Traction(fwd, 5, at); !ok || st.Pose.X != x || b.Stats().Resyncs != 1 {
		t.Errorf("restart: ok %v x %v (was %v) resyncs %d", ok, st.Pose.X, x, b.Stats().Resyncs)
	}
}

func TestOdomTrackerAllocatesNothing(t *testing.T) {
	o, _ := NewOdomTracker(control.OdometryConfig{})
	ts := uint32(0)
	at := time.Unix(1000, 0)
	if n := testing.AllocsPerRun(200, func() {
		ts += 10
		o.Steering(wire.Steering{Angle: 100})
		_, _ = o.Traction(wire.Traction{Left: 500, Right: 510}, ts, at)
	}); n != 0 {
		t.Errorf("OdomTracker: %v allocations per sample", n)
	}
}

func TestDiagnoseBridge(t *testing.T) {
	cfg := DefaultBridgeNodeConfig()
	cfg.VehicleAddress = "127.0.0.1:18004"
	cfg.Bridge.LinkTimeout = 100 * time.Millisecond
	now := time.Unix(1000, 0)
	good := furbot.Snapshot{Status: wiretest.Full, StatusAt: now.Add(-5 * time.Millisecond), Ready: true}
	good.Status.Forks[1].State = wire.ForkReady
	good.Output = control.Output{Enable: true, Mode: control.ModeDrive}
	halted := good
	halted.Status.Steering.State = wire.StateHalted
	estop := good
	estop.Output = control.Output{EStop: true, Brake: 1, Mode: control.ModeEStop}
	stale := good
	stale.Output = control.Output{Stale: true, Brake: 1, Mode: control.ModeDisabled}
	old := good
	old.StatusAt = now.Add(-time.Second)
	for _, c := range []struct {
		name       string
		snap       furbot.Snapshot
		have       bool
		stats      furbot.BridgeStats
		link, subs diag.Level
	}{
		{"nothing received", furbot.Snapshot{}, false, furbot.BridgeStats{}, diag.Error, diag.Error},
		{"waiting for subsystems", furbot.Snapshot{}, false, furbot.BridgeStats{Accepted: 10}, diag.Error, diag.Error},
		{"all good", good, true, furbot.BridgeStats{Accepted: 10}, diag.OK, diag.OK},
		{"steering halted", halted, true, furbot.BridgeStats{Accepted: 10}, diag.Warn, diag.Warn},
		{"e-stop", estop, true, furbot.BridgeStats{Accepted: 10}, diag.Warn, diag.OK},
		{"stale control signals", stale, true, furbot.BridgeStats{Accepted: 10}, diag.Warn, diag.OK},
		{"status too old", old, true, furbot.BridgeStats{Accepted: 10}, diag.Error, diag.OK},
	} {
		d := DiagnoseBridge(cfg, c.snap, c.have, c.stats, now)
		if len(d) != 2 || d[0].Level != c.link || d[1].Level != c.subs {
			t.Errorf("%s: link %v (%s), subsystems %v (%s); want %v, %v", c.name, d[0].Level, d[0].Message, d[1].Level, d[1].Message, c.link, c.subs)
		}
	}
}

func BenchmarkTwistControlStep(b *testing.B) {
	tc, _ := NewTwistControl(TwistNodeConfig{})
	now := time.Unix(1000, 0)
	b.ReportAllocs()
	for b.Loop() {
		now = now.Add(10 * time.Millisecond)
		tc.SetFeedback(wire.Traction{State: wire.StateRunning, Speed: 900}, now)
		_ = tc.SetCommand(control.Twist{V: 1, W: 0.1}, now)
		_ = tc.Step(now)
	}
}

func BenchmarkOdomTrackerTraction(b *testing.B) {
	o, _ := NewOdomTracker(control.OdometryConfig{})
	at := time.Unix(1000, 0)
	ts := uint32(0)
	b.ReportAllocs()
	for b.Loop() {
		ts += 10
		_, _ = o.Traction(wire.Traction{Left: 500, Right: 510}, ts, at)
	}
}
