package worlds

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/telebridge/telebridge/pkg/geom"
	"github.com/telebridge/telebridge/pkg/laser"
	"github.com/telebridge/telebridge/pkg/raycast"
	"github.com/telebridge/telebridge/pkg/sdf"
	"gonum.org/v1/gonum/spatial/r3"
)

func load(t testing.TB, name string) (*sdf.World, *raycast.Scene) {
	t.Helper()
	w, err := LoadWith(name, sdf.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return w, raycast.New(w)
}

// height returns the top of the geometry under (x, y), from 5 m up.
func height(t testing.TB, s *raycast.Scene, x, y float64) float64 {
	t.Helper()
	h, ok := s.Cast(r3.Vec{X: x, Y: y, Z: 5}, r3.Vec{Z: -1}, 10)
	if !ok {
		t.Fatalf("nothing under (%g, %g)", x, y)
	}
	return h.Point.Z
}

// reach returns how far a ray goes from o along d before it hits.
func reach(t testing.TB, s *raycast.Scene, o, d r3.Vec) float64 {
	t.Helper()
	h, ok := s.Cast(o, d, 50)
	if !ok {
		t.Fatalf("ray from %v along %v hits nothing", o, d)
	}
	return h.Distance
}

func TestShippedWorldsLoadCleanly(t *testing.T) {
	if got := strings.Join(Names(), ","); got != "course,yard" {
		t.Errorf("shipped worlds %q", got)
	}
	for _, n := range Names() {
		w, _ := load(t, n)
		if w.Name != n || len(w.Warnings) != 0 || len(w.Lights) == 0 {
			t.Errorf("%s: name %q, %d lights, warnings %v", n, w.Name, len(w.Lights), w.Warnings)
		}
	}
}

type plateau struct{ z, from, to float64 }

// profile walks x from x0 to x1 along y in 5 mm steps and returns the runs
// of constant height.
func profile(t *testing.T, s *raycast.Scene, x0, x1, y float64) []plateau {
	var out []plateau
	for x := x0 + 0.0025; x < x1; x += 0.005 {
		z := height(t, s, x, y)
		if n := len(out); n > 0 && math.Abs(out[n-1].z-z) < 1e-6 {
			out[n-1].to = x
			continue
		}
		out = append(out, plateau{z, x, x})
	}
	return out
}

func TestCourseStaircase(t *testing.T) {
	_, s := load(t, "course")
	p := profile(t, s, 2.5, 7.5, 0)
	wantZ := []float64{0, 0.17, 0.34, 0.51, 0.68, 0.85, 0.68, 0.51, 0.34, 0.17, 0}
	if len(p) != len(wantZ) {
		t.Fatalf("%d plateaus along the stairs, want %d: %+v", len(p), len(wantZ), p)
	}
	for i, q := range p {
		if math.Abs(q.z-wantZ[i]) > 1e-9 {
			t.Errorf("plateau %d at %g m, want %g", i, q.z, wantZ[i])
		}
		if i > 0 {
			if r := math.Abs(q.z - p[i-1].z); math.Abs(r-0.17) > 1e-9 {
				t.Errorf("riser %d is %g m, want 0.17", i, r)
			}
		}
		depth := q.to - q.from + 0.005 // the samples span the tread less one step
		want := 0.30
		switch {
		case i == 0 || i == len(p)-1:
			continue
		case i == 5:
			want = 1.5
		}
		if math.Abs(depth-want) > 0.0051 {
			t.Errorf("tread %d (at %g m) is %.4f m deep, want %g", i, q.z, depth, want)
		}
	}
}

func TestCourseRamps(t *testing.T) {
	w, s := load(t, "course")
	for _, c := range []struct {
		deg float64
		y   float64
	}{{15, 3}, {25, 5}, {35, 7}} {
		// Measured: two points on the slope.
		z1, z2 := height(t, s, 3.2, c.y), height(t, s, 3.7, c.y)
		if got := math.Atan2(z2-z1, 0.5) * 180 / math.Pi; math.Abs(got-c.deg) > 1e-3 {
			t.Errorf("ramp at y=%g rises at %.4f degrees, want %g", c.y, got, c.deg)
		}
		// The foot is at x = 3 on the ground; the top meets the 0.6 m platform.
		if z := height(t, s, 3.001, c.y); z > 0.001 {
			t.Errorf("ramp at y=%g starts %g m up", c.y, z)
		}
		top := 3 + 0.6/math.Tan(c.deg*math.Pi/180)
		if a, b := height(t, s, top-0.002, c.y), height(t, s, top+0.002, c.y); math.Abs(a-0.6) > 0.0015 || math.Abs(b-0.6) > 1e-9 {
			t.Errorf("ramp at y=%g: %g m before its top, platform %g m, want 0.6", c.y, a, b)
		}
		if h := height(t, s, 6.9, c.y); math.Abs(h-0.6) > 1e-9 {
			t.Errorf("platform at y=%g is %g m high", c.y, h)
		}
		// Described: the slope's pitch in the parsed world.
		b, ok := w.Body("ramps::ramp_" + map[float64]string{15: "15", 25: "25", 35: "35"}[c.deg])
		if !ok {
			t.Fatalf("no ramp body for %g degrees", c.deg)
		}
		_, ry, _ := b.Pose.Mul(b.Collisions[0].Pose).Rotation.EulerZYX()
		if math.Abs(-ry*180/math.Pi-c.deg) > 1e-9 {
			t.Errorf("slope collision pitched %g degrees, want -%g", ry*180/math.Pi, c.deg)
		}
	}
}

func TestCourseDoorAndTunnel(t *testing.T) {
	_, s := load(t, "course")
	door := r3.Vec{X: 4, Y: -4, Z: 1}
	if wd := reach(t, s, door, r3.Vec{Y: 1}) + reach(t, s, door, r3.Vec{Y: -1}); math.Abs(wd-0.7) > 1e-9 {
		t.Errorf("door is %g m wide, want 0.7", wd)
	}
	if hd := reach(t, s, r3.Vec{X: 4, Y: -4, Z: 0.5}, r3.Vec{Z: 1}) + 0.5; math.Abs(hd-1.8) > 1e-9 {
		t.Errorf("door is %g m high, want 1.8", hd)
	}
	in := r3.Vec{X: 8, Y: -4, Z: 0.4}
	if wd := reach(t, s, in, r3.Vec{Y: 1}) + reach(t, s, in, r3.Vec{Y: -1}); math.Abs(wd-1.0) > 1e-9 {
		t.Errorf("tunnel is %g m wide, want 1.0", wd)
	}
	if hd := reach(t, s, in, r3.Vec{Z: 1}) + 0.4; math.Abs(hd-0.8) > 1e-9 {
		t.Errorf("tunnel is %g m high, want 0.8", hd)
	}
	if l := reach(t, s, r3.Vec{X: 6.01, Y: -4, Z: 0.95}, r3.Vec{Z: -1}); math.Abs(l-0.05) > 1e-9 {
		t.Errorf("roof top %g m above 0.95, want 0.9 m", 0.95-l)
	}
}

func TestCourseBoxesAndShelf(t *testing.T) {
	w, s := load(t, "course")
	for _, c := range []struct {
		name string
		kg   float64
	}{{"box_0_5kg", 0.5}, {"box_1kg", 1}, {"box_2kg", 2}, {"box_3kg", 3}, {"box_5kg", 5}} {
		b, ok := w.Body(c.name + "::box")
		if !ok {
			t.Fatalf("no %s", c.name)
		}
		a := b.Collisions[0].Geometry.Size.X
		if b.Static || b.Mass != c.kg || math.Abs(b.Inertia.Ixx-c.kg*a*a/6) > 1e-9 || math.Abs(b.Pose.Translation.Z-a/2) > 1e-12 {
			t.Errorf("%s: static %v, %g kg, Ixx %g, z %g (edge %g m)", c.name, b.Static, b.Mass, b.Inertia.Ixx, b.Pose.Translation.Z, a)
		}
		if rho := c.kg / (a * a * a); rho < 400 || rho > 700 {
			t.Errorf("%s: %g kg/m^3, not wood", c.name, rho)
		}
	}
	if z := height(t, s, -3.5, 2.5); math.Abs(z-0.70) > 1e-9 {
		t.Errorf("upper board at %g m, want 0.70", z)
	}
	if h, ok := s.Cast(r3.Vec{X: -3.5, Y: 2.5, Z: 0.6}, r3.Vec{Z: -1}, 1); !ok || math.Abs(h.Point.Z-0.35) > 1e-9 {
		t.Errorf("lower board at %+v, want 0.35 m", h)
	}
	for _, m := range []string{"marker_start", "marker_A", "marker_B"} {
		b, ok := w.Body(m + "::mark")
		if !ok || len(b.Collisions) != 0 || len(b.Visuals) != 1 {
			t.Errorf("marker %s: %v %+v (want drawn, no contact)", m, ok, b)
		}
	}
}

func TestIncludedConeMesh(t *testing.T) {
	for _, c := range []struct {
		world string
		cones []string
	}{
		{"course", []string{"cone_gate_left", "cone_gate_right"}},
		{"yard", []string{"cone_1", "cone_2", "cone_3", "cone_4", "cone_5"}},
	} {
		w, s := load(t, c.world)
		for _, name := range c.cones {
			b, ok := w.Body(name + "::cone")
			if !ok || !b.Static || b.Collisions[0].Geometry.Kind != sdf.MeshGeom {
				t.Fatalf("%s: %s %v %+v", c.world, name, ok, b)
			}
			p := b.Pose.Translation
			if z := height(t, s, p.X, p.Y); math.Abs(z-0.5) > 1e-6 {
				t.Errorf("%s: %s tip at %g m, want 0.5", c.world, name, z)
			}
			if z := height(t, s, p.X+0.14, p.Y); !(z > 0.005 && z < 0.05) {
				t.Errorf("%s: %s flank at 0.14 m from its axis at %g m", c.world, name, z)
			}
		}
	}
}

func TestYard(t *testing.T) {
	_, s := load(t, "yard")
	// The hill: 8 degrees up from x = -10, a 1.0 m plateau, 8 degrees down.
	z1, z2 := height(t, s, -9, 10), height(t, s, -5, 10)
	if got := math.Atan2(z2-z1, 4) * 180 / math.Pi; math.Abs(got-8) > 1e-3 {
		t.Errorf("hill rises at %g degrees, want 8", got)
	}
	if z := height(t, s, 0, 10); math.Abs(z-1) > 1e-9 {
		t.Errorf("plateau %g m, want 1.0", z)
	}
	z1, z2 = height(t, s, 4, 10), height(t, s, 8, 10)
	if got := math.Atan2(z1-z2, 4) * 180 / math.Pi; math.Abs(got-8) > 1e-3 {
		t.Errorf("hill falls at %g degrees, want 8", got)
	}
	// The loading ramp (mesh): 0.8 m over 4 m, onto the 0.8 m dock.
	z1, z2 = height(t, s, 1, -12), height(t, s, 3, -12)
	if got, want := math.Atan2(z2-z1, 2), math.Atan2(0.8, 4); math.Abs(got-want) > 1e-9 {
		t.Errorf("loading ramp rises at %g degrees, want %g", got*180/math.Pi, want*180/math.Pi)
	}
	if z := height(t, s, 7, -12); math.Abs(z-0.8) > 1e-9 {
		t.Errorf("dock %g m, want 0.8", z)
	}
	// 2.4 m wide: a ray across it just above the ground.
	if wd := reach(t, s, r3.Vec{X: 2, Y: -14, Z: 0.05}, r3.Vec{Y: 1}); math.Abs(wd-(2-1.2)) > 1e-9 {
		t.Errorf("ramp side at %g m from y=-14, want 0.8", wd)
	}
}

// TestLaserInCourse scans from the start marker with the laser 0.3 m up:
// straight ahead the second stair (0.34 m, above the beam) at x = 3.3, the
// fence 6 m behind the start is out of view, left the fence at y = 10.
func TestLaserInCourse(t *testing.T) {
	_, s := load(t, "course")
	sc, err := laser.New(laser.UTM30LX())
	if err != nil {
		t.Fatal(err)
	}
	scan := sc.NewScan()
	if err := sc.Scan(s, geom.Translation(0, 0, 0.3), scan); err != nil {
		t.Fatal(err)
	}
	if r := scan.Ranges[540]; math.Abs(float64(r)-3.3) > 1e-5 {
		t.Errorf("ahead %g m, want 3.3 (the second stair)", r)
	}
	if r := scan.Ranges[900]; math.Abs(float64(r)-(10-0.05)) > 1e-4 {
		t.Errorf("left %g m, want 9.95 (the fence)", r)
	}
	for i, r := range scan.Ranges {
		if math.IsInf(float64(r), 0) || r <= 0 {
			t.Errorf("beam %d reads %g inside a fenced arena", i, r)
		}
	}
}

func TestLoadByPathAndUnknown(t *testing.T) {
	// A world on disk that includes a shipped model by model://.
	dir := t.TempDir()
	p := filepath.Join(dir, "mine.sdf")
	src := `<sdf version="1.7"><world name="mine"><include><uri>model://traffic_cone</uri><pose>1 2 0 0 0 0</pose></include></world></sdf>`
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	w, err := Load(p)
	if err != nil {
		t.Fatal(err)
	}
	if b, ok := w.Body("traffic_cone::cone"); !ok || b.Pose.Translation != (r3.Vec{X: 1, Y: 2}) {
		t.Errorf("included cone %v %+v", ok, b)
	}
	if _, err := Load("no-such-world"); !errors.Is(err, ErrUnknown) || !strings.Contains(err.Error(), "course, yard") {
		t.Errorf("unknown world: %v", err)
	}
}

// BenchmarkScanCourse is one 1081-beam scan of the course from the start.
func BenchmarkScanCourse(b *testing.B) {
	_, s := load(b, "course")
	sc, _ := laser.New(laser.UTM30LX())
	scan := sc.NewScan()
	pose := geom.FromXYZEuler(0.5, -0.5, 0.3, 0.3, 0, 0)
	b.ReportAllocs()
	for b.Loop() {
		_ = sc.Scan(s, pose, scan)
	}
}

func TestScanCourseAllocatesNothing(t *testing.T) {
	_, s := load(t, "course")
	sc, _ := laser.New(laser.UTM30LX())
	scan := sc.NewScan()
	if n := testing.AllocsPerRun(10, func() { _ = sc.Scan(s, geom.Translation(0, 0, 0.3), scan) }); n != 0 {
		t.Errorf("%g allocations per scan", n)
	}
}

func ExampleLoad() {
	w, err := Load("course")
	if err != nil {
		fmt.Println(err)
		return
	}
	b, _ := w.Body("box_2kg::box")
	fmt.Printf("%s: %g kg at %.2f m\n", b.Name, b.Mass, b.Pose.Translation)
	// Output: box_2kg::box: 2 kg at {-2.00 2.20 0.07} m
}
