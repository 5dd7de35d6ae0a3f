package direct_test

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/telebridge/telebridge/internal/testkit/browsertest"
	"github.com/telebridge/telebridge/pkg/console"
	"github.com/telebridge/telebridge/pkg/console/direct"
	"github.com/telebridge/telebridge/pkg/mjpeg"
	"github.com/telebridge/telebridge/pkg/video"
	"github.com/telebridge/telebridge/pkg/video/peer"
)

// loopbackPeer is the WebRTC server of these tests: host candidates on
// loopback only (traffic stays on this machine) (mDNS off, as shipped).
func loopbackPeer() peer.Config {
	return peer.Config{Loopback: true, IPFilter: func(ip net.IP) bool { return ip.IsLoopback() }}
}

// webrtcRig starts the console with WebRTC and a browser allowed to
// gather loopback candidates (Chromium gathers none there by default).
func webrtcRig(t *testing.T, bcfg direct.Config, extra ...chromedp.ExecAllocatorOption) *rig {
	t.Helper()
	if !video.H264Available() {
		t.Skipf("no WebRTC to test: %v", video.H264Unavailable())
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
	webrtcPlaying(t, r, p, "")
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
	waitFor(t, 5*time.Second, "rear chosen on the server (first in the bandwidth split)", func() bool { return chosenOnServer(r) == "rear" })
	fps := eval[float64](r, p, `window.__video.state().figures.rear.fps`)
	if fps <= 0 {
		t.Errorf("rear: %v fps from getStats", fps)
	}

	// A held key drives the robot, its commands on the data channel.
	waitFor(t, 5*time.Second, "the command channel open", func() bool { return eval[bool](r, p, `window.__video.state().dc`) })
	before := dcCommands(r)
	eval[bool](r, p, `(window.__conn.resetHeldGap(), true)`)
	r.do(p, key("w", true))
	r.drives("a held key over the data channel")
	// Held for 10 re-sends (1 s, over three deadman timeouts): the robot
	// still drives, kept alive by the data channel's commands, unless the
	// page itself sent late (a browser starved of CPU: then the deadman
	// rightly stopped it, which the page's own largest gap shows).
	waitFor(t, 5*time.Second, "10 commands on the data channel", func() bool { return dcCommands(r)-before >= 10 })
	if st := r.truth(); st.Linear <= 0 {
		gap := eval[float64](r, p, `window.__conn.maxHeldGap()`)
		if gap < float64(console.DefaultCommandTimeout/time.Millisecond) {
			t.Errorf("the robot stopped while the key was held (%.3f m/s), though the page sent every %.0f ms at most", st.Linear, gap)
		} else {
			t.Logf("the robot stopped while the key was held: the page itself sent %.0f ms apart (the deadman is %v); not the transport", gap, console.DefaultCommandTimeout)
		}
	}
	r.do(p, key("w", false))
	r.stoppedAt(5 * time.Second)
	r.shot(p, "webrtc-drive")

	// A bitrate cap from the Cameras panel bounds the camera's share.
	r.tab(p, "cameras")
	r.do(p, chromedp.SetValue(chromedp.CSS("#capsel-gripper"), "250000"))
	eval[bool](r, p, `(document.getElementById('capsel-gripper').dispatchEvent(new Event('change')), true)`)
	waitFor(t, 5*time.Second, "gripper capped at 250 kbit/s on the server", func() bool {
		for _, s := range r.srv.WebRTCStats() {
			for _, c := range s.Cameras {
				if c.Camera == "gripper" && c.Caps.MaxBitrate == 250_000 && c.Share > 0 && c.Share <= 250_000 {
					return true
				}
			}
		}
		return false
	})
	if got := eval[string](r, p, `document.getElementById('cam-tr-gripper').textContent`); !strings.HasPrefix(got, "WebRTC H.264") {
		t.Errorf("the Cameras panel's gripper view: %q, want WebRTC", got)
	}

	// Size and frame-rate caps: the page's rear view switches to an
	// encoder of 320x240 at 5 fps (the browser decodes pictures of that
	// size), and the camera's own stays for the other cameras.
	for _, sel := range [][2]string{{"#capsize-rear", "320x240"}, {"#capfps-rear", "5"}} {
		r.do(p, chromedp.SetValue(chromedp.CSS(sel[0]), sel[1]))
		eval[bool](r, p, fmt.Sprintf(`(document.querySelector(%q).dispatchEvent(new Event('change')), true)`, sel[0]))
	}
	waitFor(t, 10*time.Second, "rear decoded at 320x240 in the page", func() bool {
		return eval[string](r, p, `(() => { const v = document.querySelector('#cam-rear video'); return v ? v.videoWidth + 'x' + v.videoHeight : ''; })()`) == "320x240"
	})
	waitFor(t, 5*time.Second, "rear's caps on the server", func() bool {
		for _, s := range r.srv.WebRTCStats() {
			for _, c := range s.Cameras {
				if c.Camera == "rear" && c.Caps.Width == 320 && c.Caps.Height == 240 && c.Caps.FrameRate == 5 {
					return true
				}
			}
		}
		return false
	})
	waitFor(t, 10*time.Second, "rear at about 5 fps from getStats", func() bool {
		f := eval[float64](r, p, `window.__video.state().figures.rear.fps`)
		return f > 2 && f < 8
	})
	if got := eval[string](r, p, `(() => { const v = document.querySelector('#cam-front video'); return v ? v.videoWidth + 'x' + v.videoHeight : ''; })()`); got != "640x480" {
		t.Errorf("front, uncapped: %q, want 640x480", got)
	}
}

// webrtcPlaying waits until page p reads every camera's frame code from
// WebRTC video, and then until each code keeps advancing: three more
// pictures read (the chosen camera's are all read, the others' every
// 250 ms, video.js), each a new counter. where ends the waits' names.
func webrtcPlaying(t *testing.T, r *rig, p context.Context, where string) {
	t.Helper()
	names := []string{"front", "rear", "arm", "gripper"}
	read := func() map[string]code { return eval[map[string]code](r, p, `window.__codes`) }
	waitFor(t, 20*time.Second, "every camera's frame code read from WebRTC video"+where, func() bool {
		c := read()
		for _, n := range names {
			if c[n].Transport != "webrtc" || c[n].Frames < 10 {
				return false
			}
		}
		return true
	})
	a := read()
	waitFor(t, 15*time.Second, "every camera's frame code advancing over WebRTC"+where, func() bool {
		b := read()
		for _, n := range names {
			if b[n].Transport != "webrtc" || b[n].Frames-a[n].Frames < 3 || b[n].Counter == a[n].Counter {
				return false
			}
		}
		return true
	})
}

// TestWebRTCWatcher: a second page, view only, plays every camera over
// WebRTC in Chromium while its session reads the page's datagrams after
// each picture (a watcher), and the operator's session reads them as they
// arrive: the watcher's frame codes keep advancing and its getStats
// figures show, and a held key on the operator's page still drives over
// its data channel.
func TestWebRTCWatcher(t *testing.T) {
	r := webrtcRig(t, direct.Config{Furbot: "off", NoJog: true}, browsertest.AllowLoopbackWebRTC)
	op, closeOp := r.inControl(browsertest.Desktop, "")
	defer closeOp()
	w, closeW := r.openOn(browsertest.Desktop, "")
	defer closeW()
	if role := browsertest.Role(t, w); !strings.HasPrefix(role, "VIEW ONLY") {
		t.Fatalf("the second page: %q, want VIEW ONLY", role)
	}
	webrtcPlaying(t, r, w, " on the watcher")
	// One session prompt (the operator's), one a watcher.
	waitFor(t, 5*time.Second, "the operator's session prompt, the watcher's not", func() bool {
		st := r.srv.WebRTCStats()
		return len(st) == 2 && st[0].Prompt != st[1].Prompt
	})
	waitFor(t, 5*time.Second, "getStats figures on the watcher", func() bool {
		txt := eval[string](r, w, `document.getElementById('dcam-tr-front').textContent`)
		return strings.HasPrefix(txt, "WebRTC H.264 · ") && strings.Contains(txt, "fps") && strings.Contains(txt, "RTT")
	})
	t.Logf("watcher: %s; operator: %s", eval[string](r, w, `document.getElementById('dcam-tr-front').textContent`),
		eval[string](r, op, `document.getElementById('dcam-tr-front').textContent`))

	waitFor(t, 5*time.Second, "the operator's command channel open", func() bool { return eval[bool](r, op, `window.__video.state().dc`) })
	before := dcCommands(r)
	r.do(op, key("w", true))
	r.drives("a held key over the operator's data channel, a watcher watching")
	waitFor(t, 5*time.Second, "commands on the data channel", func() bool { return dcCommands(r)-before >= 3 })
	r.do(op, key("w", false))
	r.stoppedAt(5 * time.Second)
}

// chosenOnServer returns the camera the page's session has chosen.
func chosenOnServer(r *rig) string {
	for _, s := range r.srv.WebRTCStats() {
		for _, c := range s.Cameras {
			if c.Chosen {
				return c.Camera
			}
		}
	}
	return ""
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
// MJPEG and says why: a console whose UDP nobody can reach (as if UDP
// were blocked between page and robot), a console without libx264 (run
// with TELEBRIDGE_NO_X264=1, as scripts/check.d/console.sh does), and a
// console with WebRTC off.
func TestWebRTCFallback(t *testing.T) {
	t.Run("udp-blocked", func(t *testing.T) {
		if !video.H264Available() {
			t.Skipf("%v", video.H264Unavailable())
		}
		// The server gathers no candidate at all: nothing of its UDP can
		// be reached, as behind a firewall that drops UDP; no ICE server.
		blocked := peer.Config{IPFilter: func(net.IP) bool { return false }}
		r := newRigWith(t, direct.Config{Furbot: "off", NoJog: true}, console.Config{WebRTC: blocked}, browsertest.AllowLoopbackWebRTC)
		p, closeP := r.openOn(browsertest.Desktop, "")
		defer closeP()
		mjpegEverywhere(t, r, p, "MJPEG fallback: ICE", 20*time.Second)
	})
	t.Run("too-many-cameras", func(t *testing.T) {
		if !video.H264Available() {
			t.Skipf("%v", video.H264Unavailable())
		}
		few := loopbackPeer()
		few.MaxTracksPerPeer = 2 // the page shows four
		r := newRigWith(t, direct.Config{Furbot: "off", NoJog: true}, console.Config{WebRTC: few}, browsertest.AllowLoopbackWebRTC)
		p, closeP := r.openOn(browsertest.Desktop, "")
		defer closeP()
		mjpegEverywhere(t, r, p, "MJPEG fallback: 4 cameras over this server's limit of 2 per page", 10*time.Second)
	})
	t.Run("no-h264", func(t *testing.T) {
		if video.H264Available() {
			t.Skipf("libx264 is loaded (run with %s=1 for this case)", video.NoX264Env)
		}
		r := newRigWith(t, direct.Config{Furbot: "off", NoJog: true}, console.Config{}, browsertest.AllowLoopbackWebRTC)
		p, closeP := r.openOn(browsertest.Desktop, "")
		defer closeP()
		mjpegEverywhere(t, r, p, "MJPEG fallback: WebRTC unavailable: no H.264 encoder: install libx264 (apt-get install libx264-164)", 10*time.Second)
	})
	t.Run("off", func(t *testing.T) {
		if !video.H264Available() {
			t.Skipf("%v", video.H264Unavailable())
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

// TestVideoLatency measures glass-to-glass latency on loopback, WebRTC
// and MJPEG in the same run: two pages of one console (the second with
// ?transport=mjpeg), one pattern camera stamping its capture time, each
// page reading every picture's code back (the time the page is handed the
// decoded picture minus the capture time). It measures what the console
// ships (640x480 at 15 Hz, MJPEG at its default rate: direct.Config's
// zero camera fields), then 640x480 at 30 Hz with MJPEG at 30 Hz. A
// documented run, not a timed assertion: set CONSOLE_FIGURES=1
// (docs/video.md has the figures).
func TestVideoLatency(t *testing.T) {
	if os.Getenv("CONSOLE_FIGURES") == "" {
		t.Skip("figures: set CONSOLE_FIGURES=1 to measure")
	}
	for _, c := range []struct {
		name string
		cfg  direct.Config
	}{
		{"shipped camera mode 640x480@15", direct.Config{Servosila: "off", Furbot: "off", NoJog: true, Cameras: []string{"pattern:front"}}},
		{"640x480@30", direct.Config{Servosila: "off", Furbot: "off", NoJog: true, Cameras: []string{"pattern:front"},
			CameraWidth: 640, CameraHeight: 480, CameraRate: 30, Stream: mjpeg.Config{Rate: 30}}},
	} {
		t.Run(c.name, func(t *testing.T) { videoLatency(t, c.name, c.cfg) })
	}
}

func videoLatency(t *testing.T, name string, cfg direct.Config) {
	r := webrtcRig(t, cfg, browsertest.AllowLoopbackWebRTC)
	sep := "?"
	if strings.Contains(r.url, "?") {
		sep = "&"
	}
	all := `window.__probeAll = true;`
	pw, closeW := browsertest.OpenOn(t, r.browser, r.url, browsertest.Desktop, all)
	defer closeW()
	pm, closeM := browsertest.OpenOn(t, r.browser, r.url+sep+"transport=mjpeg", browsertest.Desktop, all)
	defer closeM()
	window := 20 * time.Second
	if s := os.Getenv("CONSOLE_LATENCY_SECONDS"); s != "" {
		window = time.Duration(mustFloat(t, s) * float64(time.Second))
	}
	waitFor(t, 20*time.Second, "both pages reading frame codes", func() bool {
		w := eval[map[string]code](r, pw, `window.__codes`)["front"]
		m := eval[map[string]code](r, pm, `window.__codes`)["front"]
		return w.Transport == "webrtc" && w.Frames > 30 && m.Transport == "mjpeg" && m.Frames > 30
	})
	eval[bool](r, pw, `(window.__latency.front.webrtc.length = 0, true)`)
	eval[bool](r, pm, `(window.__latency.front.mjpeg.length = 0, true)`)
	time.Sleep(window) // the measurement window, not a synchronisation
	var lines []string
	for _, x := range []struct {
		what string
		p    context.Context
		js   string
	}{{"WebRTC H.264", pw, `window.__latency.front.webrtc`}, {"MJPEG", pm, `window.__latency.front.mjpeg`}} {
		v := eval[[]float64](r, x.p, x.js)
		if len(v) < 100 {
			t.Fatalf("%s: %d samples in %v", x.what, len(v), window)
		}
		slices.Sort(v)
		q := func(f float64) float64 { return v[int(f*float64(len(v)-1))] }
		lines = append(lines, fmt.Sprintf("%s: %-13s %4d pictures in %v (%.1f/s): p50 %3.0f ms, p95 %3.0f ms, min %3.0f ms, max %3.0f ms",
			name, x.what, len(v), window, float64(len(v))/window.Seconds(), q(0.5), q(0.95), v[0], v[len(v)-1]))
	}
	for _, l := range lines {
		t.Log(l)
	}
	if f := os.Getenv("CONSOLE_ARTIFACTS"); f != "" {
		fn := filepath.Join(f, "video-latency.txt")
		old, _ := os.ReadFile(fn) // both modes in one file
		_ = os.WriteFile(fn, append(old, []byte(strings.Join(lines, "\n")+"\n")...), 0o644)
	}
}
