package direct_test

import (
	"context"
	"fmt"
	"github.com/chromedp/chromedp"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/telebridge/telebridge/internal/testkit/browsertest"
	"github.com/telebridge/telebridge/internal/testkit/urdftest"
	"github.com/telebridge/telebridge/pkg/balance"
	"github.com/telebridge/telebridge/pkg/console"
	"github.com/telebridge/telebridge/pkg/furbot/control"
	furbotnode "github.com/telebridge/telebridge/pkg/furbot/node"
)

// view3dExpr is a page expression over the 3-D canvas scaled to 160 x
// 120: body runs with d, its RGBA bytes, and returns the value; none is
// the value before the canvas exists.
func view3dExpr(none, body string) string {
	return `(() => {
	const src = document.querySelector('#view3d canvas');
	if (!src || !src.width) return ` + none + `;
	const c = document.createElement('canvas'); c.width = 160; c.height = 120;
	const g = c.getContext('2d'); g.drawImage(src, 0, 0, 160, 120);
	const d = g.getImageData(0, 0, 160, 120).data;
` + body + `
})()`
}

// robot3dPixels is [robot pixels (the chassis' and head's orange),
// non-background pixels, then the 160 x 120 grey levels] of the 3-D view.
var robot3dPixels = view3dExpr("[]", `
	let orange = 0, lit = 0; const grey = [];
	for (let i = 0; i < d.length; i += 4) {
		const r = d[i], gr = d[i+1], b = d[i+2];
		if (r > 120 && r - b > 60 && r > gr) orange++;
		if (Math.abs(r - 14) + Math.abs(gr - 17) + Math.abs(b - 20) > 30) lit++;
		grey.push((r + gr + b) / 3);
	}
	return [orange, lit, ...grey];`)

