package sim

import (
	"context"
	"math"
	"net"
	"testing"
	"time"

	"github.com/telebridge/telebridge/pkg/servosila/wire"
)

func start(t *testing.T, cfg Config) (*Sim, *net.UDPConn) {
	t.Helper()
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Error(err)
		}
	})
	c, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return s, c
}

func send(t *testing.T, c *net.UDPConn, s *Sim, rc *wire.RemoteControl) {
	t.Helper()
	b, _ := wire.EncodeRemoteControl(make([]byte, 64), rc)
	if _, err := c.WriteToUDPAddrPort(b, s.Addr()); err != nil {
		t.Fatal(err)
	}
}

func wait(t *testing.T, s *Sim, within time.Duration, cond func(State) bool) State {
	t.Helper()
	end := time.Now().Add(within)
	for {
		st := s.State()
		if cond(st) {
			return st
		}
		if time.Now().After(end) {
			t.Fatalf("condition not met within %v: %+v", within, st)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

func TestLinkTimeoutStopsEverything(t *testing.T) {
	s, c := start(t, Config{LinkTimeout: 150 * time.Millisecond, TelemetryRate: 100})
	rc := wire.RemoteControl{FrameType: 1}
	rc.Axes[1] = 21466 // 0.3 m/s
	rc.Buttons[1] = 1  // headlight
	send(t, c, s, &rc)
	sentAt := time.Now()
	st := wait(t, s, 100*time.Millisecond, func(st State) bool { return st.Linear > 0 })
	if math.Abs(st.Linear-0.3) > 1e-5 || !st.Headlight || !st.LinkUp {
		t.Errorf("moving state %+v", st)
	}
	st = wait(t, s, time.Second, func(st State) bool { return !st.LinkUp })
	if took := time.Since(sentAt); took < 150*time.Millisecond {
		t.Errorf("link dropped after %v, before the timeout", took)
	}
	if st.Linear != 0 || st.Headlight {
		t.Errorf("not stopped after the link timeout: %+v", st)
	}
	// Telemetry stops with the link.
	n := st.TelemetrySent
	time.Sleep(50 * time.Millisecond)
	if got := s.State().TelemetrySent; got != n {
		t.Errorf("telemetry still sent with the link down: %d -> %d", n, got)
	}
	if n == 0 {
		t.Error("no telemetry while the link was up")
	}
}

func TestTelemetryReportsJoints(t *testing.T) {
	s, c := start(t, Config{TelemetryRate: 50, Initial: [wire.NumJoints]float64{wire.Waist: 0.5}})
	rc := wire.RemoteControl{FrameType: 1}
	rc.Buttons[10] = 1
	rc.Axes[4] = -6553 // neck at -0.1 rad/s with the default calibration
	send(t, c, s, &rc)
	_ = c.SetReadDeadline(time.Now().Add(time.Second))
	buf := make([]byte, 512)
	var tel wire.Telemetry
	for i := 0; i < 3; i++ { // let the neck move
		n, _, err := c.ReadFromUDPAddrPort(buf)
		if err != nil {
			t.Fatal(err)
		}
		if err := wire.DecodeTelemetry(&tel, buf[:n], 2); err != nil {
			t.Fatal(err)
		}
	}
	slots := wire.DefaultMotorSlots()
	if got := wire.CountsToRad(tel.Motors[slots[wire.Waist]].Position, 0); math.Abs(got-0.5) > 1e-3 {
		t.Errorf("waist reported at %g rad, want 0.5", got)
	}
	neck := wire.CountsToRad(tel.Motors[slots[wire.Neck]].Position, 0)
	if neck >= 0 || tel.Motors[slots[wire.Neck]].Speed != -6553 {
		t.Errorf("neck record %+v (%g rad)", tel.Motors[slots[wire.Neck]], neck)
	}
	if st := s.State(); st.Linear != 0 || st.Angular != 0 {
		t.Errorf("the chassis moved while button 10 was held: %+v", st)
	}
}

func TestStallBelowStartVelocity(t *testing.T) {
	s, c := start(t, Config{})
	rc := wire.RemoteControl{FrameType: 1}
	rc.Axes[1] = 7155 // 0.1 m/s: below the default stall velocity
	send(t, c, s, &rc)
	st := wait(t, s, 200*time.Millisecond, func(st State) bool { return st.Packets == 1 && st.At.After(st.LastAt) })
	if st.Linear != 0 || st.Pose.X != 0 {
		t.Errorf("tracks moved at 0.1 m/s: %+v", st)
	}
}

func TestSimStepAllocs(t *testing.T) {
	s, err := New(Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.conn.Close()
	rc := wire.RemoteControl{FrameType: 1}
	rc.Axes[1] = 20000
	raw, _ := wire.EncodeRemoteControl(make([]byte, 64), &rc)
	from := s.Addr() // telemetry goes back to the simulator's own socket
	now := time.Now()
	if n := testing.AllocsPerRun(100, func() {
		now = now.Add(10 * time.Millisecond)
		if err := s.handle(raw, from, now); err != nil {
			t.Fatal(err)
		}
		s.advance(now)
		s.sendTelemetry()
	}); n != 0 {
		t.Errorf("%v allocs per packet + step + telemetry", n)
	}
	if st := s.State(); st.Linear == 0 || st.TelemetrySent == 0 {
		t.Errorf("state %+v", st)
	}
}

// TestTrackStall is the per-track stall model as a table: static friction
// from standstill, none for a moving track, reversal needs a new start.
func TestTrackStall(t *testing.T) {
	s, err := New(Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.conn.Close()
	half := 0.5 * 2 * 25171.216 / 71553.837 / 2 // track speed at 0.5 rad/s in place
	if b := s.cfg.TrackSeparation; math.Abs(b-0.70357) > 1e-4 {
		t.Errorf("default track separation %g m", b)
	}
	for _, c := range []struct {
		name               string
		v, w, prevL, prevR float64
		left, right        float64
	}{
		{"still: 0.1 m/s stalls", 0.1, 0, 0, 0, 0, 0},
		{"still: 0.15 m/s starts", 0.15, 0, 0, 0, 0.15, 0.15},
		{"still: 0.1 rad/s stalls", 0, 0.1, 0, 0, 0, 0},
		{"still: 0.5 rad/s turns in place", 0, 0.5, 0, 0, -half, half},
		{"still: 0.1 m/s + 0.1 rad/s pivots on the left track", 0.1, 0.1, 0, 0, 0, 0.1 + half/5},
		{"moving: 0.05 m/s continues", 0.05, 0, 0.3, 0.3, 0.05, 0.05},
		{"moving: small yaw rate passes", 0.5, 0.02, 0.5, 0.5, 0.5 - half/25, 0.5 + half/25},
		{"moving: reversal needs a new start", -0.05, 0, 0.3, 0.3, 0, 0},
		{"moving: zero stops", 0, 0, 0.3, 0.3, 0, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			l, r := s.tracks(c.v, c.w, c.prevL, c.prevR)
			if math.Abs(l-c.left) > 1e-12 || math.Abs(r-c.right) > 1e-12 {
				t.Errorf("tracks (%g, %g), want (%g, %g)", l, r, c.left, c.right)
			}
		})
	}
}

// TestMaxStepCapsLateSteps: a physics step that comes late integrates at
// most MaxStep of simulated time.
func TestMaxStepCapsLateSteps(t *testing.T) {
	s, err := New(Config{MaxStep: 40 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer s.conn.Close()
	now := time.Now()
	s.st.At = now
	s.advance(now.Add(time.Second))
	if st := s.State(); st.Elapsed != 40*time.Millisecond || st.Steps != 1 {
		t.Errorf("elapsed %v after a 1 s late step, %d steps", st.Elapsed, st.Steps)
	}
	select {
	case <-s.Updated():
	default:
		t.Error("no update token after a step")
	}
}

// TestTelemetryEchoesCommands: every record reports the speed command it
// received (wire.ExpectEcho of the packet: tracks mixed, the neck's stick
// value) and its speed; a track that does not break away reports its
// command with zero speed. The link drop that ends it is counted, and so
// are the telemetry slots that pass without a packet.
func TestTelemetryEchoesCommands(t *testing.T) {
	s, c := start(t, Config{TelemetryRate: 50, LinkTimeout: 150 * time.Millisecond})
	read := func(rc *wire.RemoteControl) wire.Telemetry {
		t.Helper()
		var tel wire.Telemetry
		buf := make([]byte, 512)
		_ = c.SetReadDeadline(time.Now().Add(2 * time.Second))
		for i := 0; i < 3; i++ { // past the packets sent before this command took effect
			send(t, c, s, rc)
			n, _, err := c.ReadFromUDPAddrPort(buf)
			if err != nil {
				t.Fatal(err)
			}
			if err := wire.DecodeTelemetry(&tel, buf[:n], 2); err != nil {
				t.Fatal(err)
			}
		}
		return tel
	}
	m, slots := wire.DefaultMapping(), wire.DefaultMotorSlots()
	for _, tc := range []struct {
		name                  string
		axes                  map[int]int16
		buttons               []int
		leftSpeed, rightSpeed int16
		leftStall, rightStall bool
	}{
		{name: "forward", axes: map[int]int16{1: 21466}},
		{name: "forward and left (the tracks already move)", axes: map[int]int16{1: 14311, 0: 5034}},
		{name: "neck", axes: map[int]int16{4: -6553}, buttons: []int{10}},
		{name: "stop", axes: map[int]int16{}},
		{name: "below the start velocity", axes: map[int]int16{1: 7155}, leftStall: true, rightStall: true},
	} {
		var rc wire.RemoteControl
		rc.FrameType = 1
		for a, v := range tc.axes {
			rc.Axes[a] = v
		}
		for _, b := range tc.buttons {
			rc.Buttons[b] = 1
		}
		tel := read(&rc)
		var ch wire.Channels
		m.Decode(&ch, &rc)
		var want wire.SpeedEcho
		mask := wire.ExpectEcho(&want, &ch, &slots)
		var echo, speed wire.SpeedEcho
		echo.Echo(&tel)
		speed.Speeds(&tel)
		if echo != want {
			t.Errorf("%s: echoed %v, want %v (mask %b)", tc.name, echo, want, mask)
		}
		for i, stall := range map[int]bool{wire.LeftTrackSlot: tc.leftStall, wire.RightTrackSlot: tc.rightStall} {
			if w := want[i]; (stall && speed[i] != 0) || (!stall && math.Abs(float64(speed[i])-float64(w)) > 1) {
				t.Errorf("%s: track record %d speed %d for command %d (stalled %v)", tc.name, i, speed[i], w, stall)
			}
		}
		if j := slots[wire.Neck]; speed[j] != want[j] {
			t.Errorf("%s: neck speed %d, command %d", tc.name, speed[j], want[j])
		}
	}
	if st := s.State(); st.LinkDrops != 0 {
		t.Errorf("link drops %d while packets flowed", st.LinkDrops)
	}
	st := wait(t, s, 2*time.Second, func(st State) bool { return !st.LinkUp })
	wait(t, s, 2*time.Second, func(x State) bool { return x.TelemetrySlots >= st.TelemetrySlots+5 })
	if st := s.State(); st.LinkDrops != 1 || st.TelemetrySlots <= st.TelemetrySent {
		t.Errorf("after the link timeout: %d link drops, %d telemetry sent of %d slots", st.LinkDrops, st.TelemetrySent, st.TelemetrySlots)
	}
}
