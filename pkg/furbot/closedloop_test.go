package furbot_test

import (
	"context"
	"math"
	"net"
	"net/netip"
	"sync"
	"testing"
	"time"

	"github.com/telebridge/telebridge/pkg/furbot"
	"github.com/telebridge/telebridge/pkg/furbotsim"
)

// rig is a simulator and a bridge talking over loopback UDP, both on
// 127.0.0.1:0, each run by its own goroutine.
type rig struct {
	sim    *furbotsim.Sim
	bridge *furbot.Bridge
	mu     sync.Mutex
	snaps  []furbot.Snapshot
}

func newRig(t *testing.T, simCfg furbotsim.Config, bcfg furbot.BridgeConfig) *rig {
	t.Helper()
	if simCfg.Params.StartupTime == 0 {
		simCfg.Params.StartupTime = 0.2
	}
	sim, err := furbotsim.New(simCfg)
	if err != nil {
		t.Fatal(err)
	}
	r := &rig{sim: sim}
	bcfg.Listen = "127.0.0.1:0"
	bcfg.Vehicle = sim.Addr()
	bcfg.OnSnapshot = func(s *furbot.Snapshot) {
		r.mu.Lock()
		r.snaps = append(r.snaps, *s)
		r.mu.Unlock()
	}
	b, err := furbot.NewBridge(bcfg)
	if err != nil {
		t.Fatal(err)
	}
	r.bridge = b
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		if err := sim.Run(ctx); err != nil {
			t.Errorf("sim: %v", err)
		}
	}()
	go func() {
		defer wg.Done()
		if err := b.Run(ctx); err != nil {
			t.Errorf("bridge: %v", err)
		}
	}()
	t.Cleanup(func() { cancel(); wg.Wait() })
	return r
}

// snapshots returns a copy of the snapshots published so far.
func (r *rig) snapshots() []furbot.Snapshot {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]furbot.Snapshot(nil), r.snaps...)
}

// waitFor polls cond every 10 ms for up to limit; the loops are real-time
// by nature. It fails the test on timeout.
func waitFor(t *testing.T, limit time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %v waiting for %s", limit, what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// hold keeps sending cmd at 20 Hz (like a cmd_vel publisher) until stop
// is closed.
func hold(b *furbot.Bridge, cmd furbot.Twist) (stop func()) {
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		tk := time.NewTicker(50 * time.Millisecond)
		defer tk.Stop()
		for {
			_ = b.SetCommand(cmd)
			select {
			case <-done:
				return
			case <-tk.C:
			}
		}
	}()
	return func() { close(done); wg.Wait() }
}

func TestClosedLoopSpeedStep(t *testing.T) {
	r := newRig(t, furbotsim.Config{}, furbot.BridgeConfig{})
	waitFor(t, 5*time.Second, "publishing", r.bridge.Started)
	time.Sleep(200 * time.Millisecond)
	stop := hold(r.bridge, furbot.Twist{V: 1.5})
	begin := time.Now()
	time.Sleep(6 * time.Second)
	stop()

	var ts, v []float64
	for _, s := range r.snapshots() {
		if s.Stamp.Before(begin) {
			continue
		}
		if s.Output.Throttle > 0 && s.Output.Brake > 0 {
			t.Fatalf("throttle %v and brake %v together", s.Output.Throttle, s.Output.Brake)
		}
		ts = append(ts, s.Stamp.Sub(begin).Seconds())
		v = append(v, s.Status.Traction.SpeedMPS())
	}
	if len(v) < 500 {
		t.Fatalf("only %d snapshots in 6 s at 100 Hz", len(v))
	}
	os, settle, sse := stepMetrics(ts, v, 1.5, 0.02)
	t.Logf("UDP closed loop, step 0 -> 1.5 m/s: overshoot %.2f %% (limit 5), settling time into ±2 %% %.2f s (limit 3), steady-state error %.4f m/s (limit 0.02), %d snapshots",
		os*100, settle, sse, len(v))
	if os >= 0.05 || settle > 3 || sse >= 0.02 {
		t.Error("step response out of specification")
	}
	if tv := r.sim.Truth().V; math.Abs(tv-1.5) > 0.03 {
		t.Errorf("simulator truth speed %v, want 1.5", tv)
	}
}

