package direct_test

import (
	"context"
	"encoding/json"
	"net/url"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/coder/websocket"

	"github.com/telebridge/telebridge/internal/testkit/browsertest"
	"github.com/telebridge/telebridge/pkg/console"
	"github.com/telebridge/telebridge/pkg/console/direct"
	"github.com/telebridge/telebridge/pkg/video"
)

// leaseGoneBound is the documented bound (docs/console.md, "Liveness and
// the lease") from a page going (its tab closed or reloaded, the browser
// killed) to the lease being free for the next page: at once when its
// system closes the TCP connection (0.1-1.0 s on a loaded machine, a
// probe's connection included), PingPeriod + PongTimeout when nothing
// closes it.
const leaseGoneBound = 1500 * time.Millisecond

// probeControl joins the console at u as a page would (a WebSocket
// without a browser), reports whether its hello gave it control, and
// leaves (freeing the lease again if it had it).
func probeControl(t *testing.T, u string) bool {
	t.Helper()
	pu, err := url.Parse(u)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	ws, _, err := websocket.Dial(ctx, "ws://"+pu.Host+"/ws?watch=0", nil)
	if err != nil {
		t.Fatalf("probe: %v", err)
	}
	defer ws.CloseNow()
	_, b, err := ws.Read(ctx)
	if err != nil {
		t.Fatalf("probe: hello: %v", err)
	}
	var hello struct {
		Type    string `json:"type"`
		Control bool   `json:"control"`
	}
	if err := json.Unmarshal(b, &hello); err != nil || hello.Type != "hello" {
		t.Fatalf("probe: the first message is not the hello: %.80q (%v)", b, err)
	}
	return hello.Control
}

// leaseFreeAfter polls with probeControl until a new page gets control
// and returns how long after since that took; it fails the test after
// limit.
func leaseFreeAfter(t *testing.T, u string, since time.Time, limit time.Duration, what string) time.Duration {
	t.Helper()
	for !probeControl(t, u) {
		if time.Since(since) > limit {
			t.Fatalf("%s: the lease is still held %v later (a new page gets control=false)", what, time.Since(since).Round(time.Millisecond))
		}
		time.Sleep(10 * time.Millisecond)
	}
	return time.Since(since)
}

// webrtcInControl opens a page of browser on the console, makes it the
// holder and waits until its cameras play over WebRTC with the command
// channel open.
func (r *rig) webrtcInControl(browser context.Context) (context.Context, context.CancelFunc) {
	r.t.Helper()
	t := r.t
	p, closeP := browsertest.OpenOn(t, browser, r.url, browsertest.Desktop, catchErrors)
	waitFor(t, 10*time.Second, "the page connected", func() bool {
		role := browsertest.Role(t, p)
		return role == "IN CONTROL" || strings.HasPrefix(role, "VIEW ONLY")
	})
	if browsertest.Role(t, p) != "IN CONTROL" {
		r.click(p, "#take")
	}
	waitFor(t, 10*time.Second, "the page in control", func() bool { return browsertest.Role(t, p) == "IN CONTROL" })
	waitFor(t, 20*time.Second, "WebRTC connected with its command channel open", func() bool {
		return eval[bool](r, p, `(() => { const s = window.__video.state(); return s.pc === 'connected' && s.dc; })()`)
	})
	return p, closeP
}

// TestWebRTCPageGoneFreesLease: a WebRTC page that goes (its tab closed,
// reloaded, or the whole browser killed), three times each, with a key
// held: the robot stops (simulator truth), the lease is free for the next
// page within leaseGoneBound, and the page's WebRTC session closes. The
// console runs its shipped WebRTC configuration (console.Config's zero
// WebRTC: mDNS as shipped, every interface's host candidates) and the
// browser its default flags (no loopback candidates: it reaches the
// console's host candidate on this machine's own interface).
func TestWebRTCPageGoneFreesLease(t *testing.T) {
	if !video.H264Available() {
		t.Skip("built without H.264 (-tags nox264): no WebRTC to test")
	}
	r := newRigWith(t, direct.Config{Furbot: "off", NoJog: true}, console.Config{})
	for round := range 3 {
		for _, how := range []string{"close", "reload", "kill"} {
			browser := r.browser
			if how == "kill" {
				browser = browsertest.Start(t, context.Background(), browsertest.OwnGroup)
			}
			p, closeP := r.webrtcInControl(browser)
			r.do(p, key("w", true))
			r.drives("a held key")
			t0 := time.Now()
			switch how {
			case "close":
				closeP()
			case "reload":
				r.do(p, chromedp.Reload())
			case "kill":
				browsertest.Signal(t, browser, syscall.SIGKILL)
			}
			if how == "reload" {
				// The reloaded page is the next page: it must get control
				// on joining (hello's control=true, shown as IN CONTROL
				// without taking it).
				waitFor(t, 10*time.Second, "the reloaded page connected", func() bool {
					role, err := browsertest.TryEval[string](p, `document.getElementById('role').textContent`)
					return err == nil && (role == "IN CONTROL" || strings.HasPrefix(role, "VIEW ONLY"))
				})
				if role := browsertest.Role(t, p); role != "IN CONTROL" {
					t.Fatalf("round %d, reload: the reloaded page is %q: its old self still holds the lease", round, role)
				}
				r.stoppedAt(5 * time.Second)
				closeP()
				continue
			}
			d := leaseFreeAfter(t, r.url, t0, 10*time.Second, how)
			t.Logf("round %d, %s: lease free for a new page %v after", round, how, d.Round(time.Millisecond))
			if d > leaseGoneBound {
				t.Errorf("round %d, %s: lease free %v after, over the documented %v", round, how, d.Round(time.Millisecond), leaseGoneBound)
			}
			r.stoppedAt(5 * time.Second)
			if how == "close" {
				continue
			}
		}
		// Every session of the pages that went is closed (the bounded
		// close; a hung one would stay listed).
		waitFor(t, 10*time.Second, "every WebRTC session of the gone pages closed", func() bool { return len(r.srv.WebRTCStats()) == 0 })
	}
}
