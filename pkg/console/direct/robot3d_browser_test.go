package direct_test

import (
	"context"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/telebridge/telebridge/internal/testkit/browsertest"
	"github.com/telebridge/telebridge/pkg/balance"
	"github.com/telebridge/telebridge/pkg/console"
)

// robot3dPixels is a page expression: the 3-D canvas scaled to 160 x 120,
// as [robot pixels (the chassis' and head's orange), non-background
// pixels, then the 160 x 120 grey levels].
const robot3dPixels = `(() => {
	const src = document.querySelector('#view3d canvas');
	if (!src || !src.width) return [];
	const c = document.createElement('canvas'); c.width = 160; c.height = 120;
	const g = c.getContext('2d'); g.drawImage(src, 0, 0, 160, 120);
	const d = g.getImageData(0, 0, 160, 120).data;
	let orange = 0, lit = 0; const grey = [];
	for (let i = 0; i < d.length; i += 4) {
		const r = d[i], gr = d[i+1], b = d[i+2];
		if (r > 120 && r - b > 60 && r > gr) orange++;
		if (Math.abs(r - 14) + Math.abs(gr - 17) + Math.abs(b - 20) > 30) lit++;
		grey.push((r + gr + b) / 3);
	}
	return [orange, lit, ...grey];
})()`

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
		return eval[bool](r, p, `!!(window.robot3d && window.robot3d.frames > 0 && document.getElementById('role').textContent === 'IN CONTROL' && document.getElementById('balmargin').textContent.endsWith('cm'))`)
	})
	if e := eval[string](r, p, `document.getElementById('msg').textContent`); e != "" {
		t.Fatalf("page error: %s", e)
	}
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
