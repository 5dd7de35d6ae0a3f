package furbot_test

import (
	"context"
	"errors"
	"math"
	"net"
	"net/netip"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/telebridge/telebridge/internal/testkit/runtest"
	"github.com/telebridge/telebridge/internal/testkit/simrig"
	"github.com/telebridge/telebridge/pkg/furbot"
	"github.com/telebridge/telebridge/pkg/furbot/control"
	"github.com/telebridge/telebridge/pkg/furbot/internal/steptest"
	"github.com/telebridge/telebridge/pkg/furbot/sim"
	"github.com/telebridge/telebridge/pkg/furbot/wire"
)

// t0 is the start of the virtual clocks.
var t0 = steptest.T0

// rig is a simulator and a bridge talking over loopback UDP, both on
// 127.0.0.1:0, each run by its own goroutine (the shared rig,
// internal/testkit/simrig, without the impairment proxy).
type rig struct {
	sim    *sim.Sim
	bridge *furbot.Bridge
	mu     sync.Mutex
	snaps  []furbot.Snapshot
}

func newRig(t *testing.T, simCfg sim.Config, bcfg furbot.BridgeConfig) *rig {
	t.Helper()
	if simCfg.Params.StartupTime == 0 {
		simCfg.Params.StartupTime = 0.2
	}
	r := &rig{}
	rr := simrig.New(t, simrig.Config[*sim.Sim, *furbot.Bridge]{
		Direct: true,
		NewSim: func(listen string) (*sim.Sim, error) {
			c := simCfg
			c.Listen = listen
			return sim.New(c)
		},
		NewDriver: func(at netip.AddrPort) (*furbot.Bridge, func(context.Context) error, error) {
			bcfg.Listen = "127.0.0.1:0"
			bcfg.Vehicle = at
			bcfg.OnSnapshot = func(s *furbot.Snapshot) {
				r.mu.Lock()
				r.snaps = append(r.snaps, *s)
				r.mu.Unlock()
			}
			b, err := furbot.NewBridge(bcfg)
			if err != nil {
				return nil, nil, err
			}
			return b, b.Run, nil
		},
	})
	r.sim, r.bridge = rr.Sim(), rr.Driver
	return r
}

// snapshots returns a copy of the snapshots published so far.
func (r *rig) snapshots() []furbot.Snapshot {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]furbot.Snapshot(nil), r.snaps...)
}

// waitFor polls cond until it holds (simrig.WaitFor); the loops are
// real-time by nature. It fails the test after limit.
func waitFor(t *testing.T, limit time.Duration, what string, cond func() bool) {
	t.Helper()
	runtest.WaitFor(t, limit, what, cond)
}

// hold keeps sending cmd at 20 Hz (like a cmd_vel publisher) until stop
// is closed.
func hold(b *furbot.Bridge, cmd control.Twist) (stop func()) {
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

// lockRig is a rig in lock-step: the test runs each 10 ms period itself
// (bridge step, control frame over UDP, simulator step, status frame over
// UDP) on a virtual clock, so the results do not depend on how loaded the
// machine is. The frames still cross real loopback sockets.
type lockRig struct {
	*rig
	ns  atomic.Int64 // virtual time since t0
	ctx context.Context
}

func (l *lockRig) now() time.Time { return t0.Add(time.Duration(l.ns.Load())) }

func newLockRig(t *testing.T, bcfg furbot.BridgeConfig) *lockRig {
	t.Helper()
	l := &lockRig{ctx: context.Background()}
	bcfg.Manual, bcfg.Clock = true, l.now
	l.rig = newRig(t, sim.Config{Manual: true, Clock: l.now}, bcfg)
	return l
}

// period runs one 10 ms period and waits for both frames to arrive.
func (l *lockRig) period(t *testing.T) {
	t.Helper()
	c := l.sim.Stats().Control.Accepted
	if err := l.bridge.Step(l.ctx); err != nil {
		t.Fatal(err)
	}
	waitDelivery(t, "control frame", func() bool { return l.sim.Stats().Control.Accepted > c })
	n := l.bridge.Stats().Accepted
	if err := l.sim.Step(l.ctx); err != nil {
		t.Fatal(err)
	}
	waitDelivery(t, "status frame", func() bool { return l.bridge.Stats().Accepted > n })
	l.ns.Add(int64(10 * time.Millisecond))
}

// drive runs n periods, refreshing cmd every 5 periods (20 Hz, like a
// cmd_vel publisher) when cmd is not nil, and calls each after a period.
func (l *lockRig) drive(t *testing.T, n int, cmd *control.Twist, each func(i int)) {
	t.Helper()
	for i := 0; i < n; i++ {
		if cmd != nil && i%5 == 0 {
			if err := l.bridge.SetCommand(*cmd); err != nil {
				t.Fatal(err)
			}
		}
		l.period(t)
		if each != nil {
			each(i)
		}
	}
}

func waitDelivery(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("%s not delivered within 5 s", what)
		}
		time.Sleep(20 * time.Microsecond)
	}
}

