package render

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"os"
	"sync"
	"testing"

	"gonum.org/v1/gonum/spatial/r3"

	"github.com/telebridge/telebridge/pkg/camera/wire"
	"github.com/telebridge/telebridge/pkg/geom"
)

// flat is lighting that shows every body in its own colour (ambient 1, no
// sun) over black.
var flat = Lighting{Ambient: [3]float32{1, 1, 1}}

// frontLeftK is the K matrix of pkg/camera/node/testdata/front_left.yaml
// (752x480, a real calibration: fx != fy, principal point off centre).
var frontLeftK = [9]float64{431.25, 0, 376.5, 0, 432.75, 239.25, 0, 0, 1}

// TestProjectionLandsOnPinholePixel renders a square facing the camera at
// known points and checks that exactly the pixels whose centres the
// pinhole model puts inside it are drawn: each edge lands where the model
// says, so any shift of half a pixel or more fails.
func TestProjectionLandsOnPinholePixel(t *testing.T) {
	r := newRenderer(t)
	r.SetLighting(flat)
	in := FromK(frontLeftK, 752, 480)
	cam, err := r.NewCamera(in)
	if err != nil {
		t.Fatal(err)
	}
	// A camera somewhere, turned: yaw 30, pitch 10, roll 5 degrees.
	link := geom.Transform{Translation: r3.Vec{X: 1, Y: 2, Z: 0.5}, Rotation: geom.FromRPY(5*math.Pi/180, 10*math.Pi/180, 30*math.Pi/180)}
	pose := OpticalFromLink(link)
	const side = 0.2 // [m]
	square, err := r.UploadMesh(Plane(side, side))
	if err != nil {
		t.Fatal(err)
	}
	// The square's normal (+z) faces the camera: turned half a turn about
	// the optical x axis, its edges stay along the optical x and y.
	facing := geom.Rotation(geom.FromRPY(math.Pi, 0, 0))
	body, err := r.AddBody(square, [4]float32{1, 1, 1, 1}, geom.Identity())
	if err != nil {
		t.Fatal(err)
	}
	pic := make([]byte, 4*in.Width*in.Height)
	for _, p := range []r3.Vec{{X: 0, Y: 0, Z: 2}, {X: 0.5, Y: -0.3, Z: 2}, {X: -1.23, Y: 0.71, Z: 3.1}, {X: 0.017, Y: 0.033, Z: 1.3}} {
		t.Run(fmt.Sprintf("%g,%g,%g", p.X, p.Y, p.Z), func(t *testing.T) {
			world := pose.Mul(geom.Translation(p.X, p.Y, p.Z)).Mul(facing)
			if err := r.SetPose(body, world); err != nil {
				t.Fatal(err)
			}
			if err := cam.Render(pose, pic, FmtRGBA); err != nil {
				t.Fatal(err)
			}
			// The corners by the pinhole model, from the world points
			// through geom (not through the renderer's matrices).
			inv := pose.Inverse()
			c0 := inv.Apply(world.Apply(r3.Vec{X: -side / 2, Y: -side / 2}))
			c1 := inv.Apply(world.Apply(r3.Vec{X: side / 2, Y: side / 2}))
			u0, v0, _ := in.Project(c0)
			u1, v1, _ := in.Project(c1)
			ul, ur, vt, vb := math.Min(u0, u1), math.Max(u0, u1), math.Min(v0, v1), math.Max(v0, v1)
			for _, e := range []float64{ul, ur, vt, vb} {
				if math.Abs(e-math.Round(e)) < 0.02 {
					t.Fatalf("edge %g on a pixel centre: ambiguous, choose another point", e)
				}
			}
			wantL, wantR, wantT, wantB := int(math.Ceil(ul)), int(math.Floor(ur)), int(math.Ceil(vt)), int(math.Floor(vb))
			gotL, gotR, gotT, gotB, n := lit(pic, in.Width, in.Height)
			if n == 0 || gotL != wantL || gotR != wantR || gotT != wantT || gotB != wantB {
				t.Errorf("square drawn in columns %d..%d, rows %d..%d (%d px); pinhole says %d..%d, %d..%d (edges u %.2f..%.2f, v %.2f..%.2f)",
					gotL, gotR, gotT, gotB, n, wantL, wantR, wantT, wantB, ul, ur, vt, vb)
			}
			if want := (wantR - wantL + 1) * (wantB - wantT + 1); n != want {
				t.Errorf("%d px drawn, want the full rectangle of %d", n, want)
			}
			// Its centre: the pixel the model gives for p.
			u, v, _ := in.Project(p)
			if c := rgbaAt(pic, in.Width, int(math.Round(u)), int(math.Round(v))); c.R != 255 {
				t.Errorf("pixel (%.0f, %.0f) of point %v is %v, want the square's white", u, v, p, c)
			}
		})
	}
}

