package direct_test

import (
	"context"
	"io"
	"log/slog"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/telebridge/telebridge/internal/testkit/consoletest"
	"github.com/telebridge/telebridge/pkg/console"
	"github.com/telebridge/telebridge/pkg/console/direct"
)

// TestEStopFloodPackets is the probe against the real driver and
// simulator: three pages flood e-stops for a second; the robot gets at
// most the driver's packet rate (e-stops repeated at 1/MaxSendRate while
// latched, plus its keep-alive), not a packet per message.
func TestEStopFloodPackets(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	be, err := direct.Start(ctx, direct.Config{Furbot: "off", NoJog: true, Cameras: []string{"off"}})
	if err != nil {
		t.Fatal(err)
	}
	// A cleanup, not a defer: it runs after the console's, which stops
	// the console first.
	t.Cleanup(func() {
		if err := be.Close(); err != nil {
			t.Errorf("backend: %v", err)
		}
	})
	srv, addr := consoletest.Serve(t, ctx, console.Config{Backend: be, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	var pages []*websocket.Conn
	for range 3 {
		ws, _, err := websocket.Dial(ctx, "ws://"+addr.String()+"/ws", nil)
		if err != nil {
			t.Fatal(err)
		}
		defer ws.CloseNow()
		go func() { // a live page reads
			for {
				if _, _, err := ws.Read(ctx); err != nil {
					return
				}
			}
		}()
		pages = append(pages, ws)
	}
	sim := be.ServosilaSim()
	time.Sleep(300 * time.Millisecond) // the link is up
	p0 := sim.State().Packets
	start := time.Now()
	var sent atomic.Int64
	var wg sync.WaitGroup
	for _, ws := range pages {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for time.Since(start) < time.Second {
				if ws.Write(ctx, websocket.MessageText, []byte(`{"type":"estop"}`)) != nil {
					return
				}
				sent.Add(1)
			}
		}()
	}
	wg.Wait()
	// Every message handled (passed on or held back), then the packets
	// counted.
	handled := func() uint64 { return srv.Counters().EStopsHeld.Load() + srv.Counters().EStopsSent.Load() }
	for handled() < uint64(sent.Load()) && time.Since(start) < 10*time.Second {
		time.Sleep(10 * time.Millisecond)
	}
	elapsed := time.Since(start)
	got := sim.State().Packets - p0
	c := be.ServosilaDriver().Config()
	bound := uint64((c.MaxSendRate+c.SendRate)*elapsed.Seconds()) + 5
	t.Logf("%d e-stops from 3 pages in %v: %d packets at the robot (bound %d), %d e-stops held back", sent.Load(), elapsed, got, bound, srv.Counters().EStopsHeld.Load())
	if h := handled(); h != uint64(sent.Load()) {
		t.Fatalf("%d of %d e-stops handled after %v", h, sent.Load(), elapsed)
	}
	if sent.Load() < 1000 {
		t.Fatalf("only %d e-stops sent: no flood", sent.Load())
	}
	if got > bound {
		t.Fatalf("%d packets reached the robot for %d e-stops, want at most %d", got, sent.Load(), bound)
	}
	if !be.ServosilaDriver().Status().EStopped {
		t.Fatal("not latched")
	}
}