// TestBrowserRobot3D: the 3-D view (robot3d.html, robot3d.js with the
// vendored three.js and urdf-loader) draws the Servosila from its URDF in
// headless Chromium's WebGL (SwiftShader), follows a waist move of the
// simulated robot, and warns when the operator's slope makes the
// stability margin fall below the threshold; it says the masses are
// assumed.
func TestBrowserRobot3D(t *testing.T) {
	r := newRig(t)
	p, closeP := browsertest.Page(t, r.browser, r.url+"robot3d.html")
	defer closeP()
	waitFor(t, 15*time.Second, "the 3-D view drawn with the robot's state", func() bool {
		return eval[bool](r, p, `!!(window.robot3d && window.robot3d.frames > 0 && document.getElementById('role').textContent !== '–' && document.getElementById('balmargin').textContent.endsWith('cm'))`)
	})
	if e := eval[string](r, p, `document.getElementById('msg').textContent`); e != "" {
		t.Fatalf("page error: %s", e)
	}
	// Opened first, it joined to watch (issue 29: it took the lease and
	// showed IN CONTROL and Take control at once); the operator's page,
	// opened next, gets control, and both show the E-STOP.
	if role := browsertest.Role(t, p); role != "VIEW ONLY" {
		t.Errorf("the 3-D page, the first page, shows %q: want VIEW ONLY (it joins to watch)", role)
	}
	estopShown(t, r, p, "the 3-D page, view-only")
	main, closeMain := r.page()
	waitFor(t, 10*time.Second, "the operator's page, opened after the 3-D page, in control", func() bool {
		return browsertest.Role(t, main) == "IN CONTROL"
	})
	estopShown(t, r, main, "the operator's page")
	closeMain()
	// The slope needs control: the 3-D page takes it, and then offers to
	// release it, not to take it.
	waitFor(t, 5*time.Second, "Take control offered on the view-only 3-D page", func() bool {
		return eval[bool](r, p, `getComputedStyle(document.getElementById('take')).display !== 'none'`)
	})
	r.click(p, "#take")
	waitFor(t, 10*time.Second, "the 3-D page in control", func() bool {
		return browsertest.Role(t, p) == "IN CONTROL" &&
			eval[bool](r, p, `getComputedStyle(document.getElementById('take')).display === 'none' && getComputedStyle(document.getElementById('leave')).display !== 'none'`)
	})
	estopShown(t, r, p, "the 3-D page in control")
	t.Logf("WebGL renderer: %s", eval[string](r, p, `(()=>{const g=document.createElement('canvas').getContext('webgl2');const x=g&&g.getExtension('WEBGL_debug_renderer_info');return g?(x?g.getParameter(x.UNMASKED_RENDERER_WEBGL):g.getParameter(g.RENDERER)):'none'})()`))
	if n := eval[int](r, p, `window.robot3d.frustums.length`); n != 4 {
		t.Errorf("%d camera frustums, want the URDF's 4 cameras", n)
	}
	if s := eval[string](r, p, `document.getElementById('balassumed').textContent`); !strings.Contains(s, "assumed") {
		t.Errorf("assumed masses not said: %q", s)
	}
	if s := eval[string](r, p, `document.querySelector('#view3d .robot3d-label').textContent`); !strings.Contains(s, "masses assumed") {
		t.Errorf("the view's label does not say the masses are assumed: %q", s)
	}
	px := eval[[]float64](r, p, robot3dPixels)
	if len(px) != 2+160*120 {
		t.Fatalf("no canvas pixels: %d values", len(px))
	}
	// The robot fills a good part of the default view: its orange body
	// and head at least 1% of the pixels, something drawn on 5%.
	if px[0] < 0.01*160*120 || px[1] < 0.05*160*120 {
		t.Fatalf("the canvas shows %v orange and %v non-background pixels of %d: no robot", px[0], px[1], 160*120)
	}
	r.shot(p, "robot3d")
	// Standing still, the view draws nothing (no animation loop): state
	// updates with the same joints, pose and balance add no frame.
	f0 := eval[int](r, p, `window.robot3d.frames`)
	time.Sleep(time.Second)
	if f1 := eval[int](r, p, `window.robot3d.frames`); f1 != f0 {
		t.Errorf("%d frames drawn in 1 s while the robot stood still", f1-f0)
	}

	// The waist turns 1.2 rad at the simulator (position control through
	// the backend): the view follows the telemetry.
	ctx := context.Background()
	if err := r.be.ServosilaTarget(ctx, 0, 1.2); err != nil {
		t.Fatal(err)
	}
	waitFor(t, 20*time.Second, "the simulated waist at 1.2 rad", func() bool {
		s, err := r.be.Snapshot(ctx)
		return err == nil && s.Servosila != nil && math.Abs(s.Servosila.Joints[0]-1.2) < 0.05
	})
	waitFor(t, 5*time.Second, "the view's waist at 1.2 rad", func() bool {
		return eval[bool](r, p, `Math.abs(window.robot3d.robot.joints.waist.angle - 1.2) < 0.05`)
	})
	time.Sleep(300 * time.Millisecond) // a frame after the last joint update (requestAnimationFrame)
	moved := eval[[]float64](r, p, robot3dPixels)
	changed := 0
	for i := 2; i < len(px); i++ {
		if math.Abs(moved[i]-px[i]) > 20 {
			changed++
		}
	}
	if changed < 100 {
		t.Fatalf("%d of %d pixels changed after the waist turned 1.2 rad", changed, 160*120)
	}
	t.Logf("waist 0 -> 1.2 rad: %d of %d pixels changed", changed, 160*120)
	r.shot(p, "robot3d-waist")

	// The slopes to enter, from pkg/balance on the live joints: 40° nose
	// down leaves the margin above the 0.05 m threshold, 55° takes it
	// below. The page shows the server's margin and warns only below.
	snap, err := r.be.Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	model := servosilaBalance(t)
	q := make([]float64, len(model.Joints()))
	for i, n := range console.ServosilaJoints {
		if j := model.Joint(n); j >= 0 {
			q[j] = snap.Servosila.Joints[i]
		}
	}
	marginAt := func(deg float64) float64 {
		res := model.NewResult()
		if err := model.Evaluate(q, balance.Ground{Pitch: deg * math.Pi / 180}, res); err != nil {
			t.Fatal(err)
		}
		return res.Margin
	}
	const safe, steep = 40.0, 55.0
	if m := marginAt(safe); !(m > console.DefaultBalanceThreshold+0.01) {
		t.Fatalf("the test's safe slope gives a margin of %.4f m", m)
	}
	if m := marginAt(steep); !(m < console.DefaultBalanceThreshold-0.01) {
		t.Fatalf("the test's steep slope gives a margin of %.4f m", m)
	}
	warned := func() bool {
		return eval[bool](r, p, `!document.getElementById('balwarn').classList.contains('hidden')`)
	}
	slope := func(deg float64) {
		eval[bool](r, p, fmt.Sprintf(`(()=>{document.getElementById('balpitch').value='%g';document.getElementById('balset').click();return true;})()`, deg))
		// The page rounds to 1 mm; the joints settle within 0.01 rad.
		want := marginAt(deg) * 100
		waitFor(t, 5*time.Second, fmt.Sprintf("the margin %.1f cm on the page", want), func() bool {
			got, err := strconv.ParseFloat(strings.TrimSuffix(eval[string](r, p, `document.getElementById('balmargin').textContent`), " cm"), 64)
			return err == nil && math.Abs(got-want) <= 0.15
		})
	}
	if warned() {
		t.Fatalf("warning on flat ground: %s", eval[string](r, p, `document.getElementById('balwarn').textContent`))
	}
	slope(safe)
	if warned() {
		t.Fatalf("warning at %g° with a margin of %.3f m: %s", safe, marginAt(safe), eval[string](r, p, `document.getElementById('balwarn').textContent`))
	}
	slope(steep)
	if !warned() {
		t.Fatalf("no warning at %g° with a margin of %.3f m", steep, marginAt(steep))
	}
	w := eval[string](r, p, `document.getElementById('balwarn').textContent`)
	if !strings.Contains(w, "below 5.0 cm") {
		t.Fatalf("warning %q", w)
	}
	t.Logf("at %g°: margin %.3f m, no warning; at %g°: %s", safe, marginAt(safe), steep, w)
	r.shot(p, "robot3d-warning")
	slope(0)
	if warned() {
		t.Fatal("the warning stays on flat ground")
	}
	// Space on the page that holds control latches the e-stop.
	r.do(p, chromedp.KeyEvent(" "))
	waitFor(t, 5*time.Second, "the e-stop latched by Space on the 3-D page", r.latched)
	waitFor(t, 5*time.Second, "the page shows the latch", func() bool {
		return eval[string](r, p, `document.getElementById('estate').textContent`) == "E-STOP LATCHED"
	})
}

