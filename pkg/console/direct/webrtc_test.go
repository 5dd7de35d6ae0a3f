package direct_test

import (
	"context"
	"fmt"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/telebridge/telebridge/internal/testkit/browsertest"
	"github.com/telebridge/telebridge/pkg/console"
	"github.com/telebridge/telebridge/pkg/console/direct"
	"github.com/telebridge/telebridge/pkg/video"
	"github.com/telebridge/telebridge/pkg/video/peer"
)

// loopbackPeer is the WebRTC server of these tests: host candidates on
// loopback only (traffic stays on this machine), no mDNS.
func loopbackPeer() peer.Config {
	return peer.Config{Loopback: true, NoMDNS: true, IPFilter: func(ip net.IP) bool { return ip.IsLoopback() }}
}

// webrtcRig starts the console with WebRTC and a browser allowed to
// gather loopback candidates (Chromium gathers none there by default).
func webrtcRig(t *testing.T, bcfg direct.Config, extra ...chromedp.ExecAllocatorOption) *rig {
	t.Helper()
	if !video.H264Available {
		t.Skip("built without H.264 (-tags nox264): no WebRTC to test")
	}
	return newRigWith(t, bcfg, console.Config{WebRTC: loopbackPeer()}, extra...)
}

// codes returns each camera's frame-code counter, transport and frames
// read by the page.
type code struct {
	Counter   int    `json:"counter"`
	Frames    int    `json:"frames"`
	Transport string `json:"transport"`
}

// TestWebRTC: every camera plays over WebRTC in Chromium (its frame code
// advancing, read back from the decoded <video>), the large view shows
// the same stream as its tile, the page shows getStats figures and the
// transport, and a held key drives the simulated robot with its commands
// on the data channel.
func TestWebRTC(t *testing.T) {
	r := webrtcRig(t, direct.Config{Furbot: "off", NoJog: true}, browsertest.AllowLoopbackWebRTC)
	p, closeP := r.inControl(browsertest.Desktop, "")
	defer closeP()
	names := []string{"front", "rear", "arm", "gripper"}
	read := func() map[string]code {
		return eval[map[string]code](r, p, `window.__codes`)
	}
	waitFor(t, 20*time.Second, "every camera's frame code read from WebRTC video", func() bool {
		c := read()
		for _, n := range names {
			if c[n].Transport != "webrtc" || c[n].Frames < 10 {
				return false
			}
		}
		return true
	})
	a := read()
	time.Sleep(time.Second)
	b := read()
	for _, n := range names {
		// The chosen camera's pictures are all read, the others' every
		// 250 ms (video.js).
		if b[n].Transport != "webrtc" || b[n].Frames-a[n].Frames < 2 || b[n].Counter == a[n].Counter {
			t.Errorf("camera %s: frame code not advancing over WebRTC: %+v then %+v", n, a[n], b[n])
		}
	}
	// The large view (the drive screen's selected figure) is the tile's
	// element, showing the camera's one stream; every view says WebRTC.
	if got := eval[string](r, p, `(() => { const f = document.querySelector('#dcams figure.sel'); const v = f.querySelector('video');
		return f.dataset.transport + ' ' + (!v.hidden && v.srcObject && v.srcObject.id) + ' ' + (v.videoWidth + 'x' + v.videoHeight); })()`); got != "webrtc front 640x480" {
		t.Errorf("large view: %q, want webrtc front 640x480", got)
	}
	r.click(p, "#dcam-rear")
	waitFor(t, 5*time.Second, "rear in the large view over WebRTC", func() bool {
		return eval[string](r, p, `(() => { const f = document.querySelector('#dcams figure.sel'); return f.id + ' ' + f.querySelector('video').srcObject.id; })()`) == "dcam-rear rear"
	})
	waitFor(t, 5*time.Second, "figures from getStats on every view", func() bool {
		for _, n := range names {
			txt := eval[string](r, p, fmt.Sprintf(`document.getElementById('dcam-tr-%s').textContent`, n))
			if !strings.HasPrefix(txt, "WebRTC H.264 · ") || !strings.Contains(txt, "kbit/s") || !strings.Contains(txt, "fps") || !strings.Contains(txt, "RTT") {
				return false
			}
		}
		return true
	})
	fps := eval[float64](r, p, `window.__video.state().figures.rear.fps`)
	if fps <= 0 {
		t.Errorf("rear: %v fps from getStats", fps)
	}

	// A held key drives the robot, its commands on the data channel.
	waitFor(t, 5*time.Second, "the command channel open", func() bool { return eval[bool](r, p, `window.__video.state().dc`) })
	before := dcCommands(r)
	r.do(p, key("w", true))
	r.drives("a held key over the data channel")
	// Held for 10 re-sends (1 s, over three deadman timeouts): the robot
	// still drives, kept alive by the data channel's commands.
	waitFor(t, 5*time.Second, "10 commands on the data channel", func() bool { return dcCommands(r)-before >= 10 })
	if st := r.truth(); st.Linear <= 0 {
		t.Errorf("the robot stopped while the key was held (%.3f m/s)", st.Linear)
	}
	r.do(p, key("w", false))
	r.stoppedAt(5 * time.Second)
	r.shot(p, "webrtc-drive")
}