// lit returns the bounding box of the non-black pixels and their count.
func lit(pic []byte, w, h int) (l, r, t, b, n int) {
	l, t, r, b = w, h, -1, -1
	for v := range h {
		for u := range w {
			if c := rgbaAt(pic, w, u, v); c.R|c.G|c.B != 0 {
				l, r, t, b = min(l, u), max(r, u), min(t, v), max(b, v)
				n++
			}
		}
	}
	return l, r, t, b, n
}

// TestRedBoxFillsRectangle: a red box straight ahead fills the rectangle
// its front face projects to, in RGBA and (golden bytes) in YUYV.
func TestRedBoxFillsRectangle(t *testing.T) {
	r := newRenderer(t)
	r.SetLighting(flat)
	in := FromFOV(320, 240, 1.0)
	cam, err := r.NewCamera(in)
	if err != nil {
		t.Fatal(err)
	}
	// Front face at x = 2.75, y in [-0.3, 0.7], z in [0.8, 1.4]; the
	// camera at (0, 0, 1) sees only that face.
	addBody(t, r, Box(0.5, 1.0, 0.6), [4]float32{1, 0, 0, 1}, geom.Translation(3, 0.2, 1.1))
	pose := lookingAlongX(0, 0, 1)
	// Optical (x, y, z) = (-world y, 1 - world z, world x).
	uL, vT, _ := in.Project(r3.Vec{X: -0.7, Y: -0.4, Z: 2.75})
	uR, vB, _ := in.Project(r3.Vec{X: 0.3, Y: 0.2, Z: 2.75})
	inside := func(u, v int) int { // 1 inside, 0 outside, -1 within a pixel of the edge
		fu, fv := float64(u), float64(v)
		switch {
		case fu > uL+1 && fu < uR-1 && fv > vT+1 && fv < vB-1:
			return 1
		case fu < uL-1 || fu > uR+1 || fv < vT-1 || fv > vB+1:
			return 0
		}
		return -1
	}
	pic := make([]byte, 4*in.Width*in.Height)
	if err := cam.Render(pose, pic, FmtRGBA); err != nil {
		t.Fatal(err)
	}
	var bad int
	for v := range in.Height {
		for u := range in.Width {
			c := rgbaAt(pic, in.Width, u, v)
			switch inside(u, v) {
			case 1:
				if c.R != 255 || c.G != 0 || c.B != 0 || c.A != 255 {
					bad++
				}
			case 0:
				if c.R != 0 || c.G != 0 || c.B != 0 || c.A != 0 {
					bad++
				}
			}
		}
	}
	if bad != 0 {
		t.Errorf("%d pixels wrong for a red rectangle u %.1f..%.1f, v %.1f..%.1f", bad, uL, uR, vT, vB)
	}
	// YUYV: red is Y 0x52, U 0x5a, V 0xf0 (BT.601 limited range); black
	// is Y 0x10, U = V = 0x80.
	yuyv := make([]byte, 2*in.Width*in.Height)
	if err := cam.Render(pose, yuyv, wire.FmtYUYV); err != nil {
		t.Fatal(err)
	}
	mid := 2 * (int(math.Round((vT+vB)/2))*in.Width + int(math.Round((uL+uR)/2))&^1)
	if got, want := fmt.Sprintf("%x", yuyv[mid:mid+4]), "525a52f0"; got != want {
		t.Errorf("YUYV inside the box %s, want %s", got, want)
	}
	if got, want := fmt.Sprintf("%x", yuyv[:4]), "10801080"; got != want {
		t.Errorf("YUYV of the background %s, want %s", got, want)
	}
}

