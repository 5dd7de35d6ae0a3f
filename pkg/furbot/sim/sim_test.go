package sim

import (
	"context"
	"net"
	"testing"
	"time"

	"github.com/telebridge/telebridge/internal/testkit/runtest"
	"github.com/telebridge/telebridge/pkg/furbot/wire"
)

// waitFor waits for cond for up to 5 s.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	runtest.WaitFor(t, 5*time.Second, what, cond)
}

// TestSimOverUDP drives the simulator with hand-made control frames from a
// plain socket: status frames come back to the sender, invalid frames are
// counted and ignored, the watchdog brakes when frames stop.
func TestSimOverUDP(t *testing.T) {
	sim, err := New(Config{Params: Params{StartupTime: 0.05}})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- sim.Run(ctx) }()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Error(err)
		}
	}()
	c, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	dst := net.UDPAddrFromAddrPort(sim.Addr())
	send := func(ctl wire.Control) {
		if _, err := c.WriteToUDP(wire.AppendControl(nil, &ctl), dst); err != nil {
			t.Fatal(err)
		}
	}
	// Invalid frames: counted, nothing moves, no status sent (peer unknown).
	for _, bad := range [][]byte{{1, 2, 3}, make([]byte, wire.ControlSize)} {
		if _, err := c.WriteToUDP(bad, dst); err != nil {
			t.Fatal(err)
		}
	}
	waitFor(t, "invalid frames counted", func() bool { return sim.Stats().Control.Malformed == 2 })
	if sim.Stats().StatusSent != 0 {
		t.Error("status sent before any valid control frame")
	}
	// Drive for 1 s with 40 % throttle at 100 Hz.
	stop := make(chan struct{})
	go func() {
		tk := time.NewTicker(10 * time.Millisecond)
		defer tk.Stop()
		for seq := uint32(0); ; seq++ {
			send(wire.Control{Seq: seq, Throttle: 400, Flags: wire.FlagEnable})
			select {
			case <-stop:
				return
			case <-tk.C:
			}
		}
	}()
	buf := make([]byte, 512)
	_ = c.SetReadDeadline(time.Now().Add(2 * time.Second))
	n, _, err := c.ReadFromUDPAddrPort(buf)
	if err != nil {
		t.Fatal(err)
	}
	var st wire.Status
	if err := wire.DecodeStatus(buf[:n], &st); err != nil {
		t.Fatalf("status from the simulator: %v", err)
	}
	waitFor(t, "moving", func() bool { return sim.Truth().V > 0.5 })
	close(stop)
	// Watchdog (250 ms): the vehicle brakes to a stop by itself.
	waitFor(t, "watchdog stop", func() bool { return sim.Truth().V == 0 })
	if c, _, ok := sim.LastControl(); !ok || c.Throttle != 400 {
		t.Errorf("last control %+v", c)
	}
	if a := sim.Addr(); !a.Addr().IsLoopback() || a.Port() == 0 {
		t.Errorf("address %v", a)
	}
}
