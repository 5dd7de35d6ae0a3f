package render

import (
	"errors"
	"image"
	"image/color"
	"image/png"
	"os"
	"testing"

	"github.com/telebridge/telebridge/pkg/geom"
)

// newRenderer starts a Renderer or skips the test when EGL is missing,
// unless TELEBRIDGE_RENDER_TESTS=required (scripts/check.d/render.sh),
// where a missing renderer fails.
func newRenderer(t testing.TB) *Renderer {
	t.Helper()
	r, err := New()
	if errors.Is(err, ErrUnavailable) && os.Getenv("TELEBRIDGE_RENDER_TESTS") != "required" {
		t.Skipf("no renderer here (TELEBRIDGE_RENDER_TESTS=required makes this a failure): %v", err)
	}
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}

// addBody uploads m and places it, failing the test on error.
func addBody(t testing.TB, r *Renderer, m *Mesh, c [4]float32, pose geom.Transform) BodyID {
	t.Helper()
	id, err := r.UploadMesh(m)
	if err != nil {
		t.Fatalf("UploadMesh: %v", err)
	}
	b, err := r.AddBody(id, c, pose)
	if err != nil {
		t.Fatalf("AddBody: %v", err)
	}
	return b
}

// lookingAlongX is the optical frame of a camera at (x, y, z) [m] looking
// along the world's +x, picture upright (world z up).
func lookingAlongX(x, y, z float64) geom.Transform {
	return OpticalFromLink(geom.Translation(x, y, z))
}

// rgbaAt returns the pixel (u, v) of an RGBA picture of width w.
func rgbaAt(p []byte, w, u, v int) color.RGBA {
	i := 4 * (v*w + u)
	return color.RGBA{p[i], p[i+1], p[i+2], p[i+3]}
}

// savePNG writes an RGBA picture to path (for looking at it).
func savePNG(t testing.TB, path string, p []byte, w, h int) {
	t.Helper()
	img := &image.RGBA{Pix: p, Stride: 4 * w, Rect: image.Rect(0, 0, w, h)}
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := png.Encode(f, img); err != nil {
		t.Fatal(err)
	}
}