// dcCommands returns the commands the console's WebRTC sessions received.
func dcCommands(r *rig) uint64 {
	var n uint64
	for _, s := range r.srv.WebRTCStats() {
		n += s.Commands
	}
	return n
}

// TestWebRTCFallback: where WebRTC cannot connect, every camera shows
// MJPEG and says why: a Chromium that gathers no loopback candidate
// (like UDP blocked between page and robot), and a console with WebRTC
// off.
func TestWebRTCFallback(t *testing.T) {
	t.Run("udp-blocked", func(t *testing.T) {
		if !video.H264Available {
			t.Skip("built without H.264")
		}
		// The server gathers no candidate at all: nothing of its UDP can
		// be reached, as behind a firewall that drops UDP; no ICE server.
		blocked := peer.Config{NoMDNS: true, IPFilter: func(net.IP) bool { return false }}
		r := newRigWith(t, direct.Config{Furbot: "off", NoJog: true}, console.Config{WebRTC: blocked}, browsertest.AllowLoopbackWebRTC)
		p, closeP := r.openOn(browsertest.Desktop, "")
		defer closeP()
		mjpegEverywhere(t, r, p, "MJPEG fallback: ICE", 20*time.Second)
	})
	t.Run("off", func(t *testing.T) {
		if !video.H264Available {
			t.Skip("built without H.264")
		}
		r := newRigWith(t, direct.Config{Furbot: "off", NoJog: true}, console.Config{NoWebRTC: "turned off on this console (--no-webrtc)"}, browsertest.AllowLoopbackWebRTC)
		p, closeP := r.openOn(browsertest.Desktop, "")
		defer closeP()
		mjpegEverywhere(t, r, p, "MJPEG fallback: WebRTC unavailable: turned off", 10*time.Second)
	})
}

// mjpegEverywhere waits until every drive-screen view shows MJPEG with a
// badge starting with prefix and its frame code advances.
func mjpegEverywhere(t *testing.T, r *rig, p context.Context, prefix string, limit time.Duration) {
	t.Helper()
	names := []string{"front", "rear", "arm", "gripper"}
	defer func() {
		if t.Failed() {
			t.Logf("badge: %q, video state %v", eval[string](r, p, `document.getElementById('dcam-tr-front').textContent`), eval[any](r, p, `window.__video.state()`))
		}
	}()
	waitFor(t, limit, "every view on MJPEG saying why ("+prefix+")", func() bool {
		for _, n := range names {
			txt := eval[string](r, p, fmt.Sprintf(`(() => { const f = document.getElementById('dcam-%s'); return f.dataset.transport + ' ' + document.getElementById('dcam-tr-%s').textContent; })()`, n, n))
			if !strings.HasPrefix(txt, "mjpeg "+prefix) {
				return false
			}
		}
		return true
	})
	t.Logf("badge: %s", eval[string](r, p, `document.getElementById('dcam-tr-front').textContent`))
	read := func() map[string]code { return eval[map[string]code](r, p, `window.__codes`) }
	waitFor(t, 10*time.Second, "every camera's frame code read from MJPEG", func() bool {
		c := read()
		for _, n := range names {
			if c[n].Transport != "mjpeg" || c[n].Frames < 5 {
				return false
			}
		}
		return true
	})
}
