// Package browsertest drives the operator console's page in a real
// headless Chromium (Debian's chromium, through chromedp) for the tests of
// both console backends: the direct one (pkg/console/direct) and the ROS
// node (internal/testkit/rosconsoletest). Every helper fails the test with the
// browser's error; nothing is retried silently.
package browsertest

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	servosilasim "github.com/telebridge/telebridge/pkg/servosila/sim"
)

// Env set to "required" makes a missing browser fail the browser tests
// instead of skipping them (scripts/check.d/console.sh sets it);
// "elsewhere" skips them (scripts/check.sh sets it for its plain go test
// step, since console.sh runs them right after).
const Env = "TELEBRIDGE_BROWSER_TESTS"

// timeout bounds each browser action.
const timeout = 20 * time.Second

// Chromium returns the path of the browser, or skips the test (fails it
// with Env=required) when there is none.
func Chromium(t testing.TB) string {
	t.Helper()
	if os.Getenv(Env) == "elsewhere" {
		t.Skipf("browser test skipped: %s=elsewhere (scripts/check.d/console.sh runs it)", Env)
	}
	for _, n := range []string{"chromium", "chromium-browser", "google-chrome", "chrome"} {
		if p, err := exec.LookPath(n); err == nil {
			return p
		}
	}
	if os.Getenv(Env) == "required" {
		t.Fatalf("no chromium binary on PATH and %s=required", Env)
	}
	t.Skipf("browser test skipped: no chromium binary on PATH (apt-get install chromium; set %s=required to make this fail)", Env)
	return ""
}

// AllowLoopbackWebRTC is Chromium's switch that makes its WebRTC gather
// host candidates on loopback (it gathers none there by default): only
// for the tests of the console's WebRTC, whose server listens on
// loopback only.
var AllowLoopbackWebRTC = chromedp.Flag("allow-loopback-in-peer-connection", true)

// Start starts a headless Chromium for the life of ctx (and of the test)
// and returns its context, from which Page opens tabs. Extra options
// (e.g. AllowLoopbackWebRTC) are added to the defaults.
func Start(t testing.TB, ctx context.Context, extra ...chromedp.ExecAllocatorOption) context.Context {
	t.Helper()
	exe := Chromium(t)
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(exe), chromedp.Headless, chromedp.NoSandbox, chromedp.Flag("disable-gpu", true),
		chromedp.Flag("disable-quic", true), chromedp.Flag("no-first-run", true), chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true), chromedp.Flag("disable-sync", true), chromedp.UserDataDir(t.TempDir()),
		// Background tabs must keep their timers: two pages run at once.
		chromedp.Flag("disable-background-timer-throttling", true), chromedp.Flag("disable-renderer-backgrounding", true),
		chromedp.Flag("disable-backgrounding-occluded-windows", true),
		// WebGL (the console's 3-D view) on the CPU: with the GPU disabled,
		// Debian's chromium 156 draws WebGL through ANGLE on SwiftShader;
		// this flag keeps it so where the automatic fallback is gone
		// (Chrome's deprecation of it). Pages without WebGL are unaffected.
		chromedp.Flag("enable-unsafe-swiftshader", true),
	}
	opts = append(opts, extra...)
	actx, acancel := chromedp.NewExecAllocator(ctx, opts...)
	bctx, bcancel := chromedp.NewContext(actx)
	t.Cleanup(func() {
		bcancel()
		acancel()
	})
	// The first run starts the browser for the life of bctx.
	if err := chromedp.Do(bctx); err != nil {
		t.Fatalf("start %s: %v", exe, err)
	}
	return bctx
}

// Artifacts returns the directory for screenshots: $CONSOLE_ARTIFACTS, or
// a temporary one.
func Artifacts(t testing.TB) string {
	t.Helper()
	art := os.Getenv("CONSOLE_ARTIFACTS")
	if art == "" {
		return t.TempDir()
	}
	if err := os.MkdirAll(art, 0o755); err != nil {
		t.Fatal(err)
	}
	return art
}

// Page opens a new tab of browser on url.
func Page(t testing.TB, browser context.Context, url string) (context.Context, context.CancelFunc) {
	t.Helper()
	ctx, cancel := chromedp.NewContext(browser)
	// The first run opens the tab and binds it to its context: not a
	// context with a deadline.
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(1500, 950), chromedp.Navigate(url)); err != nil {
		t.Fatalf("browser: %v", err)
	}
	return ctx, cancel
}

// Do runs actions in the tab ctx.
func Do(t testing.TB, ctx context.Context, a ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	tctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	if err := chromedp.Do(tctx, a...); err != nil {
		t.Fatalf("browser: %v", err)
	}
}

// Eval evaluates js in the tab ctx.
func Eval[T any](t testing.TB, ctx context.Context, js string) T {
	t.Helper()
	tctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	v, err := chromedp.Run(tctx, chromedp.Evaluate[T](js))
	if err != nil {
		t.Fatalf("browser: %s: %v", js, err)
	}
	return v
}

// TryEval evaluates js in the tab ctx and returns its error instead of
// failing the test: for polling a page that may be navigating (after a
// form is submitted, an evaluation can meet the old document going away:
// "Inspected target navigated or closed").
func TryEval[T any](ctx context.Context, js string) (T, error) {
	tctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	return chromedp.Run(tctx, chromedp.Evaluate[T](js))
}

var keyCodes = map[string]struct {
	code string
	vk   int64
}{"w": {"KeyW", 87}, "a": {"KeyA", 65}, "s": {"KeyS", 83}, "d": {"KeyD", 68}, " ": {"Space", 32}}

