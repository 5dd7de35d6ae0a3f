package console

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pion/webrtc/v4"

	"github.com/telebridge/telebridge/internal/testkit/rtcpage"
	"github.com/telebridge/telebridge/pkg/video/peer"
)

// rtcPage dials a page with rtcpage, asks for camera front and returns it
// with its open command channel.
func rtcPage(t *testing.T, url string) (*rtcpage.Page, *webrtc.DataChannel) {
	t.Helper()
	p, err := rtcpage.Dial(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Close)
	p.Want("front")
	dc, err := p.Channel(10 * time.Second)
	if err != nil {
		t.Fatal(err)
	}
	return p, dc
}

// nextError returns the page's next error message.
func nextError(t *testing.T, p *rtcpage.Page) string {
	t.Helper()
	select {
	case e := <-p.Errors():
		return e
	case <-time.After(5 * time.Second):
		t.Fatal("no error message on the socket")
		return ""
	}
}

// TestCommandsOverDataChannel: commands on the WebRTC command channel take
// the WebSocket's path: executed for the page in control, refused with
// the same errors (malformed, view-only) on the page's socket, and a held
// command re-sent on the channel keeps the deadman from expiring, which
// stops the axes once the commands stop.
func TestCommandsOverDataChannel(t *testing.T) {
	be := &videoBackend{}
	clk := &stepClock{t: t0} // the deadman's clock: each re-send 100 ms later
	_, url := serveTest(t, Config{Backend: be, WebRTC: loopbackOnly, Clock: clk})
	p1, dc1 := rtcPage(t, url)
	p2, dc2 := rtcPage(t, url)
	be.take()

	if err := dc1.SendText(`{"type":"servosila_drive","linear":0.3,"angular":0}`); err != nil {
		t.Fatal(err)
	}
	waitCall(t, be, "drive 0.3 0")
	if err := dc1.SendText(`{"type":"servosila_drive","linear":"fast"}`); err != nil {
		t.Fatal(err)
	}
	if e := nextError(t, p1); !strings.Contains(e, "bad message") {
		t.Errorf("malformed command on the channel: %q, want a bad message", e)
	}
	if err := dc2.SendText(`{"type":"servosila_drive","linear":0.3,"angular":0}`); err != nil {
		t.Fatal(err)
	}
	if e := nextError(t, p2); !strings.Contains(e, ErrViewOnly.Error()) {
		t.Errorf("view-only page's command on the channel: %q, want %q", e, ErrViewOnly)
	}
	// Held for 1 s of the console's clock (over three deadman timeouts of
	// 300 ms), re-sent every 100 ms: no stop.
	be.take()
	var all []string
	for range 10 {
		clk.add(100 * time.Millisecond)
		if err := dc1.SendText(`{"type":"servosila_drive","linear":0.2,"angular":0}`); err != nil {
			t.Fatal(err)
		}
		all = append(all, waitCall(t, be, "drive 0.2 0")...) // handled at this clock
	}
	time.Sleep(100 * time.Millisecond) // a few deadman ticks at the held clock
	if all = append(all, be.take()...); slices.Contains(all, "drive 0 0") {
		t.Fatalf("stopped while held on the channel: %q", all)
	}
	clk.add(400 * time.Millisecond)
	waitCall(t, be, "drive 0 0") // the deadman, once the commands stopped
}

// waitCall waits until the backend was called with want and returns the
// calls it took.
func waitCall(t *testing.T, be *videoBackend, want string) []string {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	var seen []string
	for time.Now().Before(deadline) {
		seen = append(seen, be.take()...)
		if slices.Contains(seen, want) {
			return seen
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("no call %q in %q", want, seen)
	return nil
}

// TestPromptFollowsLease: the session of the page holding the lease reads
// its sockets as datagrams arrive (its commands must not wait for a
// picture); a watcher's reads after each picture; taking control swaps
// them.
func TestPromptFollowsLease(t *testing.T) {
	be := &videoBackend{}
	s, url := serveTest(t, Config{Backend: be, WebRTC: loopbackOnly})
	// prompts lists the sessions' Prompt in the order they were made.
	prompts := func() []bool {
		st := s.WebRTCStats()
		slices.SortFunc(st, func(a, b peer.Stats) int { return int(a.ID) - int(b.ID) })
		var out []bool
		for _, x := range st {
			out = append(out, x.Prompt)
		}
		return out
	}
	waitPrompts := func(want []bool, when string) {
		t.Helper()
		deadline := time.Now().Add(5 * time.Second)
		for !slices.Equal(prompts(), want) {
			if time.Now().After(deadline) {
				t.Fatalf("%s: prompt sessions %v, want %v", when, prompts(), want)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	rtcPage(t, url) // the first page holds the lease
	waitPrompts([]bool{true}, "the holder alone")
	_, dc2 := rtcPage(t, url)
	waitPrompts([]bool{true, false}, "a watcher joined")
	if err := dc2.SendText(`{"type":"take_control"}`); err != nil {
		t.Fatal(err)
	}
	waitPrompts([]bool{false, true}, "the watcher took control")
}