// TestNearOccludesFar: a nearer box hides a farther one whatever order
// they were added in (depth test, not painter's order).
func TestNearOccludesFar(t *testing.T) {
	for _, nearFirst := range []bool{true, false} {
		t.Run(fmt.Sprintf("nearFirst=%v", nearFirst), func(t *testing.T) {
			r := newRenderer(t)
			r.SetLighting(flat)
			in := FromFOV(160, 120, 1.0)
			cam, err := r.NewCamera(in)
			if err != nil {
				t.Fatal(err)
			}
			near := func() { addBody(t, r, Box(0.4, 0.4, 0.4), [4]float32{0, 1, 0, 1}, geom.Translation(2, 0, 1)) }
			far := func() { addBody(t, r, Box(1, 1, 1), [4]float32{1, 0, 0, 1}, geom.Translation(4, 0, 1)) }
			if nearFirst {
				near()
				far()
			} else {
				far()
				near()
			}
			pic := make([]byte, 4*in.Width*in.Height)
			if err := cam.Render(lookingAlongX(0, 0, 1), pic, FmtRGBA); err != nil {
				t.Fatal(err)
			}
			if c := rgbaAt(pic, in.Width, 80, 60); c.G != 255 || c.R != 0 {
				t.Errorf("centre %v, want the near green box", c)
			}
			// Beside the near box (0.2 m at 1.8 m) but within the far
			// one (0.5 m at 3.5 m): about 0.09 rad off the axis.
			u, v, _ := in.Project(r3.Vec{X: 0.4, Y: 0, Z: 3.5})
			if c := rgbaAt(pic, in.Width, int(u), int(v)); c.R != 255 || c.G != 0 {
				t.Errorf("pixel (%.0f, %.0f) %v, want the far red box", u, v, c)
			}
		})
	}
}

// TestLightingFacesTowardTheSun: of two faces of a box turned 45 degrees,
// the one facing the sun is lit by ambient + sun*cos(45), the other by
// ambient alone; turning the sun round swaps them.
func TestLightingFacesTowardTheSun(t *testing.T) {
	r := newRenderer(t)
	in := FromFOV(160, 120, 1.0)
	cam, err := r.NewCamera(in)
	if err != nil {
		t.Fatal(err)
	}
	// Faces with normals (-1, 1, 0)/sqrt2 (seen on the left of the
	// picture) and (-1, -1, 0)/sqrt2 (on the right).
	addBody(t, r, Box(1, 1, 1), [4]float32{0.8, 0.8, 0.8, 1},
		geom.Transform{Translation: r3.Vec{X: 4, Z: 1}, Rotation: geom.FromRPY(0, 0, math.Pi/4)})
	lit := math.Round(255 * 0.8 * (0.2 + 0.6*math.Sqrt(0.5)))
	dark := math.Round(255 * 0.8 * 0.2)
	pic := make([]byte, 4*in.Width*in.Height)
	for _, tc := range []struct {
		name        string
		sun         r3.Vec
		left, right float64
	}{
		{"sun from +y", r3.Vec{Y: -1}, lit, dark},
		{"sun from -y", r3.Vec{Y: 1}, dark, lit},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r.SetLighting(Lighting{SunDirection: tc.sun, Sun: [3]float32{0.6, 0.6, 0.6}, Ambient: [3]float32{0.2, 0.2, 0.2}})
			if err := cam.Render(lookingAlongX(0, 0, 1), pic, FmtRGBA); err != nil {
				t.Fatal(err)
			}
			l := float64(rgbaAt(pic, in.Width, 70, 60).G)
			rt := float64(rgbaAt(pic, in.Width, 90, 60).G)
			if math.Abs(l-tc.left) > 2 || math.Abs(rt-tc.right) > 2 {
				t.Errorf("left face %v, right face %v; want %v and %v", l, rt, tc.left, tc.right)
			}
		})
	}
}