// Key presses (down) or releases (up) one key ("w", "a", "s", "d", " "),
// as a keyboard would.
func Key(k string, down bool) chromedp.Action[chromedp.Void] {
	typ := input.DispatchKeyEventTypeKeyUp
	if down {
		typ = input.DispatchKeyEventTypeKeyDown
	}
	kc := keyCodes[k]
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, input.DispatchKeyEvent, input.DispatchKeyEventParams{Type: typ, Key: k, Code: kc.code, WindowsVirtualKeyCode: kc.vk})
		return err
	})
}

// Mouse presses or releases the left button on the centre of element id.
func Mouse(t testing.TB, ctx context.Context, id string, down bool) {
	t.Helper()
	xy := Eval[[]float64](t, ctx, fmt.Sprintf(`(()=>{const b=document.getElementById(%q).getBoundingClientRect();return [b.x+b.width/2,b.y+b.height/2]})()`, id))
	typ := chromedp.MouseReleased
	if down {
		typ = chromedp.MousePressed
	}
	Do(t, ctx, chromedp.MouseEvent(typ, xy[0], xy[1], chromedp.ButtonLeft, chromedp.ClickCount(1)))
}

// Click clicks the element sel (CSS).
func Click(t testing.TB, ctx context.Context, sel string) {
	t.Helper()
	Do(t, ctx, chromedp.Click(chromedp.CSS(sel)))
}

// ReleaseEStop releases the latched e-stop as an operator does: Release
// e-stop, then the confirmation the server asks for.
func ReleaseEStop(t testing.TB, ctx context.Context) {
	t.Helper()
	Click(t, ctx, "#release")
	Click(t, ctx, "#releaseconfirm")
}

// Tab shows the console's panel name.
func Tab(t testing.TB, ctx context.Context, name string) {
	t.Helper()
	Click(t, ctx, `#tabs button[data-tab="`+name+`"]`)
}

// Role returns the page's role banner ("IN CONTROL", "VIEW ONLY ...").
func Role(t testing.TB, ctx context.Context) string {
	t.Helper()
	return Eval[string](t, ctx, `document.getElementById('role').textContent`)
}

// WaitFor polls cond until it holds or limit passes.
func WaitFor(t testing.TB, limit time.Duration, what string, cond func() bool) {
	t.Helper()
	end := time.Now().Add(limit)
	for !cond() {
		if time.Now().After(end) {
			t.Fatalf("timed out after %v waiting for %s", limit, what)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// KeyAt returns when the page saw its last key event of kind ("keyup",
// "keydown"), by the page's wall clock (the simulators' on this machine):
// times count from there, not from the test's dispatch, which a loaded
// machine can delay.
func KeyAt(t testing.TB, ctx context.Context, kind string) time.Time {
	t.Helper()
	ms := Eval[string](t, ctx, `document.body.dataset.`+kind+` || ""`)
	v, err := strconv.ParseInt(ms, 10, 64)
	if err != nil {
		t.Fatalf("page recorded no %s: %q", kind, ms)
	}
	return time.UnixMilli(v)
}

// Shot saves a screenshot of the tab as dir/console-name.png and logs
// the path.
func Shot(t testing.TB, ctx context.Context, dir, name string) {
	t.Helper()
	tctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	b, err := chromedp.Run(tctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	p := filepath.Join(dir, "console-"+name+".png")
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot %s", p)
}

// CamerasShowImages is a page expression: true when the camera grid
// shows n images, each with contrast (not blank).
func CamerasShowImages(n int) string {
	return fmt.Sprintf(`(() => {
		const imgs = [...document.querySelectorAll('#camgrid img')];
		if (imgs.length !== %d) return false;
		return imgs.every((img) => {
			if (!img.naturalWidth) return false;
			const c = document.createElement('canvas'); c.width = 64; c.height = 48;
			const g = c.getContext('2d'); g.drawImage(img, 0, 0, 64, 48);
			const d = g.getImageData(0, 0, 64, 48).data;
			let min = 255, max = 0;
			for (let i = 0; i < d.length; i += 4) { min = Math.min(min, d[i]); max = Math.max(max, d[i]); }
			return max - min > 30;
		});
	})()`, n)
}

// StoppedAt waits until the simulated Servosila executes no chassis
// motion (truth is its state) and returns when the packet that stopped it
// arrived (the simulator's clock).
func StoppedAt(t testing.TB, limit time.Duration, truth func() servosilasim.State) time.Time {
	t.Helper()
	var st servosilasim.State
	WaitFor(t, limit, "the simulated robot to stop", func() bool {
		st = truth()
		return st.Linear == 0 && st.Angular == 0
	})
	return st.LastAt
}

// StandsFor watches n more remote-control packets at the simulated
// Servosila and fails the test if its chassis moves meanwhile.
func StandsFor(t testing.TB, n uint64, while string, limit time.Duration, truth func() servosilasim.State) {
	t.Helper()
	p := truth().Packets
	WaitFor(t, limit, fmt.Sprintf("%d packets %s", n, while), func() bool {
		st := truth()
		if st.Linear != 0 || st.Angular != 0 {
			t.Fatalf("the robot moves %s: %.3f m/s, %.3f rad/s", while, st.Linear, st.Angular)
		}
		return st.Packets >= p+n
	})
}

// Settled samples every spacing until n samples in a row are equal (the
// arm came to rest) or limit passes, and returns the last sample.
func Settled[T comparable](t testing.TB, limit, spacing time.Duration, n int, what string, sample func() T) T {
	t.Helper()
	prev, stable := sample(), 0
	WaitFor(t, limit, what, func() bool {
		time.Sleep(spacing) // sample spacing, not a synchronisation
		q := sample()
		if q == prev {
			stable++
		} else {
			stable = 0
		}
		prev = q
		return stable >= n
	})
	return prev
}