func TestClosedLoopCurvatureOdometry(t *testing.T) {
	for _, tc := range []struct {
		name   string
		source furbot.OdomSource
	}{{"rear wheels", furbot.OdomWheels}, {"bicycle", furbot.OdomBicycle}} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := newRig(t, furbotsim.Config{}, furbot.BridgeConfig{Odometry: furbot.OdometryConfig{Source: tc.source}})
			waitFor(t, 5*time.Second, "publishing", r.bridge.Started)
			const v, radius = 2.5, 8.0
			stop := hold(r.bridge, furbot.Twist{V: v, W: v / radius})
			waitFor(t, 30*time.Second, "20 m driven", func() bool { return r.sim.Truth().Distance >= 20 })
			stop()
			waitFor(t, 10*time.Second, "standstill", func() bool {
				s, _ := r.bridge.Latest()
				return r.sim.Truth().V == 0 && s.Status.Traction.Speed == 0
			})
			time.Sleep(100 * time.Millisecond)
			truth := r.sim.Truth()
			s, _ := r.bridge.Latest()
			odo := s.Odom
			distErr := math.Abs(odo.Distance-truth.Distance) / truth.Distance
			posErr := math.Hypot(odo.Pose.X-truth.X, odo.Pose.Y-truth.Y)
			yawErr := math.Remainder(odo.Pose.Yaw-truth.Yaw, 2*math.Pi)
			t.Logf("%s odometry after a %.2f m arc (R %.0f m at %.1f m/s): distance %.3f m vs truth %.3f m (error %.3f %%, limit 1 %%); pose (%.3f, %.3f, %.4f rad) vs truth (%.3f, %.3f, %.4f rad): position error %.3f m (%.2f %% of distance), yaw error %.4f rad",
				tc.name, truth.Distance, radius, v, odo.Distance, truth.Distance, distErr*100,
				odo.Pose.X, odo.Pose.Y, odo.Pose.Yaw, truth.X, truth.Y, truth.Yaw, posErr, 100*posErr/truth.Distance, yawErr)
			if distErr >= 0.01 {
				t.Errorf("distance error %.3f %% >= 1 %%", distErr*100)
			}
			if posErr >= 0.01*truth.Distance {
				t.Errorf("position error %.3f m >= 1 %% of the distance", posErr)
			}
			// The vehicle really turned: at least 75 % of 20 m / 8 m of heading
			// (it straightens the wheels while braking at the end).
			if truth.Yaw < 0.75*20/radius {
				t.Errorf("truth yaw %v, want at least %v", truth.Yaw, 0.75*20/radius)
			}
		})
	}
}

func TestClosedLoopStaleCommandBrakesToStop(t *testing.T) {
	r := newRig(t, furbotsim.Config{}, furbot.BridgeConfig{})
	waitFor(t, 5*time.Second, "publishing", r.bridge.Started)
	stop := hold(r.bridge, furbot.Twist{V: 2})
	waitFor(t, 10*time.Second, "2 m/s", func() bool { return r.sim.Truth().V > 1.95 })
	stop() // the command source falls silent
	silent := time.Now()
	timeout := r.bridge.Config().Controller.CommandTimeout
	waitFor(t, 10*time.Second, "standstill", func() bool { return r.sim.Truth().V == 0 })
	stopped := time.Since(silent)
	d0 := r.sim.Truth().Distance
	time.Sleep(500 * time.Millisecond)
	s, _ := r.bridge.Latest()
	t.Logf("command silent: vehicle at 0 m/s after %.2f s (timeout %v), then held: moved %.4f m in 0.5 s, mode %v, brake %.2f",
		stopped.Seconds(), timeout, r.sim.Truth().Distance-d0, s.Output.Mode, s.Output.Brake)
	if !s.Output.Stale || s.Output.Mode != furbot.ModeHold || s.Output.Brake <= 0 || s.Output.Throttle != 0 {
		t.Errorf("after the stop: %+v, want stale command and holding brake", s.Output)
	}
	if moved := r.sim.Truth().Distance - d0; moved != 0 {
		t.Errorf("vehicle crept %v m while holding", moved)
	}
	for _, sn := range r.snapshots() {
		if sn.Stamp.After(silent.Add(timeout+20*time.Millisecond)) && sn.Output.Throttle > 0 {
			t.Fatalf("throttle %v at %v after the command fell silent", sn.Output.Throttle, sn.Stamp.Sub(silent))
		}
	}
}