// TestDoubleSided: a plane seen from behind is culled unless its mesh is
// double-sided.
func TestDoubleSided(t *testing.T) {
	r := newRenderer(t)
	r.SetLighting(flat)
	in := FromFOV(64, 48, 1.0)
	cam, err := r.NewCamera(in)
	if err != nil {
		t.Fatal(err)
	}
	// Planes at x = 3 facing +x (away from the camera at the origin).
	away := geom.Transform{Translation: r3.Vec{X: 3, Z: 1}, Rotation: geom.FromRPY(0, math.Pi/2, 0)}
	one := addBody(t, r, Plane(2, 2), [4]float32{1, 0, 0, 1}, away)
	pic := make([]byte, 4*in.Width*in.Height)
	if err := cam.Render(lookingAlongX(0, 0, 1), pic, FmtRGBA); err != nil {
		t.Fatal(err)
	}
	if c := rgbaAt(pic, in.Width, 32, 24); c.R != 0 {
		t.Errorf("single-sided plane seen from behind: %v, want nothing", c)
	}
	if err := r.RemoveBody(one); err != nil {
		t.Fatal(err)
	}
	m := Plane(2, 2)
	m.DoubleSided = true
	addBody(t, r, m, [4]float32{0, 1, 0, 1}, away)
	if err := cam.Render(lookingAlongX(0, 0, 1), pic, FmtRGBA); err != nil {
		t.Fatal(err)
	}
	if c := rgbaAt(pic, in.Width, 32, 24); c.G != 255 {
		t.Errorf("double-sided plane seen from behind: %v, want green", c)
	}
}

// TestSetPoseMoves: a moved body is drawn where it was moved to, and
// RemoveBody takes it out.
func TestSetPoseMoves(t *testing.T) {
	r := newRenderer(t)
	r.SetLighting(flat)
	in := FromFOV(160, 120, 1.0)
	cam, err := r.NewCamera(in)
	if err != nil {
		t.Fatal(err)
	}
	b := addBody(t, r, Box(0.3, 0.3, 0.3), [4]float32{1, 1, 1, 1}, geom.Translation(3, 1, 1))
	pic := make([]byte, 4*in.Width*in.Height)
	centre := func(y float64) (int, int) {
		u, v, _ := in.Project(r3.Vec{X: -y, Y: 0, Z: 2.85})
		return int(math.Round(u)), int(math.Round(v))
	}
	for _, y := range []float64{1, -1, 0.3} {
		if err := r.SetPose(b, geom.Translation(3, y, 1)); err != nil {
			t.Fatal(err)
		}
		if err := cam.Render(lookingAlongX(0, 0, 1), pic, FmtRGBA); err != nil {
			t.Fatal(err)
		}
		u, v := centre(y)
		if c := rgbaAt(pic, in.Width, u, v); c.R != 255 {
			t.Errorf("box moved to y = %g: pixel (%d, %d) is %v, want white", y, u, v, c)
		}
		if _, _, _, _, n := lit(pic, in.Width, in.Height); n > 400 {
			t.Errorf("box moved to y = %g: %d pixels lit, more than one small box", y, n)
		}
	}
	if err := r.RemoveBody(b); err != nil {
		t.Fatal(err)
	}
	if err := cam.Render(lookingAlongX(0, 0, 1), pic, FmtRGBA); err != nil {
		t.Fatal(err)
	}
	if _, _, _, _, n := lit(pic, in.Width, in.Height); n != 0 {
		t.Errorf("%d pixels lit after RemoveBody", n)
	}
	if err := r.SetPose(b, geom.Identity()); !errors.Is(err, ErrID) {
		t.Errorf("SetPose of a removed body: %v, want ErrID", err)
	}
}