// startLock runs periods until the bridge publishes.
func (l *lockRig) startLock(t *testing.T) {
	t.Helper()
	for i := 0; !l.bridge.Started(); i++ {
		if i > 500 {
			t.Fatal("not started after 5 s of vehicle time")
		}
		l.period(t)
	}
}

func TestClosedLoopSpeedStep(t *testing.T) {
	l := newLockRig(t, furbot.BridgeConfig{})
	l.startLock(t)
	cmd := control.Twist{V: 1.5}
	var ts, v []float64
	begin := l.now()
	l.drive(t, 600, &cmd, func(int) {
		s, _ := l.bridge.Latest()
		if s.Output.Throttle > 0 && s.Output.Brake > 0 {
			t.Fatalf("throttle %v and brake %v together", s.Output.Throttle, s.Output.Brake)
		}
		ts = append(ts, l.now().Sub(begin).Seconds())
		v = append(v, s.Status.Traction.SpeedMPS())
	})
	os, settle, sse := steptest.StepMetrics(ts, v, 1.5, 0.02)
	t.Logf("UDP closed loop (lock-step, 10 ms periods), step 0 -> 1.5 m/s: overshoot %.2f %% (limit 5), settling time into ±2 %% %.2f s (limit 3), steady-state error %.4f m/s (limit 0.02)",
		os*100, settle, sse)
	if os >= 0.05 || settle > 3 || sse >= 0.02 {
		t.Error("step response out of specification")
	}
	if tv := l.sim.Truth().V; math.Abs(tv-1.5) > 0.02 {
		t.Errorf("simulator truth speed %v, want 1.5", tv)
	}
}

// TestClosedLoopSpeedStepRealTime runs the same step on the real 100 Hz
// timers. Its figures depend on the machine's load, so it only requires
// the target to be reached and logs the step metrics.
func TestClosedLoopSpeedStepRealTime(t *testing.T) {
	r := newRig(t, sim.Config{}, furbot.BridgeConfig{})
	waitFor(t, 5*time.Second, "publishing", r.bridge.Started)
	stop := hold(r.bridge, control.Twist{V: 1.5})
	begin := time.Now()
	waitFor(t, 15*time.Second, "1.5 m/s", func() bool { return math.Abs(r.sim.Truth().V-1.5) < 0.03 })
	time.Sleep(time.Until(begin.Add(5 * time.Second)))
	stop()
	var ts, v []float64
	for _, s := range r.snapshots() {
		if !s.Stamp.Before(begin) {
			ts = append(ts, s.Stamp.Sub(begin).Seconds())
			v = append(v, s.Status.Traction.SpeedMPS())
		}
	}
	os, settle, sse := steptest.StepMetrics(ts, v, 1.5, 0.02)
	t.Logf("UDP closed loop on real 100 Hz timers, step 0 -> 1.5 m/s: overshoot %.2f %%, settling %.2f s, steady-state error %.4f m/s, %d snapshots in %.1f s, %d missed periods",
		os*100, settle, sse, len(v), ts[len(ts)-1], r.bridge.Stats().MissedTicks)
}

