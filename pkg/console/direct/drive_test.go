package direct_test

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"

	"github.com/telebridge/telebridge/internal/testkit/browsertest"
	"github.com/telebridge/telebridge/pkg/console"
	servosilawire "github.com/telebridge/telebridge/pkg/servosila/wire"
)

// catchErrors collects the page's uncaught errors in window.__errors.
const catchErrors = `(() => {
	window.__errors = [];
	addEventListener('error', (e) => window.__errors.push(String(e.message)));
	addEventListener('unhandledrejection', (e) => window.__errors.push(String(e.reason)));
})();`

// openOn opens a page on device d (script runs before the page's own)
// and waits until it is connected; closing it fails the test if the page
// had an uncaught error.
func (r *rig) openOn(d browsertest.Device, script string) (context.Context, context.CancelFunc) {
	r.t.Helper()
	t := r.t
	p, closeP := browsertest.OpenOn(t, r.browser, r.url, d, catchErrors+script)
	waitFor(t, 10*time.Second, "the page connected", func() bool {
		role := browsertest.Role(t, p)
		return role == "IN CONTROL" || strings.HasPrefix(role, "VIEW ONLY")
	})
	return p, func() {
		if errs := browsertest.Eval[[]string](t, p, `window.__errors`); len(errs) > 0 {
			t.Errorf("uncaught errors in the page: %q", errs)
		}
		closeP()
	}
}

// inControl opens a page on d that holds control: the previous page of
// the test was closed, but the server may see its socket close after the
// new page connected, so the new page takes control if it must.
func (r *rig) inControl(d browsertest.Device, script string) (context.Context, context.CancelFunc) {
	r.t.Helper()
	p, closeP := r.openOn(d, script)
	if browsertest.Role(r.t, p) != "IN CONTROL" {
		r.click(p, "#take")
	}
	waitFor(r.t, 10*time.Second, "the page in control", func() bool { return browsertest.Role(r.t, p) == "IN CONTROL" })
	return p, closeP
}

// pose3d waits until the drive screen's arm pose area shows the 3-D
// robot (robot3d.js, loaded on first use) and it has drawn.
func (r *rig) pose3d(p context.Context) {
	r.t.Helper()
	waitFor(r.t, 30*time.Second, "the 3-D robot drawn in the arm pose area", func() bool {
		return eval[bool](r, p, `!!(window.drivePose3d && window.drivePose3d.frames > 0 && document.querySelector('#dpose canvas'))`)
	})
}

// drives waits until the simulated Servosila has driven forward 5 cm
// and fails if it turns or reverses meanwhile.
func (r *rig) drives(what string) {
	r.t.Helper()
	a := r.truth()
	waitFor(r.t, 10*time.Second, what, func() bool {
		st := r.truth()
		if st.Linear < 0 {
			r.t.Fatalf("%s: reversing at %.3f m/s", what, st.Linear)
		}
		return st.Linear > 0 && st.Distance-a.Distance >= 0.05
	})
}

