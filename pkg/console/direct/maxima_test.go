package direct_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"math"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/telebridge/telebridge/internal/testkit/consoletest"
	"github.com/telebridge/telebridge/pkg/console"
	"github.com/telebridge/telebridge/pkg/console/direct"
)

// TestTwistWithinMaxima is the probe closed over the simulator's
// truth: an operator's page over a real WebSocket sets the maxima and
// holds a drive; the simulated Servosila, reached over real UDP through
// the driver, executes per track (a track standing still starts only at
// its start threshold). What it does, sampled every physics step, stays
// within the operator's maxima, and it moves. Before the per-track rule
// the first case turned at 0.242 rad/s and the second drove at 0.060 m/s.
func TestTwistWithinMaxima(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	be, err := direct.Start(ctx, direct.Config{Furbot: "off", NoJog: true, Cameras: []string{"off"}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := be.Close(); err != nil {
			t.Errorf("backend: %v", err)
		}
	})
	_, addr := consoletest.Serve(t, ctx, console.Config{Backend: be, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
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
	send := func(format string, a ...any) {
		t.Helper()
		if err := ws.Write(ctx, websocket.MessageText, fmt.Appendf(nil, format, a...)); err != nil {
			t.Fatal(err)
		}
	}
	sim := be.ServosilaSim()
	for _, c := range []struct {
		name                 string
		maxLin, maxAng, v, w float64
	}{
		{"angular maximum 0.2 rad/s, 0.1 m/s with 0.2 rad/s", 0.45, 0.2, 0.1, 0.2},
		{"linear maximum 0.05 m/s, 0.05 m/s with 0.2 rad/s", 0.05, 1.3, 0.05, 0.2},
		{"maxima 0.2 and 0.2, the diagonal", 0.2, 0.2, 0.2, 0.2},
		{"maxima 0.2 and 0.2, backwards to the right", 0.2, 0.2, -0.15, -0.2},
	} {
		t.Run(c.name, func(t *testing.T) {
			// From standstill: every track must break away again.
			send(`{"type":"servosila_drive","linear":0,"angular":0}`)
			waitFor(t, 10*time.Second, "the robot standing", func() bool {
				st := sim.State()
				return st.Left == 0 && st.Right == 0
			})
			send(`{"type":"max_velocity","joint":"linear","value":%g}`, c.maxLin)
			send(`{"type":"max_velocity","joint":"angular","value":%g}`, c.maxAng)
			// Hold the drive for 2 s (refreshed within the deadman's
			// timeout) and read the truth at every physics step.
			var maxV, maxW, turned float64
			start, d0 := time.Now(), sim.State().Distance
			yaw := sim.State().Pose.Yaw
			next := start
			for time.Since(start) < 2*time.Second {
				if time.Now().After(next) {
					send(`{"type":"servosila_drive","linear":%g,"angular":%g}`, c.v, c.w)
					next = next.Add(100 * time.Millisecond)
				}
				select {
				case <-sim.Updated():
				case <-time.After(50 * time.Millisecond):
				}
				st := sim.State()
				maxV, maxW = math.Max(maxV, math.Abs(st.Linear)), math.Max(maxW, math.Abs(st.Angular))
				turned += math.Abs(math.Remainder(st.Pose.Yaw-yaw, 2*math.Pi))
				yaw = st.Pose.Yaw
			}
			moved := math.Max(sim.State().Distance-d0, turned)
			send(`{"type":"servosila_drive","linear":0,"angular":0}`)
			t.Logf("asked %g m/s, %g rad/s with maxima %g m/s, %g rad/s: the robot ran at up to %.4f m/s, %.4f rad/s (moved %.3f m or rad)",
				c.v, c.w, c.maxLin, c.maxAng, maxV, maxW, moved)
			if maxV > c.maxLin*1.001+1e-4 || maxW > c.maxAng*1.001+1e-4 {
				t.Errorf("the robot ran at %.4f m/s, %.4f rad/s: over the maxima %g m/s, %g rad/s", maxV, maxW, c.maxLin, c.maxAng)
			}
			if moved < 0.05 {
				t.Errorf("the robot did not move (%.3f m or rad in 2 s)", moved)
			}
		})
	}
}
