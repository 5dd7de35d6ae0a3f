package trainworld_test

import (
	"errors"
	"image"
	"image/png"
	"math"
	"os"
	"testing"

	"github.com/telebridge/telebridge/pkg/render"
	"github.com/telebridge/telebridge/pkg/trainworld"
)

// renderer starts the headless renderer (skipping with the one-line
// reason when EGL is missing).
func renderer(t *testing.T) *render.Renderer {
	t.Helper()
	r, err := render.New()
	if errors.Is(err, render.ErrUnavailable) && os.Getenv("TELEBRIDGE_RENDER_TESTS") != "required" {
		t.Skipf("%v (TELEBRIDGE_RENDER_TESTS=required makes this a failure)", err)
	}
	must(t, err)
	t.Cleanup(func() { _ = r.Close() })
	return r
}

// TestCameraSeesTheWorld: the front camera renders the course from the
// robot's head (sky above, ground below, coloured, not the test pattern),
// and its picture changes when the robot drives. WORLD_IMAGE=file.png
// writes the first picture at 640x480 (docs/img/world-front-camera.png).
func TestCameraSeesTheWorld(t *testing.T) {
	w := course(t, trainworld.Config{})
	r := renderer(t)
	must(t, w.AttachRenderer(r))
	const width, height = 640, 480
	cam, err := w.NewCamera("front_left_camera_link", render.FromFOV(width, height, math.Pi/2))
	must(t, err)
	defer cam.Close()
	must(t, w.Step(200))
	rgba := func() []byte {
		buf := make([]byte, width*height*4)
		must(t, cam.Render(buf, render.FmtRGBA))
		return buf
	}
	a := rgba()
	if f := os.Getenv("WORLD_IMAGE"); f != "" {
		img := &image.RGBA{Pix: a, Stride: width * 4, Rect: image.Rect(0, 0, width, height)}
		fh, err := os.Create(f)
		must(t, err)
		must(t, png.Encode(fh, img))
		must(t, fh.Close())
	}
	px := func(b []byte, x, y int) [3]int {
		i := (y*width + x) * 4
		return [3]int{int(b[i]), int(b[i+1]), int(b[i+2])}
	}
	sky, ground := px(a, width/2, 2), px(a, width/2, height-3)
	// The course's background is pale blue (0.7 0.8 0.9), its ground
	// grey-green: a picture, not grey bars.
	if !(sky[2] > sky[0]+20) {
		t.Errorf("top of the picture %v: want the pale blue sky", sky)
	}
	if !(ground[1] >= ground[2]) || ground == sky {
		t.Errorf("bottom of the picture %v: want the grey-green ground", ground)
	}
	// Drive 1 m forward towards the staircase: the picture changes.
	p := &trainworld.Plant{W: w}
	must(t, p.Drive(0.5, 0.5, new([6]float64)))
	must(t, w.Step(2000))
	b := rgba()
	diff := 0
	for i := range a {
		if d := int(a[i]) - int(b[i]); d > 16 || d < -16 {
			diff++
		}
	}
	if diff < len(a)/50 {
		t.Errorf("after driving 1 m, %d of %d bytes changed: want the view to change", diff, len(a))
	}
	s, err := w.Robot()
	must(t, err)
	if s.Base.Pos[0] < 0.7 {
		t.Errorf("robot at %v: did not drive", s.Base.Pos)
	}
}