// TestDriveScreen checks the drive screen in a real Chromium at a
// desktop, a tablet and a phone size: a playing camera, the E-STOP on
// screen, no overflow; the gamepad (a fake navigator.getGamepads) and the
// thumb stick (touch events), judged by the simulator's truth.
func TestDriveScreen(t *testing.T) {
	r := newRig(t)
	cams := r.be.Info().Cameras
	narrow := browsertest.Device{Width: 320, Height: 568, Touch: true} // the narrowest screen the E-STOP must fit
	landscape := browsertest.Device{Width: 844, Height: 390, Touch: true}
	for _, d := range []browsertest.Device{browsertest.Desktop, browsertest.Tablet, browsertest.Phone, narrow, landscape} {
		t.Run("camera and E-STOP at "+d.String(), func(t *testing.T) {
			r.t = t
			p, closeP := r.openOn(d, "")
			defer closeP()
			big := "#dcams figure.sel img"
			var first int
			waitFor(t, 20*time.Second, "a camera frame in the large view", func() bool { first = eval[int](r, p, browsertest.ImageSum(big)); return first != -1 })
			waitFor(t, 10*time.Second, "the large view's frames advancing", func() bool {
				s := eval[int](r, p, browsertest.ImageSum(big))
				return s != -1 && s != first
			})
			waitFor(t, 10*time.Second, "every thumbnail showing a frame", func() bool {
				return eval[int](r, p, `[...document.querySelectorAll('#dcams figure:not(.sel) img')].filter((i) => i.naturalWidth > 0).length`) == len(cams)-1
			})
			if why := eval[string](r, p, browsertest.OnScreen("estop")); why != "" {
				t.Fatalf("E-STOP at %s: %s", d, why)
			}
			if why := eval[string](r, p, browsertest.Overflow); why != "" {
				t.Fatalf("overflow at %s: %s", d, why)
			}
			// One stream per camera: the large view is its thumbnail's
			// stream (this is the only page open).
			waitFor(t, 10*time.Second, "one viewer of the large camera", func() bool {
				return strings.HasSuffix(eval[string](r, p, `document.getElementById('hud-cam').textContent`), " 1 viewer")
			})
			r.pose3d(p)
			if why := eval[string](r, p, browsertest.OnScreen("dpose")); why != "" && !strings.HasPrefix(why, "covered") {
				t.Fatalf("arm pose view: %s", why)
			}
			r.shot(p, "drive-"+d.String())
			// A click on a thumbnail swaps it into the large view, on the
			// same stream.
			name := eval[string](r, p, `(() => { const f = document.querySelector('#dcams figure:not(.sel)'); f.click(); return f.querySelector('img').dataset.cam; })()`)
			if got := eval[string](r, p, `document.querySelector('#dcams figure.sel img').dataset.cam`); got != name {
				t.Fatalf("clicked %s, large view shows %s", name, got)
			}
			waitFor(t, 10*time.Second, "the swapped camera with one viewer", func() bool {
				c := eval[string](r, p, `document.getElementById('hud-cam').textContent`)
				return strings.HasPrefix(c, name+" ") && strings.HasSuffix(c, " 1 viewer")
			})
		})
	}

	t.Run("a hidden page watches no camera", func(t *testing.T) {
		r.t = t
		p, closeP := r.openOn(browsertest.Desktop, "")
		defer closeP()
		// The cameras' viewers, by the backend's own count.
		viewers := func() int {
			snap, err := r.be.Snapshot(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			n := 0
			for _, c := range snap.Cameras {
				n += c.Viewers
			}
			return n
		}
		hide := func(hidden bool) {
			eval[bool](r, p, fmt.Sprintf(`(() => { Object.defineProperty(document, 'hidden', { configurable: true, get: () => %t });
				document.dispatchEvent(new Event('visibilitychange')); return true; })()`, hidden))
		}
		waitFor(t, 10*time.Second, "every camera watched once", func() bool { return viewers() == len(cams) })
		hide(true)
		waitFor(t, 10*time.Second, "no camera watched by the hidden page", func() bool { return viewers() == 0 })
		hide(false)
		waitFor(t, 10*time.Second, "every camera watched again", func() bool { return viewers() == len(cams) })
	})

	t.Run("every view at 390x844: the E-STOP on screen, nothing wider than the screen", func(t *testing.T) {
		r.t = t
		p, closeP := r.openOn(browsertest.Phone, "")
		defer closeP()
		for _, tab := range []string{"servosila", "schematic", "furbot", "jog", "cameras", "drive"} {
			r.tab(p, tab)
			time.Sleep(200 * time.Millisecond) // a state update or two renders the view: not a synchronisation
			if why := eval[string](r, p, browsertest.OnScreen("estop")); why != "" {
				t.Fatalf("E-STOP on the %s view: %s", tab, why)
			}
			// Scrolled to the bottom, the bar (sticky) keeps it on screen.
			eval[bool](r, p, `(window.scrollTo(0, document.documentElement.scrollHeight), true)`)
			if why := eval[string](r, p, browsertest.OnScreen("estop")); why != "" {
				t.Fatalf("E-STOP on the %s view scrolled to its bottom (%d px): %s", tab, eval[int](r, p, `Math.round(window.scrollY)`), why)
			}
			t.Logf("%s view: scrolled %d px, the E-STOP on screen", tab, eval[int](r, p, `Math.round(window.scrollY)`))
			eval[bool](r, p, `(window.scrollTo(0, 0), true)`)
			if why := eval[string](r, p, browsertest.Overflow); why != "" {
				t.Fatalf("overflow on the %s view: %s", tab, why)
			}
		}
	})

	t.Run("an error line coming and going does not release a held button", func(t *testing.T) {
		r.t = t
		p, closeP := r.inControl(browsertest.Desktop, "")
		defer closeP()
		r.tab(p, "jog")
		arm := r.be.Arm()
		q0 := arm.Positions()[0]
		r.mouse(p, "jj-0-plus", true)
		waitFor(t, 10*time.Second, "joint 1 moving", func() bool { return arm.Positions()[0] > q0+0.02 })
		// A refused message puts the red line under the bar (a missing
		// maximum: NaN goes out as null); nothing under the pointer moves.
		eval[bool](r, p, `(() => { const e = document.getElementById('mx-linear'); e.value = 'x'; e.dispatchEvent(new Event('change')); return true; })()`)
		waitFor(t, 5*time.Second, "the error on the page", func() bool {
			return eval[string](r, p, `document.getElementById('msg').textContent`) != ""
		})
		q1 := arm.Positions()[0]
		waitFor(t, 10*time.Second, "joint 1 still moving", func() bool { return arm.Positions()[0] > q1+0.02 })
		if !eval[bool](r, p, `document.getElementById('jj-0-plus').classList.contains('active')`) {
			t.Fatal("the held jog button let go when the error line came")
		}
		r.mouse(p, "jj-0-plus", false)
		browsertest.Settled(t, 5*time.Second, 20*time.Millisecond, 10, "the arm to stop", func() float64 { return arm.Positions()[0] })
	})

	t.Run("gamepad drives while LB is held, stops on its release and on disconnect", func(t *testing.T) {
		r.t = t
		p, closeP := r.inControl(browsertest.Desktop, browsertest.FakeGamepad)
		defer closeP()
		padState := func() string { return eval[string](r, p, `document.getElementById('padstate').textContent`) }
		waitFor(t, 5*time.Second, "the page seeing the pad", func() bool { return strings.Contains(padState(), "released") })
		// Left stick forward without the deadman: nothing moves.
		eval[bool](r, p, `(window.__pad.axes[1] = -0.8, true)`)
		r.standsFor(5, "with the stick forward and no deadman")
		limited := r.srv.Counters().RateLimited.Load()
		eval[bool](r, p, `window.__button(4, 1)`)
		r.drives("the robot driving on the pad with LB held")
		if s := padState(); !strings.Contains(s, "deadman held") {
			t.Fatalf("pad state on the page: %q", s)
		}
		r.pose3d(p)
		r.shot(p, "drive-gamepad")
		// Released LB: the robot stops though the stick stays forward.
		eval[bool](r, p, `window.__button(4, 0)`)
		r.stoppedAt(2 * time.Second)
		r.standsFor(5, "with the stick forward and LB released")
		// The right stick moves the arm (waist left) under RB.
		eval[bool](r, p, `(window.__pad.axes[1] = 0, window.__pad.axes[2] = -0.8, window.__button(5, 1))`)
		waitFor(t, 5*time.Second, "the waist turning left on the right stick", func() bool { return r.truth().JointVel[servosilawire.Waist] > 0 })
		eval[bool](r, p, `(window.__pad.axes[2] = 0, window.__button(5, 0))`)
		waitFor(t, 5*time.Second, "the waist stopped", func() bool { return r.truth().JointVel[servosilawire.Waist] == 0 })
		// Driving again, then the pad is unplugged (no event: it is just
		// gone from getGamepads): the robot stops.
		eval[bool](r, p, `(window.__pad.axes[1] = -0.8, window.__button(4, 1))`)
		r.drives("the robot driving on the pad again")
		eval[bool](r, p, `(window.__pads = [], true)`)
		r.stoppedAt(2 * time.Second)
		r.standsFor(5, "after the pad was unplugged")
		if s := padState(); !strings.Contains(s, "no pad") {
			t.Fatalf("pad state after unplugging: %q", s)
		}
		// The operator's own mapping, kept in this browser: drive on the
		// left stick's y without the inversion, so stick forward reverses.
		eval[bool](r, p, `(window.__pad.axes[1] = 0, window.__button(4, 0), window.__pads = [window.__pad], true)`)
		waitFor(t, 5*time.Second, "the pad back", func() bool { return strings.Contains(padState(), "released") })
		eval[bool](r, p, `(document.querySelector('#p-drive details').open = true, true)`)
		r.do(p, chromedp.SetValue(chromedp.CSS("#pm-linear"), "a1"))
		r.click(p, "#padsave")
		if m := eval[string](r, p, `localStorage.getItem('telebridge.pad.servosila') || ''`); !strings.Contains(m, `"linear":"a1"`) {
			t.Fatalf("mapping kept: %q", m)
		}
		eval[bool](r, p, `(window.__pad.axes[1] = -0.8, window.__button(4, 1))`)
		waitFor(t, 5*time.Second, "the robot reversing on the operator's mapping", func() bool { return r.truth().Linear < 0 })
		eval[bool](r, p, `window.__button(4, 0)`)
		r.stoppedAt(2 * time.Second)
		r.click(p, "#padreset")
		if m := eval[string](r, p, `document.getElementById('pm-linear').value`); m != "-a1" {
			t.Fatalf("defaults restored the drive to %q", m)
		}
		// The pad sent at the page's cadence: the server limited nothing.
		if n := r.srv.Counters().RateLimited.Load(); n != limited {
			t.Fatalf("%d messages rate-limited while the pad drove", n-limited)
		}
	})

	t.Run("the drive screen drives the Furbot when it is chosen", func(t *testing.T) {
		r.t = t
		p, closeP := r.inControl(browsertest.Desktop, "")
		defer closeP()
		r.click(p, `#dmachines button[data-machine="furbot"]`)
		// The choice is kept in this browser: the next tests drive the
		// Servosila, also when this one fails.
		defer r.click(p, `#dmachines button[data-machine="servosila"]`)
		sim := r.be.FurbotSim()
		x0 := sim.Truth().X
		r.do(p, key("w", true))
		waitFor(t, 15*time.Second, "the Furbot driving forward", func() bool { tr := sim.Truth(); return tr.V > 0.3 && tr.X > x0+0.1 })
		// W held: the Furbot keeps its speed. A page the machine starves
		// sends its re-sends late, and the deadman rightly stops the
		// Furbot: the page's own longest re-send gap says so, and the
		// check is made again; a stop with the re-sends on time fails.
		for try := 1; ; try++ {
			eval[bool](r, p, `(window.__conn.resetHeldGap(), true)`)
			r.standsFor(3, "while W drives the Furbot")
			v := sim.Truth().V
			if v >= 0.3 {
				break
			}
			gap := eval[float64](r, p, `window.__conn.maxHeldGap()`)
			if gap < float64((console.DefaultCommandTimeout-50*time.Millisecond).Milliseconds()) || try == 5 {
				t.Fatalf("the Furbot at %.2f m/s with W still held (the page's longest re-send gap %.0f ms, try %d)", v, gap, try)
			}
			t.Logf("the Furbot at %.2f m/s with W held: the starved page re-sent %.0f ms late, the deadman stopped it; again", v, gap)
			waitFor(t, 15*time.Second, "the Furbot driving again", func() bool { return sim.Truth().V > 0.3 })
		}
		waitFor(t, 5*time.Second, "the Furbot's speed over the camera", func() bool {
			return !strings.HasPrefix(eval[string](r, p, `document.getElementById('hud-speed').textContent`), "0.00 ")
		})
		r.shot(p, "drive-furbot")
		r.do(p, key("w", false))
		waitFor(t, 15*time.Second, "the Furbot stopped", func() bool { return math.Abs(sim.Truth().V) < 0.01 })
	})

	t.Run("thumb stick drives on a touch screen, a second finger does not take it, release stops", func(t *testing.T) {
		r.t = t
		p, closeP := r.inControl(browsertest.Phone, "")
		defer closeP()
		// The stick drives the drive screen's machine: the Servosila, whatever
		// a test before chose (kept in this browser).
		r.click(p, `#dmachines button[data-machine="servosila"]`)
		x, y := browsertest.Centre(t, p, "dstick", 0.5, 0.1)
		_, y2 := browsertest.Centre(t, p, "dstick", 0.5, 0.9)
		one := browsertest.Finger{ID: 1, X: x, Y: y}
		two := browsertest.Finger{ID: 2, X: x, Y: y2}
		browsertest.Touch(t, p, input.DispatchTouchEventTypeTouchStart, one)
		r.drives("the robot driving on the thumb stick")
		r.pose3d(p)
		r.shot(p, "drive-stick")
		// A second finger on the stick's lower half: the stick stays with
		// the first (forward), the robot does not reverse.
		browsertest.Touch(t, p, input.DispatchTouchEventTypeTouchStart, one, two)
		r.drives("the robot still driving forward with a second finger down")
		// Another finger lifting from the stick (CDP lifts only all fingers
		// at once, so this one is a dispatched pointer event) does not
		// release it.
		eval[bool](r, p, fmt.Sprintf(`(() => { const s = document.getElementById('dstick');
			for (const k of ['pointerup', 'pointercancel']) s.dispatchEvent(new PointerEvent(k, { pointerId: 4242, pointerType: 'touch', isPrimary: false, clientX: %g, clientY: %g, bubbles: true }));
			return true; })()`, x, y2))
		r.drives("the robot still driving forward after another finger lifted")
		// The fingers lift: the robot stops.
		browsertest.Touch(t, p, input.DispatchTouchEventTypeTouchEnd)
		r.stoppedAt(2 * time.Second)
		r.standsFor(5, "after the stick's finger lifted")
		// Driving on the stick again, a second finger on the E-STOP stops
		// and latches (a two-finger gesture: no click, the press counts).
		browsertest.Touch(t, p, input.DispatchTouchEventTypeTouchStart, one)
		r.drives("the robot driving on the stick again")
		ex, ey := browsertest.Centre(t, p, "estop", 0.5, 0.5)
		browsertest.Touch(t, p, input.DispatchTouchEventTypeTouchStart, one, browsertest.Finger{ID: 3, X: ex, Y: ey})
		r.stoppedAt(2 * time.Second)
		r.standsFor(5, "after the E-STOP, the stick still held")
		if !r.be.ServosilaDriver().Status().EStopped {
			t.Fatal("the E-STOP under a second finger did not latch the driver")
		}
		browsertest.Touch(t, p, input.DispatchTouchEventTypeTouchEnd)
		browsertest.ReleaseEStop(t, p)
		waitFor(t, 15*time.Second, "release", func() bool { return !r.be.ServosilaDriver().Status().EStopped })
		r.standsFor(3, "after the release with nothing held")
		if s := eval[string](r, p, `document.getElementById('hud-input').textContent`); s != "nothing held" {
			t.Fatalf("held input shown after the release: %q", s)
		}
	})
}
