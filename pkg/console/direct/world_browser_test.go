package direct_test

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/telebridge/telebridge/internal/testkit/browsertest"
	"github.com/telebridge/telebridge/pkg/console"
	"github.com/telebridge/telebridge/pkg/console/direct"
)

// viewPixels is a page expression: the large camera view scaled to 64x48,
// as [chroma, luma...]: chroma the mean |r-b| + |g-b| (0 for the grey
// test pattern), then the luma of each pixel below the frame-code band
// (the top 6 rows of 48 are left out: the band changes every frame).
const viewPixels = `(() => {
	const img = document.querySelector('#dcams figure.sel img');
	if (!img || !img.naturalWidth) return [];
	const c = document.createElement('canvas'); c.width = 64; c.height = 48;
	const g = c.getContext('2d'); g.drawImage(img, 0, 0, 64, 48);
	const d = g.getImageData(0, 0, 64, 48).data;
	let chroma = 0; const luma = [];
	for (let i = 0; i < d.length; i += 4) {
		chroma += Math.abs(d[i] - d[i+2]) + Math.abs(d[i+1] - d[i+2]);
		if (i / 4 >= 64 * 6) luma.push(Math.round(0.3 * d[i] + 0.59 * d[i+1] + 0.11 * d[i+2]));
	}
	return [chroma / (64 * 48), ...luma];
})()`

// TestWorldDriveScreen: the drive screen of a console started with a
// world shows the rendered front camera (coloured, not the grey pattern)
// and the picture changes when the operator drives the robot with the
// keyboard (judged against the world's truth: it moved 0.5 m).
func TestWorldDriveScreen(t *testing.T) {
	r := newRigWith(t, direct.Config{World: "course", Furbot: "off", NoJog: true}, console.Config{NoWebRTC: "this test shows MJPEG"})
	if r.be.World() == nil || !strings.Contains(r.be.WorldStatus(), "cameras rendered") {
		// check.sh installs ODE and EGL and says so: then it must run.
		if os.Getenv("TELEBRIDGE_PHYSICS_TESTS") == "required" && os.Getenv("TELEBRIDGE_RENDER_TESTS") == "required" {
			t.Fatalf("no rendered world here: %s", r.be.WorldStatus())
		}
		t.Skipf("no rendered world here: %s", r.be.WorldStatus())
	}
	p, closeP := r.inControl(browsertest.Desktop, "")
	defer closeP()
	var before []float64
	waitFor(t, 30*time.Second, "a rendered picture in the large view", func() bool {
		before = eval[[]float64](r, p, viewPixels)
		return len(before) > 1
	})
	if before[0] < 10 {
		t.Errorf("mean chroma %.1f: want a coloured rendered picture, not the grey pattern", before[0])
	}
	s0, err := r.be.World().Robot()
	if err != nil {
		t.Fatal(err)
	}
	r.do(p, browsertest.Key("w", true))
	waitFor(t, 60*time.Second, "the robot in the world driven 0.5 m forward", func() bool {
		s, err := r.be.World().Robot()
		return err == nil && s.Base.Pos[0]-s0.Base.Pos[0] > 0.5
	})
	r.do(p, browsertest.Key("w", false))
	waitFor(t, 20*time.Second, "the large view showing the moved view", func() bool {
		after := eval[[]float64](r, p, viewPixels)
		if len(after) != len(before) {
			return false
		}
		changed := 0
		for i := 1; i < len(after); i++ {
			if d := after[i] - before[i]; d > 16 || d < -16 {
				changed++
			}
		}
		return changed > len(after)/20
	})
	r.shot(p, "world-drive")
}