func TestPublishingWaitsForEverySubsystem(t *testing.T) {
	r := newRig(t, furbotsim.Config{}, furbot.BridgeConfig{})
	r.sim.SetFault(furbot.BlockHydraulics, true)
	// Status frames flow, control frames flow, but nothing is published.
	waitFor(t, 5*time.Second, "status frames", func() bool { return r.bridge.Stats().Accepted > 50 })
	time.Sleep(500 * time.Millisecond)
	if r.bridge.Started() || len(r.snapshots()) != 0 {
		t.Fatalf("published %d snapshots with the hydraulics in fault", len(r.snapshots()))
	}
	st := r.bridge.Stats()
	if st.ControlSent == 0 || r.sim.Stats().Control.Accepted == 0 {
		t.Fatalf("no control frames before start: bridge %+v, sim %+v", st, r.sim.Stats())
	}
	if r.sim.Truth().V != 0 {
		t.Fatal("vehicle moved before start")
	}
	released := time.Now()
	r.sim.SetFault(furbot.BlockHydraulics, false)
	waitFor(t, 2*time.Second, "publishing", r.bridge.Started)
	snaps := r.snapshots()
	first := snaps[0]
	t.Logf("before release: %d status frames accepted, %d control frames sent, 0 snapshots; first snapshot %.0f ms after the release",
		st.Accepted, st.ControlSent, first.Stamp.Sub(released).Seconds()*1000)
	if !first.Status.AllWorking() || !first.Ready {
		t.Errorf("first snapshot not all working: mask %012b", first.Status.WorkingMask())
	}
}

func TestStartupSequenceGatesPublishing(t *testing.T) {
	r := newRig(t, furbotsim.Config{Params: furbotsim.Params{StartupTime: 0.6}}, furbot.BridgeConfig{})
	waitFor(t, 5*time.Second, "publishing", r.bridge.Started)
	snaps := r.snapshots()
	if len(snaps) == 0 {
		t.Fatal("no snapshot")
	}
	tsFirst := float64(snaps[0].Status.Timestamp) / 1000
	t.Logf("first snapshot carries vehicle time %.3f s (start-up %.1f s)", tsFirst, 0.6)
	if tsFirst < 0.6-0.011 {
		t.Errorf("published at vehicle time %.3f s, before every subsystem runs (0.6 s)", tsFirst)
	}
	for _, s := range snaps[:1] {
		if !s.Status.AllWorking() {
			t.Errorf("snapshot with mask %012b", s.Status.WorkingMask())
		}
	}
}

func TestMalformedAndForeignFramesChangeNothing(t *testing.T) {
	r := newRig(t, furbotsim.Config{}, furbot.BridgeConfig{})
	waitFor(t, 5*time.Second, "publishing", r.bridge.Started)
	stop := hold(r.bridge, furbot.Twist{}) // standing still, holding the brake
	defer stop()
	time.Sleep(300 * time.Millisecond)
	before := r.bridge.Stats()
	snapBefore, _ := r.bridge.Latest()

	// Same address as the vehicle (the filter admits any port of it):
	// malformed frames, and a valid but old frame.
	same, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	defer same.Close()
	// Another address: a valid frame claiming 10 m/s and a halted vehicle.
	other, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 2)})
	if err != nil {
		t.Skipf("cannot bind 127.0.0.2: %v", err)
	}
	defer other.Close()
	dst := net.UDPAddrFromAddrPort(r.bridge.Addr())

	bogus := furbot.Status{Timestamp: 0xfffffff0, Present: furbot.AllBlocks}
	bogus.Traction = furbot.Traction{State: furbot.StateRunning, Speed: 10000, Left: 3000, Right: 2000}
	valid := furbot.AppendStatus(nil, &bogus)
	old := bogus
	old.Timestamp = 1 // older than the vehicle's clock: dropped
	oldFrame := furbot.AppendStatus(nil, &old)
	malformed := [][]byte{
		{}, {0x41, 0x54, 0x53}, valid[:len(valid)-1], append(append([]byte{}, valid...), 0),
		append([]byte{0x41, 0x54, 0x43, 0x46}, valid[4:]...),
		furbot.AppendControl(nil, &furbot.Control{Throttle: 1000, Flags: furbot.FlagEnable}),
	}
	const rounds = 10
	for i := 0; i < rounds; i++ {
		for _, m := range malformed {
			if _, err := same.WriteToUDP(m, dst); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := other.WriteToUDP(valid, dst); err != nil {
			t.Fatal(err)
		}
		if _, err := same.WriteToUDP(oldFrame, dst); err != nil {
			t.Fatal(err)
		}
		time.Sleep(5 * time.Millisecond)
	}
	want := furbot.BridgeStats{Invalid: before.Invalid + rounds*uint64(len(malformed)), Foreign: before.Foreign + rounds, Dropped: before.Dropped + rounds}
	waitFor(t, 2*time.Second, "counters", func() bool {
		s := r.bridge.Stats()
		return s.Invalid >= want.Invalid && s.Foreign >= want.Foreign && s.Dropped >= want.Dropped
	})
	time.Sleep(100 * time.Millisecond)
	after := r.bridge.Stats()
	snap, _ := r.bridge.Latest()
	t.Logf("injected %d malformed, %d foreign, %d stale frames: invalid %d -> %d, foreign %d -> %d, dropped %d -> %d; odometry (%.4f, %.4f) -> (%.4f, %.4f); speed %d mm/s; ready %v",
		rounds*len(malformed), rounds, rounds, before.Invalid, after.Invalid, before.Foreign, after.Foreign, before.Dropped, after.Dropped,
		snapBefore.Odom.Pose.X, snapBefore.Odom.Pose.Y, snap.Odom.Pose.X, snap.Odom.Pose.Y, snap.Status.Traction.Speed, snap.Ready)
	if after.Invalid != want.Invalid || after.Foreign != want.Foreign || after.Dropped != want.Dropped {
		t.Errorf("counters %+v, want invalid %d foreign %d dropped %d", after, want.Invalid, want.Foreign, want.Dropped)
	}
	if snap.Odom.Pose != snapBefore.Odom.Pose || snap.Odom.Distance != snapBefore.Odom.Distance {
		t.Errorf("odometry moved: %+v -> %+v", snapBefore.Odom.Pose, snap.Odom.Pose)
	}
	if snap.Status.Traction.Speed != 0 || !snap.Ready || snap.Output.Throttle != 0 {
		t.Errorf("state changed: speed %d ready %v throttle %v", snap.Status.Traction.Speed, snap.Ready, snap.Output.Throttle)
	}
	if r.sim.Truth().Distance != 0 {
		t.Errorf("vehicle moved %v m", r.sim.Truth().Distance)
	}
}