// TestFormatsAgree: every format Render delivers is the conversion of the
// same frame's RGBA (rendering twice gives the same picture).
func TestFormatsAgree(t *testing.T) {
	r := newRenderer(t)
	t.Log("renderer:", r.Info())
	testScene(t, r)
	in, pose := sceneCamera()
	cam, err := r.NewCamera(in)
	if err != nil {
		t.Fatal(err)
	}
	rgba := make([]byte, 4*in.Width*in.Height)
	if err := cam.Render(pose, rgba, FmtRGBA); err != nil {
		t.Fatal(err)
	}
	if os.Getenv("RENDER_IMAGE") != "" { // the picture in docs/render.md
		savePNG(t, os.Getenv("RENDER_IMAGE"), rgba, in.Width, in.Height)
	}
	for _, tc := range []struct {
		f   wire.FourCC
		gpu bool
	}{
		{FmtRGBA, false}, {wire.FmtYUYV, false}, {wire.FmtUYVY, false}, {wire.FmtGrey, false},
		{wire.FmtRGB24, false}, {wire.FmtBGR24, false}, {wire.FmtBGGR8, false}, {wire.FmtGBRG8, false},
		{wire.FmtGRBG8, false}, {wire.FmtRGGB8, false},
		{wire.FmtYUYV, true}, {wire.FmtUYVY, true}, // packed by the GPU pass
	} {
		f := tc.f
		r.packOnGPU = tc.gpu
		t.Run(fmt.Sprintf("%s/gpu=%v", f, tc.gpu), func(t *testing.T) {
			n, err := cam.FrameSize(f)
			if err != nil {
				t.Fatal(err)
			}
			got := make([]byte, n)
			if err := cam.Render(pose, got, f); err != nil {
				t.Fatal(err)
			}
			want := make([]byte, n)
			if f == FmtRGBA {
				copy(want, rgba)
			} else {
				convert(want, rgba, f, in.Width, in.Height)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s frame differs from the RGBA frame converted", f)
			}
		})
	}
	// The scene is not one colour: something was drawn.
	if _, _, _, _, n := lit(rgba, in.Width, in.Height); n != in.Width*in.Height || bytes.Count(rgba, rgba[:4]) > len(rgba)/8 {
		t.Errorf("scene picture looks empty")
	}
}

