package graph_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/telebridge/telebridge/internal/testkit/browsertest"
	"github.com/telebridge/telebridge/internal/testkit/consoletest"
	"github.com/telebridge/telebridge/pkg/console"
	"github.com/telebridge/telebridge/pkg/console/graph"
)

// TestJoyFromTheBrowser: the page's gamepad reaches the graph as Joy on
// the driven machine's topic, with ROS's signs, while the deadman is
// held; releasing the pad and unplugging it publish a neutral Joy.
func TestJoyFromTheBrowser(t *testing.T) {
	browsertest.Chromium(t) // skip before starting anything
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	p := &fakePort{}
	c := config()
	c.Jog, c.Cameras = false, nil
	be, err := graph.New(c, p, nil)
	if err != nil {
		t.Fatal(err)
	}
	srv, addr := consoletest.Serve(t, ctx, console.Config{Backend: be})
	browser := browsertest.Start(t, ctx)
	page, closePage := browsertest.OpenOn(t, browser, srv.URL(addr), browsertest.Desktop, browsertest.FakeGamepad)
	defer closePage()
	browsertest.WaitFor(t, 10*time.Second, "the page in control", func() bool { return browsertest.Role(t, page) == "IN CONTROL" })

	joys := func() []string {
		var out []string
		for _, l := range p.calls() {
			if strings.HasPrefix(l, "joy ") {
				out = append(out, l)
			}
		}
		return out
	}
	const neutral = "joy /joy [0 0 0 0 0 0] [0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0]"
	// LB held, left stick full up (the browser's -1): ROS's +1 on axis 1.
	browsertest.Eval[bool](t, page, `window.__button(4, 1) && (window.__pad.axes[1] = -1, true)`)
	want := "joy /joy [0 1 0 0 0 0] [0 0 0 0 1 0 0 0 0 0 0 0 0 0 0 0 0]"
	browsertest.WaitFor(t, 10*time.Second, "the pushed pad as Joy on /joy", func() bool { return slices.Contains(joys(), want) })
	// Held: re-sent at the page's cadence, so the console's deadman does
	// not publish a neutral one meanwhile.
	n := len(joys())
	time.Sleep(time.Second)
	if got := joys()[n:]; len(got) < 3 || slices.Contains(got, neutral) {
		t.Fatalf("while held for 1 s: %q, want the pad re-sent and no neutral Joy", got)
	}
	// Released: a neutral Joy.
	browsertest.Eval[bool](t, page, `window.__button(4, 0) && (window.__pad.axes[1] = 0, true)`)
	browsertest.WaitFor(t, 10*time.Second, "a neutral Joy after the release", func() bool { return joys()[len(joys())-1] == neutral })

	// Pushed again, then unplugged with the deadman held: neutral again.
	browsertest.Eval[bool](t, page, `window.__button(4, 1) && (window.__pad.axes[0] = 1, true)`)
	want = "joy /joy [-1 0 0 0 0 0] [0 0 0 0 1 0 0 0 0 0 0 0 0 0 0 0 0]"
	browsertest.WaitFor(t, 10*time.Second, "the pad pushed right as Joy", func() bool { return joys()[len(joys())-1] == want })
	browsertest.Eval[bool](t, page, `(window.__pads = [], true)`)
	browsertest.WaitFor(t, 10*time.Second, "a neutral Joy after the pad was unplugged", func() bool { return joys()[len(joys())-1] == neutral })
}
