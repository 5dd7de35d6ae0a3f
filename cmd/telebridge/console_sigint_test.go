package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/telebridge/telebridge/internal/testkit/browsertest"
	"github.com/telebridge/telebridge/internal/testkit/syncbuf"
	servosilasim "github.com/telebridge/telebridge/pkg/servosila/sim"
	"github.com/telebridge/telebridge/pkg/video"
)

// sigintBound is how long Ctrl-C may take to end the console command
// (docs/console.md, "Liveness and the lease").
const sigintBound = 2 * time.Second

// TestConsoleSIGINTWithWebRTCPage runs the built `telebridge console`
// with its default flags (but a free port, a temporary state directory,
// and the Servosila at a simulator of the test, to judge by its truth)
// and a page in Chromium that drives over WebRTC with a key held; the
// page stays open, or its browser is killed just before; then SIGINT
// (Ctrl-C) must end the process within sigintBound, exit 0, with the
// robot told to stop (a zero command at the simulator, nothing
// executed).
func TestConsoleSIGINTWithWebRTCPage(t *testing.T) {
	browsertest.Chromium(t)
	if testing.Short() {
		t.Skip("builds the command and runs a browser")
	}
	bin := filepath.Join(t.TempDir(), "telebridge")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	for _, page := range []string{"open", "killed"} {
		t.Run(page, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			sim, err := servosilasim.New(servosilasim.Config{Listen: "127.0.0.1:0", TelemetryRate: 20})
			if err != nil {
				t.Fatal(err)
			}
			simDone := make(chan error, 1)
			go func() { simDone <- sim.Run(ctx) }()
			defer func() {
				cancel()
				if err := <-simDone; err != nil && ctx.Err() == nil {
					t.Errorf("simulator: %v", err)
				}
			}()
			out, errs := &syncbuf.Buffer{}, &syncbuf.Buffer{}
			cmd := exec.Command(bin, "console", "--listen", "127.0.0.1:0", "--state-dir", t.TempDir(), "--servosila", sim.Addr().String())
			cmd.Stdout, cmd.Stderr = out, errs
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			exited := make(chan error, 1)
			go func() { exited <- cmd.Wait() }()
			defer func() {
				if cmd.ProcessState == nil {
					_ = cmd.Process.Kill()
					<-exited
				}
				if t.Failed() {
					t.Logf("console's log:\n%s", errs.String())
				}
			}()
			var url string
			browsertest.WaitFor(t, 60*time.Second, "the console's URL", func() bool {
				if m := urlRe.FindStringSubmatch(out.String()); m != nil {
					url = m[1]
					return true
				}
				return false
			})
			browser := browsertest.Start(t, ctx, browsertest.OwnGroup)
			p, closeP := browsertest.OpenOn(t, browser, url, browsertest.Desktop, "")
			defer closeP()
			browsertest.WaitFor(t, 20*time.Second, "the page in control", func() bool { return browsertest.Role(t, p) == "IN CONTROL" })
			if video.H264Available() {
				browsertest.WaitFor(t, 30*time.Second, "WebRTC connected with its command channel open", func() bool {
					return browsertest.Eval[bool](t, p, `(() => { const s = window.__video.state(); return s.pc === 'connected' && s.dc; })()`)
				})
			}
			browsertest.Do(t, p, browsertest.Key("w", true))
			browsertest.WaitFor(t, 10*time.Second, "the robot driving", func() bool { return sim.State().Linear > 0 })
			if page == "killed" {
				browsertest.Signal(t, browser, syscall.SIGKILL)
			}
			zeros := sim.State().ZeroPackets
			if err := cmd.Process.Signal(os.Interrupt); err != nil {
				t.Fatal(err)
			}
			t0 := time.Now()
			select {
			case err := <-exited:
				took := time.Since(t0)
				t.Logf("page %s: Ctrl-C ended the console in %v", page, took.Round(time.Millisecond))
				if err != nil {
					t.Errorf("console exited: %v", err)
				}
			case <-time.After(sigintBound):
				_ = cmd.Process.Signal(syscall.SIGQUIT) // its goroutines to the log
				select {
				case <-exited:
				case <-time.After(5 * time.Second):
				}
				t.Fatalf("page %s: the console still runs %v after Ctrl-C", page, sigintBound)
			}
			if !strings.Contains(out.String(), "machines stopped") {
				t.Errorf("output %q: no \"machines stopped\"", out.String())
			}
			st := sim.State()
			if st.Linear != 0 || st.Angular != 0 {
				t.Errorf("the robot still executes %.3f m/s, %.3f rad/s after the console ended", st.Linear, st.Angular)
			}
			if st.ZeroPackets == zeros && page == "open" {
				t.Errorf("no stop command reached the robot after Ctrl-C (zero packets %d)", st.ZeroPackets)
			}
		})
	}
}