// TestConcurrentCameras: cameras rendered from several goroutines while
// bodies move (run with -race).
func TestConcurrentCameras(t *testing.T) {
	r := newRenderer(t)
	balls := testScene(t, r)
	in, pose := sceneCamera()
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for i := range 3 {
		cam, err := r.NewCamera(in)
		if err != nil {
			t.Fatal(err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			buf := make([]byte, 2*in.Width*in.Height)
			for range 10 {
				if err := cam.Render(pose, buf, wire.FmtYUYV); err != nil {
					errs <- fmt.Errorf("camera %d: %w", i, err)
					return
				}
			}
		}()
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		for k := range 50 {
			for i, b := range balls {
				if err := r.SetPose(b, geom.Translation(3+0.01*float64(k), float64(i)*0.5, 0.25)); err != nil {
					errs <- err
					return
				}
			}
		}
	}()
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// TestErrors: bad input is refused with the package's errors.
func TestErrors(t *testing.T) {
	r := newRenderer(t)
	if _, err := r.UploadMesh(&Mesh{Positions: []float32{0, 0, 0}, Normals: []float32{0, 0, 1}, Indices: []uint32{0, 0, 1}}); !errors.Is(err, ErrMesh) {
		t.Errorf("mesh with index past its vertices: %v, want ErrMesh", err)
	}
	if _, err := r.AddBody(MeshID(7), [4]float32{1, 1, 1, 1}, geom.Identity()); !errors.Is(err, ErrID) {
		t.Errorf("unknown mesh: %v, want ErrID", err)
	}
	if _, err := r.NewCamera(Intrinsics{Width: 641, Height: 480, Fx: 500, Fy: 500}); !errors.Is(err, ErrIntrinsics) {
		t.Errorf("odd width: %v, want ErrIntrinsics", err)
	}
	b := addBody(t, r, Box(1, 1, 1), [4]float32{1, 1, 1, 1}, geom.Identity())
	if err := r.SetPose(b, geom.Transform{Rotation: geom.Quat{W: math.NaN()}}); !errors.Is(err, ErrPose) {
		t.Errorf("NaN pose: %v, want ErrPose", err)
	}
	if err := r.SetPose(b, geom.Transform{}); !errors.Is(err, ErrPose) {
		t.Errorf("zero quaternion: %v, want ErrPose", err)
	}
	cam, err := r.NewCamera(FromFOV(64, 48, 1))
	if err != nil {
		t.Fatal(err)
	}
	if err := cam.Render(geom.Identity(), make([]byte, 64*48*2-1), wire.FmtYUYV); !errors.Is(err, ErrFormat) {
		t.Errorf("short buffer: %v, want ErrFormat", err)
	}
	if err := cam.Render(geom.Identity(), make([]byte, 64*48*4), wire.FmtMJPEG); !errors.Is(err, ErrFormat) {
		t.Errorf("MJPG: %v, want ErrFormat", err)
	}
	if err := cam.Close(); err != nil {
		t.Fatal(err)
	}
	if err := cam.Render(geom.Identity(), make([]byte, 64*48*4), FmtRGBA); !errors.Is(err, ErrClosed) {
		t.Errorf("closed camera: %v, want ErrClosed", err)
	}
	cam2, err := r.NewCamera(FromFOV(64, 48, 1)) // reuses the freed framebuffer
	if err != nil {
		t.Fatal(err)
	}
	if err := cam2.Render(geom.Identity(), make([]byte, 64*48*4), FmtRGBA); err != nil {
		t.Errorf("camera on a reused framebuffer: %v", err)
	}
	r.Close()
	if err := cam2.Render(geom.Identity(), make([]byte, 64*48*4), FmtRGBA); !errors.Is(err, ErrClosed) {
		t.Errorf("closed renderer: %v, want ErrClosed", err)
	}
	if _, err := r.UploadMesh(Box(1, 1, 1)); !errors.Is(err, ErrClosed) {
		t.Errorf("upload on a closed renderer: %v, want ErrClosed", err)
	}
}

// TestRenderAllocatesNothing: a steady-state frame, RGBA or converted,
// allocates nothing.
func TestRenderAllocatesNothing(t *testing.T) {
	if raceDetector {
		t.Skip("allocations are not counted under the race detector (sync.Pool drops items there)")
	}
	r := newRenderer(t)
	balls := testScene(t, r)
	in, pose := sceneCamera()
	cam, err := r.NewCamera(in)
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 4*in.Width*in.Height)
	for _, f := range []wire.FourCC{FmtRGBA, wire.FmtYUYV} {
		if err := cam.Render(pose, buf, f); err != nil { // warm up
			t.Fatal(err)
		}
		k := 0.0
		allocs := testing.AllocsPerRun(20, func() {
			k++
			_ = r.SetPose(balls[0], geom.Translation(2, k*0.01, 0.25))
			if err := cam.Render(pose, buf, f); err != nil {
				t.Fatal(err)
			}
		})
		if allocs != 0 {
			t.Errorf("%s: %v allocations a frame, want 0", f, allocs)
		}
	}
}

// TestTwoRenderers: closing one Renderer (eglTerminate of the display
// both share) leaves the other drawing and creating cameras and meshes.
func TestTwoRenderers(t *testing.T) {
	a := newRenderer(t)
	b := newRenderer(t)
	b.SetLighting(flat)
	addBody(t, b, Box(1, 1, 1), [4]float32{1, 0, 0, 1}, geom.Translation(3, 0, 1))
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := b.UploadMesh(Box(1, 1, 1)); err != nil {
		t.Fatalf("upload after the other renderer closed: %v", err)
	}
	cam, err := b.NewCamera(FromFOV(64, 48, 1))
	if err != nil {
		t.Fatalf("camera after the other renderer closed: %v", err)
	}
	buf := make([]byte, 64*48*4)
	if err := cam.Render(lookingAlongX(0, 0, 1), buf, FmtRGBA); err != nil {
		t.Fatal(err)
	}
	if c := rgbaAt(buf, 64, 32, 24); c.R != 255 || c.G != 0 {
		t.Errorf("centre %v, want the red box", c)
	}
}