func TestLatencyAndJitter(t *testing.T) {
	r := newRig(t, furbotsim.Config{}, furbot.BridgeConfig{})
	waitFor(t, 5*time.Second, "publishing", r.bridge.Started)
	time.Sleep(3 * time.Second)
	var age, late []time.Duration
	var prevFrames uint64
	for _, s := range r.snapshots() {
		late = append(late, s.Late)
		if s.Frames != prevFrames {
			age = append(age, s.Age())
			prevFrames = s.Frames
		}
	}
	a50, a99 := percentiles(age)
	j50, j99 := percentiles(late)
	st := r.bridge.Stats()
	t.Logf("100 Hz over loopback, %d snapshots: receive-to-snapshot latency p50 %v p99 %v; loop wake-up jitter p50 %v p99 %v; missed ticks %d",
		len(late), a50, a99, j50, j99, st.MissedTicks)
	if a99 > 50*time.Millisecond {
		t.Errorf("p99 latency %v above 50 ms", a99)
	}
}

// The bridge refuses a configuration without a vehicle address.
func TestBridgeConfigNeedsVehicle(t *testing.T) {
	if _, err := furbot.NewBridge(furbot.BridgeConfig{Listen: "127.0.0.1:0"}); err == nil {
		t.Fatal("no error without a vehicle address")
	}
	b, err := furbot.NewBridge(furbot.BridgeConfig{Listen: "127.0.0.1:0", Vehicle: netip.MustParseAddrPort("127.0.0.1:9")})
	if err != nil {
		t.Fatal(err)
	}
	if got := b.Config(); got.Rate != 100 || got.StatusFrom != netip.MustParseAddrPort("127.0.0.1:0") {
		t.Errorf("defaults: rate %v status from %v", got.Rate, got.StatusFrom)
	}
	b.Close()
}

func TestBridgeSendsStopFramesOnShutdown(t *testing.T) {
	sim, err := furbotsim.New(furbotsim.Config{Params: furbotsim.Params{StartupTime: 0.1}})
	if err != nil {
		t.Fatal(err)
	}
	simCtx, simCancel := context.WithCancel(context.Background())
	simDone := make(chan error, 1)
	go func() { simDone <- sim.Run(simCtx) }()
	defer func() { simCancel(); <-simDone }()
	b, err := furbot.NewBridge(furbot.BridgeConfig{Listen: "127.0.0.1:0", Vehicle: sim.Addr()})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- b.Run(ctx) }()
	waitFor(t, 5*time.Second, "publishing", b.Started)
	stop := hold(b, furbot.Twist{V: 1})
	waitFor(t, 5*time.Second, "moving", func() bool { return sim.Truth().V > 0.5 })
	stop()
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("Run: %v", err)
	}
	waitFor(t, time.Second, "stop frame", func() bool {
		c, _, _ := sim.LastControl()
		return c.Brake == furbot.PedalMax
	})
	c, _, _ := sim.LastControl()
	if c.Throttle != 0 || c.Flags&furbot.FlagEnable != 0 {
		t.Errorf("last frame %+v, want full brake, no throttle, enable clear", c)
	}
	waitFor(t, 5*time.Second, "standstill", func() bool { return sim.Truth().V == 0 })
	if err := b.Run(context.Background()); err != furbot.ErrBridgeRunning {
		t.Errorf("second Run: %v, want ErrBridgeRunning", err)
	}
}
