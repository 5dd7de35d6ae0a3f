package direct_test

import (
	"fmt"
	"syscall"
	"testing"
	"time"

	"github.com/telebridge/telebridge/internal/testkit/browsertest"
	"github.com/telebridge/telebridge/pkg/console"
	"github.com/telebridge/telebridge/pkg/console/direct"
	"github.com/telebridge/telebridge/pkg/video"
)

// pingBound and beatBound bound the time from a page freezing to its
// lease being free for a probe's new page (docs/console.md, "Liveness
// and the lease"): with the whole browser stopped its pongs stop, and
// PingPeriod + PongTimeout (1.5 s) applies; with only its main process
// stopped the pongs come, and BeatTimeout (3 s) after the page's last
// message applies. Each plus the 250 ms check and the probe's own
// connection on a loaded machine (0.5 s).
const (
	pingBound = 2250 * time.Millisecond
	beatBound = 3750 * time.Millisecond
)

// TestFrozenBrowserLosesLease freezes the whole browser (SIGSTOP of its
// process group) while its page holds a key, as MJPEG and as WebRTC:
// the robot stops (deadman), the lease is free for another page within
// frozenBound, and after the browser resumes (SIGCONT) the page does not
// drive again from the key held before it froze (simulator truth) until
// the key is pressed afresh.
func TestFrozenBrowserLosesLease(t *testing.T) {
	for _, tc := range []struct {
		name string
		ccfg console.Config
		// main stops the browser's main process only (as `kill -STOP
		// PID` of the browser does): its network process, still running,
		// answers the WebSocket's pings; before the page's beat, such a
		// page kept the lease 14.5 s here (until the network process's
		// buffers toward the stopped browser filled).
		main bool
	}{
		{"mjpeg", console.Config{NoWebRTC: "this case shows MJPEG"}, false},
		{"mjpeg-main-process", console.Config{NoWebRTC: "this case shows MJPEG"}, true},
		{"webrtc", console.Config{}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			webrtc := tc.ccfg.NoWebRTC == ""
			if webrtc && !video.H264Available() {
				t.Skip("built without H.264 (-tags nox264): no WebRTC to test")
			}
			bcfg := direct.Config{Furbot: "off", NoJog: true}
			if tc.main {
				bcfg = direct.Config{} // every machine, as the console command runs
			}
			r := newRigWith(t, bcfg, tc.ccfg, browsertest.OwnGroup)
			var p = r.browser
			if webrtc {
				pp, closeP := r.webrtcInControl(r.browser)
				defer closeP()
				p = pp
			} else {
				pp, closeP := r.inControl(browsertest.Desktop, "")
				defer closeP()
				p = pp
			}
			r.do(p, key("w", true))
			r.drives("a held key")
			opens := eval[float64](r, p, `window.__conn.opens()`)
			if tc.main {
				browsertest.SignalMain(t, r.browser, syscall.SIGSTOP)
			} else {
				browsertest.Signal(t, r.browser, syscall.SIGSTOP)
			}
			stopped := false
			defer func() {
				if !stopped {
					browsertest.Signal(t, r.browser, syscall.SIGCONT)
				}
			}()
			t0 := time.Now()
			d := leaseFreeAfter(t, r.url, t0, 30*time.Second, "a frozen page")
			t.Logf("%s: lease free %v after the browser froze", tc.name, d.Round(time.Millisecond))
			bound := pingBound
			if tc.main {
				bound = beatBound
			}
			if d > bound {
				t.Errorf("%s: lease free %v after the browser froze, over %v", tc.name, d.Round(time.Millisecond), bound)
			}
			r.stoppedAt(5 * time.Second)
			// Frozen a while longer (a long debugger pause), then resumed.
			time.Sleep(time.Second)
			browsertest.Signal(t, r.browser, syscall.SIGCONT)
			stopped = true
			// The page comes back, reconnects and may get the free lease:
			// the key it held before it froze must not move the robot.
			waitFor(t, 10*time.Second, "the resumed page reconnected and in control again", func() bool {
				role, err := browsertest.TryEval[string](p, fmt.Sprintf(`(window.__conn.opens() > %v) + ' ' + document.getElementById('role').textContent`, opens))
				return err == nil && role == "true IN CONTROL"
			})
			standsStill(t, r, 2*time.Second, "after the browser resumed, with the key held before it froze")
			// A fresh press drives.
			r.do(p, key("w", false), key("w", true))
			r.drives("a fresh press after the resume")
			r.do(p, key("w", false))
			r.stoppedAt(5 * time.Second)
		})
	}
}

// standsStill fails the test if the simulated Servosila's chassis moves
// within d (simulator truth, polled).
func standsStill(t *testing.T, r *rig, d time.Duration, while string) {
	t.Helper()
	for end := time.Now().Add(d); time.Now().Before(end); time.Sleep(5 * time.Millisecond) {
		if st := r.truth(); st.Linear != 0 || st.Angular != 0 {
			t.Fatalf("the robot moves %s: %.3f m/s, %.3f rad/s", while, st.Linear, st.Angular)
		}
	}
}