// estopShown fails the test unless page p shows its E-STOP button within
// the viewport.
func estopShown(t *testing.T, r *rig, p context.Context, what string) {
	t.Helper()
	if !eval[bool](r, p, `(() => { const b = document.getElementById('estop'); if (!b || getComputedStyle(b).display === 'none') return false;
		const q = b.getBoundingClientRect(); return q.width > 0 && q.height > 0 && q.top >= 0 && q.left >= 0 && q.bottom <= innerHeight && q.right <= innerWidth; })()`) {
		t.Errorf("%s shows no E-STOP in its viewport", what)
	}
}

// servosilaBalance is the balance model of the Servosila's URDF.
func servosilaBalance(t *testing.T) *balance.Model {
	t.Helper()
	f, err := os.Open("../../../launch/urdf/servosila_engineer.urdf")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m, err := balance.New(f, balance.ServosilaParams())
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// furbotPixels is how many pixels of the 3-D view, scaled to 160 x 120,
// show the Furbot's green body (-1 before the canvas exists).
var furbotPixels = view3dExpr("-1", `
	let green = 0;
	for (let i = 0; i < d.length; i += 4) if (d[i+1] > 60 && d[i+1] - d[i] > 40 && d[i+1] - d[i+2] > 20) green++;
	return green;`)

// TestBrowserFurbot3D: robot3d.html?machine=furbot draws the Furbot from
// its URDF, framed whole, and still shows it after a drive. While the
// simulated vehicle drives a left curve, the steering the page shows is
// the simulator's and the view's front wheels take the Ackermann angles
// of pkg/furbot/control for the URDF's wheelbase and track (the inner,
// left wheel more); stopped, the view stands at the page's odometry,
// within 0.3 m of the simulator's truth. The page joins to watch: opened
// first, it leaves control to the operator's page.
func TestBrowserFurbot3D(t *testing.T) {
	r := newRig(t)
	p, closeP := browsertest.Page(t, r.browser, r.url+"robot3d.html?machine=furbot")
	defer closeP()
	waitFor(t, 15*time.Second, "the Furbot's 3-D view drawn with the vehicle's state", func() bool {
		return eval[bool](r, p, `!!(window.robot3d && window.robot3d.frames > 0 && window.robot3dFurbot && document.getElementById('role').textContent !== '–')`)
	})
	if e := eval[string](r, p, `document.getElementById('msg').textContent`); e != "" {
		t.Fatalf("page error: %s", e)
	}
	if !eval[bool](r, p, `getComputedStyle(document.getElementById('balcard')).display === 'none' && getComputedStyle(document.getElementById('take')).display === 'none' && document.title === 'telebridge: Furbot in 3-D'`) {
		t.Error("the Furbot's page shows the Servosila's balance card or title, or a Take control button for no command")
	}
	// Opened first, it joined to watch: the operator's page, opened next,
	// gets control.
	if role := browsertest.Role(t, p); role != "VIEW ONLY" {
		t.Errorf("the Furbot's 3-D page, the first page, shows %q: want VIEW ONLY (it joins to watch)", role)
	}
	estopShown(t, r, p, "the Furbot's 3-D page")
	main, closeMain := r.page()
	defer closeMain()
	waitFor(t, 10*time.Second, "the operator's page, opened after the 3-D page, in control", func() bool {
		return browsertest.Role(t, main) == "IN CONTROL"
	})
	// Framed whole: the body's green covers a good part of the view.
	if g := eval[int](r, p, furbotPixels); g < 0.03*160*120 {
		t.Fatalf("%d green pixels of %d: the Furbot is not in view", g, 160*120)
	}

	// The URDF's geometry (the file the console embeds for the page).
	desc, err := urdftest.Load(urdftest.Path(furbotnode.DescriptionFile))
	if err != nil {
		t.Fatal(err)
	}
	origin := func(joint string) [3]float64 {
		t.Helper()
		j := desc.Joint(joint)
		if j == nil {
			t.Fatalf("the Furbot's URDF has no joint %s", joint)
		}
		xyz, err := j.OriginXYZ()
		if err != nil {
			t.Fatal(err)
		}
		return xyz
	}
	fl := origin(furbotnode.JointFrontLeftSteer)
	wheelbase := fl[0] - origin(furbotnode.JointRearLeftWheel)[0]
	track := fl[1] - origin(furbotnode.JointFrontRightSteer)[1]
	if wheelbase <= 0 || track <= 0 {
		t.Fatalf("URDF geometry: wheelbase %g m, track %g m", wheelbase, track)
	}

	// A left curve, held (the bridge stops a vehicle whose commands stop).
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		tick := time.NewTicker(100 * time.Millisecond)
		defer tick.Stop()
		for {
			if err := r.be.DriveFurbot(ctx, 1.5, 0.4); err != nil && ctx.Err() == nil {
				t.Errorf("drive: %v", err)
			}
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
		}
	}()
	halt := func() { stop(); <-done }
	defer halt()
	sim := r.be.FurbotSim()
	waitFor(t, 30*time.Second, "the simulated Furbot in a left curve, 2 m along", func() bool {
		tr := sim.Truth()
		return tr.Steer > 0.3 && tr.Distance > 2
	})
	type seen struct {
		Steer, FL, FR, X, Y, Yaw, StateX, StateY float64
	}
	look := func() seen {
		return eval[seen](r, p, `(() => { const f = window.robot3dFurbot, j = window.robot3d.robot.joints, o = window.robot3d.robot.parent.parent;
			return {Steer: f.steer, FL: j.front_left_steering_joint.angle, FR: j.front_right_steering_joint.angle,
				X: o.position.x, Y: o.position.y, Yaw: o.rotation.z, StateX: f.x, StateY: f.y}; })()`)
	}
	// The steering settles in the curve (the page's state lags the
	// simulator by its update period, which a steady angle makes moot).
	var s seen
	waitFor(t, 10*time.Second, "the page's steering at the simulator's", func() bool {
		s = look()
		return math.Abs(s.Steer-sim.Truth().Steer) < 0.03
	})
	steerTruth := sim.Truth().Steer
	left, right := control.AckermannAngles(s.Steer, wheelbase, track)
	if math.Abs(s.FL-left) > 1e-6 || math.Abs(s.FR-right) > 1e-6 {
		t.Errorf("steering %.4f rad: the view's front wheels at %.4f (left), %.4f (right) rad; Ackermann for wheelbase %g m, track %g m: %.4f, %.4f",
			s.Steer, s.FL, s.FR, wheelbase, track, left, right)
	}
	if !(s.FL > s.Steer && s.Steer > s.FR && s.FR > 0) {
		t.Errorf("left curve: left wheel %.4f, virtual %.4f, right %.4f rad: want the inner (left) wheel turned most", s.FL, s.Steer, s.FR)
	}
	r.shot(p, "robot3d-furbot")

	// Stopped, the view stands at the odometry the page received, and
	// that within 0.3 m of where the simulated vehicle really is.
	halt()
	if err := r.be.DriveFurbot(context.Background(), 0, 0); err != nil {
		t.Fatal(err)
	}
	waitFor(t, 20*time.Second, "the simulated Furbot stopped", func() bool { return math.Abs(sim.Truth().V) < 0.01 })
	tr := sim.Truth()
	var at seen
	waitFor(t, 5*time.Second, fmt.Sprintf("the view at the simulator's (%.2f, %.2f) m", tr.X, tr.Y), func() bool {
		at = look()
		return math.Hypot(at.X-tr.X, at.Y-tr.Y) < 0.3
	})
	if at.X != at.StateX || at.Y != at.StateY {
		t.Errorf("the view at (%g, %g) m, the page's odometry (%g, %g) m", at.X, at.Y, at.StateX, at.StateY)
	}
	// The ground grid went along in whole 0.5 m squares.
	grid := eval[[]float64](r, p, `(() => { const g = window.robot3d.robot.parent.parent.parent.children.find((o) => o.type === 'GridHelper'); return [g.position.x, g.position.y]; })()`)
	if want := [2]float64{math.Round(at.X/0.5) * 0.5, math.Round(at.Y/0.5) * 0.5}; grid[0] != want[0] || grid[1] != want[1] {
		t.Errorf("the grid at (%g, %g) m with the vehicle at (%.2f, %.2f) m: want (%g, %g)", grid[0], grid[1], at.X, at.Y, want[0], want[1])
	}
	// Still in view, 2 m and more along (the view follows the odometry;
	// this does not tell following from a wide enough view).
	if g := eval[int](r, p, furbotPixels); g < 0.03*160*120 {
		t.Errorf("%d green pixels of %d after driving: the view lost the Furbot", g, 160*120)
	}
	t.Logf("steering %.3f rad (simulator %.3f): front wheels %.3f / %.3f rad; stopped: view at (%.2f, %.2f) m, %.2f rad; simulator at (%.2f, %.2f) m, %.2f rad",
		s.Steer, steerTruth, s.FL, s.FR, at.X, at.Y, at.Yaw, tr.X, tr.Y, tr.Yaw)
	r.shot(p, "robot3d-furbot-stopped")
	// Space on the view-only 3-D page latches the e-stop (from any page).
	r.do(p, chromedp.KeyEvent(" "))
	waitFor(t, 5*time.Second, "the Furbot's e-stop latched by Space on its 3-D page", func() bool {
		s, err := r.be.Snapshot(context.Background())
		return err == nil && s.Furbot != nil && s.Furbot.EStopped
	})
}