func TestClosedLoopCurvatureOdometry(t *testing.T) {
	for _, tc := range []struct {
		name   string
		source control.OdomSource
	}{{"rear wheels", control.OdomWheels}, {"bicycle", control.OdomBicycle}} {
		t.Run(tc.name, func(t *testing.T) {
			l := newLockRig(t, furbot.BridgeConfig{Odometry: control.OdometryConfig{Source: tc.source}})
			l.startLock(t)
			const v, radius = 2.5, 8.0
			cmd := control.Twist{V: v, W: v / radius}
			for l.sim.Truth().Distance < 20 {
				l.drive(t, 10, &cmd, nil)
				if l.now().Sub(t0) > time.Minute {
					t.Fatal("20 m not driven in a minute of vehicle time")
				}
			}
			stop := control.Twist{}
			for i := 0; ; i++ {
				l.drive(t, 10, &stop, nil)
				if s, _ := l.bridge.Latest(); l.sim.Truth().V == 0 && s.Status.Traction.Speed == 0 {
					break
				}
				if i > 1000 {
					t.Fatal("no standstill")
				}
			}
			truth := l.sim.Truth()
			s, _ := l.bridge.Latest()
			odo := s.Odom
			distErr := math.Abs(odo.Distance-truth.Distance) / truth.Distance
			posErr := math.Hypot(odo.Pose.X-truth.X, odo.Pose.Y-truth.Y)
			yawErr := math.Remainder(odo.Pose.Yaw-truth.Yaw, 2*math.Pi)
			t.Logf("%s odometry after a %.2f m arc (R %.0f m at %.1f m/s, lock-step UDP): distance %.3f m vs truth %.3f m (error %.3f %%, limit 1 %%); pose (%.3f, %.3f, %.4f rad) vs truth (%.3f, %.3f, %.4f rad): position error %.3f m (%.2f %% of distance), yaw error %.4f rad",
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
	l := newLockRig(t, furbot.BridgeConfig{})
	l.startLock(t)
	cmd := control.Twist{V: 2}
	for i := 0; l.sim.Truth().V < 1.95; i++ {
		if i > 1000 {
			t.Fatal("2 m/s not reached")
		}
		l.drive(t, 1, &cmd, nil)
	}
	// The command source falls silent: no SetCommand from here on.
	silent := l.now()
	timeout := l.bridge.Config().Controller.CommandTimeout
	firstBrake := time.Duration(-1)
	for i := 0; l.sim.Truth().V > 0; i++ {
		if i > 1000 {
			t.Fatal("no standstill within 10 s")
		}
		l.drive(t, 1, nil, nil)
		s, _ := l.bridge.Latest()
		age := l.now().Sub(silent)
		if s.Output.Throttle > 0 && age > timeout+20*time.Millisecond {
			t.Fatalf("throttle %v %v after the command fell silent", s.Output.Throttle, age)
		}
		if firstBrake < 0 && s.Output.Brake > 0 {
			firstBrake = age
		}
	}
	stopped := l.now().Sub(silent)
	stopDist := l.sim.Truth().Distance
	l.drive(t, 100, nil, nil)
	s, _ := l.bridge.Latest()
	moved := l.sim.Truth().Distance - stopDist
	t.Logf("command silent at 2 m/s: first brake after %v (timeout %v), standstill after %.2f s, then held for 1 s: moved %.4f m, mode %v, brake %.2f",
		firstBrake, timeout, stopped.Seconds(), moved, s.Output.Mode, s.Output.Brake)
	if firstBrake < timeout || firstBrake > timeout+50*time.Millisecond {
		t.Errorf("first brake %v after silence, want just after the %v timeout", firstBrake, timeout)
	}
	if !s.Output.Stale || s.Output.Mode != control.ModeHold || s.Output.Brake <= 0 || s.Output.Throttle != 0 {
		t.Errorf("after the stop: %+v, want stale command and holding brake", s.Output)
	}
	if moved != 0 {
		t.Errorf("vehicle crept %v m while holding", moved)
	}
}

func TestPublishingWaitsForEverySubsystem(t *testing.T) {
	r := newRig(t, sim.Config{}, furbot.BridgeConfig{})
	r.sim.SetFault(wire.BlockHydraulics, true)
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
	r.sim.SetFault(wire.BlockHydraulics, false)
	// Started is set before the first snapshot is handed out: wait for the
	// snapshot itself.
	waitFor(t, 20*time.Second, "the first snapshot", func() bool { return len(r.snapshots()) > 0 })
	snaps := r.snapshots()
	first := snaps[0]
	t.Logf("before release: %d status frames accepted, %d control frames sent, 0 snapshots; first snapshot %.0f ms after the release",
		st.Accepted, st.ControlSent, first.Stamp.Sub(released).Seconds()*1000)
	if !first.Status.AllWorking() || !first.Ready {
		t.Errorf("first snapshot not all working: mask %012b", first.Status.WorkingMask())
	}
}

func TestStartupSequenceGatesPublishing(t *testing.T) {
	r := newRig(t, sim.Config{Params: sim.Params{StartupTime: 0.6}}, furbot.BridgeConfig{})
	waitFor(t, 20*time.Second, "the first snapshot", func() bool { return len(r.snapshots()) > 0 })
	snaps := r.snapshots()
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

// TestMalformedAndForeignFramesChangeNothing: malformed frames, old
// frames and valid frames from a foreign address are counted and change
// nothing: not the odometry, the speed, the control output, nor the
// status the bridge holds. Readiness is judged on every snapshot of the
// injection, by its cause: the bridge is not ready when its latest
// status frame is older than LinkTimeout (a CPU stall of the simulator or
// the receiver on a loaded machine does that, rightly) or when a
// subsystem is not working (what an accepted injected frame would do).
// So every snapshot must hold a status with every subsystem working, and
// one that is not ready must have a stale status; after the injection a
// fresh vehicle frame makes the bridge ready again.
func TestMalformedAndForeignFramesChangeNothing(t *testing.T) {
	const linkTimeout = 100 * time.Millisecond
	r := newRig(t, sim.Config{}, furbot.BridgeConfig{LinkTimeout: linkTimeout})
	waitFor(t, 5*time.Second, "publishing", r.bridge.Started)
	stop := hold(r.bridge, control.Twist{}) // standing still, holding the brake
	defer stop()
	time.Sleep(300 * time.Millisecond)
	before := r.bridge.Stats()
	snapBefore, _ := r.bridge.Latest()
	from := len(r.snapshots()) // the first snapshot judged

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

	bogus := wire.Status{Timestamp: 0xfffffff0, Present: wire.AllBlocks}
	bogus.Traction = wire.Traction{State: wire.StateRunning, Speed: 10000, Left: 3000, Right: 2000}
	valid := wire.AppendStatus(nil, &bogus)
	old := bogus
	old.Timestamp = 1 // older than the vehicle's clock: dropped
	oldFrame := wire.AppendStatus(nil, &old)
	malformed := [][]byte{
		{}, {0x41, 0x54, 0x53}, valid[:len(valid)-1], append(append([]byte{}, valid...), 0),
		append([]byte{0x41, 0x54, 0x43, 0x46}, valid[4:]...),
		wire.AppendControl(nil, &wire.Control{Throttle: 1000, Flags: wire.FlagEnable}),
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
	// The first snapshot after the injection with a status frame received
	// since: the vehicle's frames still get through.
	end, _ := r.bridge.Latest()
	var snap furbot.Snapshot
	waitFor(t, 5*time.Second, "a vehicle frame after the injection", func() bool {
		snap, _ = r.bridge.Latest()
		return snap.Seq > end.Seq && snap.Frames > end.Frames && snap.Ready
	})
	snaps := r.snapshots()[from:]
	stale := 0
	for _, s := range snaps {
		if s.Seq > snap.Seq {
			break
		}
		switch {
		case !s.Status.AllWorking():
			t.Errorf("snapshot %d: subsystems working %012b, want all", s.Seq, s.Status.WorkingMask())
		case !s.Ready && s.Age() <= linkTimeout:
			t.Errorf("snapshot %d: not ready with a status %v old and every subsystem working", s.Seq, s.Age())
		case !s.Ready:
			stale++
		}
		if s.Status.Traction.Speed != 0 || s.Output.Throttle != 0 {
			t.Errorf("snapshot %d: speed %d mm/s, throttle %v", s.Seq, s.Status.Traction.Speed, s.Output.Throttle)
		}
	}
	t.Logf("injected %d malformed, %d foreign, %d stale frames: invalid %d -> %d, foreign %d -> %d, dropped %d -> %d; odometry (%.4f, %.4f) -> (%.4f, %.4f); speed %d mm/s; %d snapshots judged, %d not ready with a status older than %v",
		rounds*len(malformed), rounds, rounds, before.Invalid, after.Invalid, before.Foreign, after.Foreign, before.Dropped, after.Dropped,
		snapBefore.Odom.Pose.X, snapBefore.Odom.Pose.Y, snap.Odom.Pose.X, snap.Odom.Pose.Y, snap.Status.Traction.Speed, len(snaps), stale, linkTimeout)
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
	r := newRig(t, sim.Config{}, furbot.BridgeConfig{})
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
	a50, a99 := steptest.Percentiles(age)
	j50, j99 := steptest.Percentiles(late)
	st := r.bridge.Stats()
	t.Logf("100 Hz over loopback, %d snapshots: receive-to-snapshot latency p50 %v p99 %v; loop wake-up jitter p50 %v p99 %v; missed ticks %d",
		len(late), a50, a99, j50, j99, st.MissedTicks)
	if len(age) == 0 || a50 > time.Second {
		t.Errorf("latency p50 %v over %d samples", a50, len(age))
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
	sim, err := sim.New(sim.Config{Params: sim.Params{StartupTime: 0.1}})
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
	stop := hold(b, control.Twist{V: 1})
	waitFor(t, 5*time.Second, "moving", func() bool { return sim.Truth().V > 0.5 })
	stop()
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("Run: %v", err)
	}
	waitFor(t, time.Second, "stop frame", func() bool {
		c, _, _ := sim.LastControl()
		return c.Brake == wire.PedalMax
	})
	c, _, _ := sim.LastControl()
	if c.Throttle != 0 || c.Flags&wire.FlagEnable != 0 {
		t.Errorf("last frame %+v, want full brake, no throttle, enable clear", c)
	}
	waitFor(t, 5*time.Second, "standstill", func() bool { return sim.Truth().V == 0 })
	if err := b.Run(context.Background()); err != furbot.ErrBridgeRunning {
		t.Errorf("second Run: %v, want ErrBridgeRunning", err)
	}
}

func TestWaitStarted(t *testing.T) {
	r := newRig(t, sim.Config{}, furbot.BridgeConfig{})
	r.sim.SetFault(wire.BlockHydraulics, true)
	waitFor(t, 5*time.Second, "status frames", func() bool { return r.bridge.Stats().Accepted > 0 })
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	err := r.bridge.WaitStarted(ctx)
	cancel()
	if !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "status frames") {
		t.Fatalf("hydraulics in fault: WaitStarted = %v, want a deadline error that counts the status frames", err)
	}
	r.sim.SetFault(wire.BlockHydraulics, false)
	ctx, cancel = context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := r.bridge.WaitStarted(ctx); err != nil || !r.bridge.Started() {
		t.Fatalf("fault released: WaitStarted = %v, Started %v", err, r.bridge.Started())
	}
}

func TestWaitStartedEndsWithRun(t *testing.T) {
	b, err := furbot.NewBridge(furbot.BridgeConfig{Listen: "127.0.0.1:0", Vehicle: netip.MustParseAddrPort("127.0.0.1:9")})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- b.Run(ctx) }()
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("run: %v", err)
	}
	if err := b.WaitStarted(context.Background()); !errors.Is(err, furbot.ErrBridgeStopped) {
		t.Fatalf("WaitStarted after Run returned = %v, want ErrBridgeStopped", err)
	}
}
