package raycast

import (
	"math"
	"math/rand/v2"
	"testing"
	"testing/fstest"

	"github.com/telebridge/telebridge/pkg/geom"
	"github.com/telebridge/telebridge/pkg/mesh"
	"github.com/telebridge/telebridge/pkg/sdf"
	"gonum.org/v1/gonum/spatial/r3"
)

// testWorld is a ground plane and one shape of each kind around the
// origin, plus a dynamic crate.
const testWorld = `<sdf version="1.9"><world name="t">
<model name="ground"><static>true</static><link name="l"><collision name="c"><geometry><plane><normal>0 0 1</normal></plane></geometry></collision></link></model>
<model name="wall"><static>true</static><pose>2.05 0 1 0 0 0</pose><link name="l">
  <collision name="c"><geometry><box><size>0.1 4 2</size></box></geometry></collision></link></model>
<model name="diamond"><static>true</static><pose>0 -3 0.5 0 0 0.7853981633974483</pose><link name="l">
  <collision name="c"><geometry><box><size>1 1 1</size></box></geometry></collision></link></model>
<model name="post"><static>true</static><pose>0 4 0.5 0 0 0</pose><link name="l">
  <collision name="c"><geometry><cylinder><radius>0.5</radius><length>1</length></cylinder></geometry></collision></link></model>
<model name="ball"><static>true</static><pose>-5 0 0.5 0 0 0</pose><link name="l">
  <collision name="c"><geometry><sphere><radius>1</radius></sphere></geometry></collision></link></model>
<model name="ramp"><static>true</static><pose>0 0 3 0 0 0</pose><link name="l">
  <collision name="c"><geometry><mesh><uri>tri.obj</uri><scale>2 2 1</scale></mesh></geometry></collision></link></model>
<model name="crate"><pose>10 10 0.25 0 0 0</pose><link name="l">
  <inertial><mass>1</mass><inertia><ixx>0.1</ixx><iyy>0.1</iyy><izz>0.1</izz></inertia></inertial>
  <collision name="c"><geometry><box><size>0.5 0.5 0.5</size></box></geometry></collision></link></model>
</world></sdf>`

// triOBJ is a unit right triangle in the XY plane (scaled to 2 m in the
// world), over the origin at z = 3.
const triOBJ = "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n"

func loadTest(t testing.TB) (*sdf.World, *Scene) {
	t.Helper()
	fsys := fstest.MapFS{"w.sdf": {Data: []byte(testWorld)}, "tri.obj": {Data: []byte(triOBJ)}}
	w, err := sdf.Load(fsys, "w.sdf", sdf.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return w, New(w)
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

func TestKnownGeometry(t *testing.T) {
	w, s := loadTest(t)
	for _, c := range []struct {
		name        string
		o, d        r3.Vec
		max         float64
		want        float64 // -1: no hit
		model       string
		normal      r3.Vec
		checkNormal bool
	}{
		{"wall at 2 m ahead", r3.Vec{Z: 0.5}, r3.Vec{X: 1}, 30, 2, "wall::l", r3.Vec{X: -1}, true},
		{"wall at 45 degrees", r3.Vec{Z: 0.5}, r3.Vec{X: 1, Y: 1}, 30, 2 * math.Sqrt2, "wall::l", r3.Vec{X: -1}, true},
		{"wall beyond max", r3.Vec{Z: 0.5}, r3.Vec{X: 1}, 1.5, -1, "", r3.Vec{}, false},
		{"box corner", r3.Vec{Z: 0.5}, r3.Vec{Y: -1}, 30, 3 - math.Sqrt2/2, "diamond::l", r3.Vec{}, false},
		{"cylinder side", r3.Vec{Z: 0.5}, r3.Vec{Y: 1}, 30, 3.5, "post::l", r3.Vec{Y: -1}, true},
		{"cylinder cap", r3.Vec{Y: 4.2, Z: 2}, r3.Vec{Z: -1}, 30, 1, "post::l", r3.Vec{Z: 1}, true},
		{"cylinder off the side", r3.Vec{X: 0.6, Z: 0.5}, r3.Vec{Y: 1}, 30, -1, "", r3.Vec{}, false},
		{"sphere", r3.Vec{Z: 0.5}, r3.Vec{X: -1}, 30, 4, "ball::l", r3.Vec{X: 1}, true},
		{"ground from above", r3.Vec{X: 1, Y: 1, Z: 1.25}, r3.Vec{Z: -1}, 30, 1.25, "ground::l", r3.Vec{Z: 1}, true},
		{"ground not from below", r3.Vec{X: 1, Y: 1, Z: -1}, r3.Vec{Z: 1}, 1.5, -1, "", r3.Vec{}, false},
		{"mesh triangle from below", r3.Vec{X: 0.5, Y: 0.5, Z: 2}, r3.Vec{Z: 1}, 30, 1, "ramp::l", r3.Vec{Z: -1}, true},
		{"mesh triangle missed", r3.Vec{X: 1.5, Y: 1.5, Z: 2}, r3.Vec{Z: 1}, 30, -1, "", r3.Vec{}, false},
		{"inside a box", r3.Vec{X: 2.05, Z: 1}, r3.Vec{Y: 1}, 30, 2, "wall::l", r3.Vec{Y: 1}, true},
		{"dynamic crate", r3.Vec{X: 10, Y: 10, Z: 2}, r3.Vec{Z: -1}, 30, 1.5, "crate::l", r3.Vec{Z: 1}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			h, ok := s.Cast(c.o, c.d, c.max)
			if c.want < 0 {
				if ok {
					t.Fatalf("hit %s at %g m, want none", w.Bodies[h.Body].Name, h.Distance)
				}
				return
			}
			if !ok {
				t.Fatalf("no hit, want %g m", c.want)
			}
			if !near(h.Distance, c.want) || w.Bodies[h.Body].Name != c.model {
				t.Errorf("hit %s at %.12g m, want %s at %.12g m", w.Bodies[h.Body].Name, h.Distance, c.model, c.want)
			}
			if c.checkNormal && r3.Norm(r3.Sub(h.Normal, c.normal)) > 1e-9 {
				t.Errorf("normal %v, want %v", h.Normal, c.normal)
			}
			p := r3.Add(c.o, r3.Scale(c.want/r3.Norm(c.d), c.d))
			if r3.Norm(r3.Sub(h.Point, p)) > 1e-9 {
				t.Errorf("point %v, want %v", h.Point, p)
			}
		})
	}
}

func TestSetPoseMovesDynamicBodies(t *testing.T) {
	w, s := loadTest(t)
	crate := -1
	for i, b := range w.Bodies {
		if b.Name == "crate::l" {
			crate = i
		}
	}
	// Tip the crate 90 degrees about X and lift it: its top is now 2 m up.
	if err := s.SetPose(crate, geom.Transform{Translation: r3.Vec{X: 10, Y: 10, Z: 1.75}, Rotation: geom.FromRPY(math.Pi/2, 0, 0)}); err != nil {
		t.Fatal(err)
	}
	h, ok := s.Cast(r3.Vec{X: 10, Y: 10, Z: 3}, r3.Vec{Z: -1}, 30)
	if !ok || !near(h.Distance, 1) || !near(h.Normal.Z, 1) {
		t.Errorf("hit %+v %v, want the moved crate 1 m below", h, ok)
	}
	if err := s.SetPose(0, geom.Identity()); err == nil {
		t.Error("SetPose of a static body succeeded")
	}
}

// brute is the reference: every primitive, no hierarchy.
func brute(s *Scene, o, d r3.Vec, tmax float64) (float64, bool) {
	t, ok := tmax, false
	all := append(append([]prim{}, s.static.prims...), s.static.planes...)
	for i := range all {
		if tt, _, hit := all[i].intersect(o, d, t); hit {
			t, ok = tt, true
		}
	}
	return t, ok
}

// TestHierarchyMatchesBruteForce builds a random clutter of every shape
// and checks the hierarchy finds exactly the hits a linear scan finds.
func TestHierarchyMatchesBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	w := &sdf.World{}
	for i := range 400 {
		var g sdf.Geometry
		switch i % 4 {
		case 3:
			v := func() r3.Vec { return r3.Vec{X: rng.Float64()*2 - 1, Y: rng.Float64()*2 - 1, Z: rng.Float64()*2 - 1} }
			g = sdf.Geometry{Kind: sdf.MeshGeom, Mesh: &mesh.Mesh{Vertices: []r3.Vec{v(), v(), v(), v()}, Triangles: [][3]int32{{0, 1, 2}, {1, 2, 3}}}}
		case 0:
			g = sdf.Geometry{Kind: sdf.Box, Size: r3.Vec{X: 0.1 + rng.Float64(), Y: 0.1 + rng.Float64(), Z: 0.1 + rng.Float64()}}
		case 1:
			g = sdf.Geometry{Kind: sdf.Cylinder, Radius: 0.05 + rng.Float64()/2, Length: 0.1 + rng.Float64()}
		case 2:
			g = sdf.Geometry{Kind: sdf.Sphere, Radius: 0.05 + rng.Float64()/2}
		}
		pose := geom.FromXYZEuler(rng.Float64()*40-20, rng.Float64()*40-20, rng.Float64()*3, rng.Float64()*6, rng.Float64()*6, rng.Float64()*6)
		w.Bodies = append(w.Bodies, sdf.Body{Static: true, Pose: pose, Collisions: []sdf.Shape{{Pose: geom.Identity(), Geometry: g}}})
	}
	s := New(w)
	for i := range 2000 {
		o := r3.Vec{X: rng.Float64()*50 - 25, Y: rng.Float64()*50 - 25, Z: rng.Float64() * 3}
		d := r3.Unit(r3.Vec{X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: rng.NormFloat64() * 0.2})
		h, ok := s.Cast(o, d, 30)
		bt, bok := brute(s, o, d, 30)
		if ok != bok || (ok && !near(h.Distance, bt)) {
			t.Fatalf("ray %d from %v along %v: hierarchy %v %g, brute force %v %g", i, o, d, ok, h.Distance, bok, bt)
		}
	}
}

func TestCastAllocatesNothing(t *testing.T) {
	_, s := loadTest(t)
	if n := testing.AllocsPerRun(100, func() { s.Cast(r3.Vec{Z: 0.5}, r3.Vec{X: 1, Y: 0.3}, 30) }); n != 0 {
		t.Errorf("%g allocations per Cast", n)
	}
}

func TestDegenerateRays(t *testing.T) {
	_, s := loadTest(t)
	for _, d := range []r3.Vec{{}, {X: math.NaN()}, {X: math.Inf(1)}} {
		if _, ok := s.Cast(r3.Vec{Z: 0.5}, d, 30); ok {
			t.Errorf("direction %v hit something", d)
		}
	}
	if _, ok := s.Cast(r3.Vec{Z: 0.5}, r3.Vec{X: 1}, 0); ok {
		t.Error("zero max distance hit something")
	}
}

// TestAxisParallelRayOnABound casts rays parallel to two axes whose origin
// lies exactly on a bounding box's face (the cone's axis through its tip
// vertex, a mesh edge at x = 0): they must still hit.
func TestAxisParallelRayOnABound(t *testing.T) {
	sq := &mesh.Mesh{
		Vertices:  []r3.Vec{{X: 0, Y: 0, Z: 1}, {X: 1, Y: 0, Z: 1}, {X: 1, Y: 1, Z: 1}, {X: 0, Y: 1, Z: 1}},
		Triangles: [][3]int32{{0, 1, 2}, {0, 2, 3}},
	}
	w := &sdf.World{Bodies: []sdf.Body{{Static: true, Pose: geom.Identity(), Collisions: []sdf.Shape{
		{Pose: geom.Identity(), Geometry: sdf.Geometry{Kind: sdf.MeshGeom, Mesh: sq}},
		{Pose: geom.Translation(5, 0, 0.5), Geometry: sdf.Geometry{Kind: sdf.Box, Size: r3.Vec{X: 1, Y: 1, Z: 1}}},
	}}}}
	s := New(w)
	for _, c := range []struct {
		o, d r3.Vec
		want float64
	}{
		{r3.Vec{X: 0, Y: 0.5, Z: 3}, r3.Vec{Z: -1}, 2},   // on the mesh's x = 0 edge
		{r3.Vec{X: 0, Y: 0, Z: 3}, r3.Vec{Z: -1}, 2},     // through a corner vertex
		{r3.Vec{X: 0.5, Y: 0.5, Z: 3}, r3.Vec{Z: -1}, 2}, // through the shared diagonal
		{r3.Vec{X: 2, Y: 0.5, Z: 1}, r3.Vec{X: 1}, 2.5},  // along the box's top face plane
	} {
		h, ok := s.Cast(c.o, c.d, 10)
		if !ok || !near(h.Distance, c.want) {
			t.Errorf("ray from %v along %v: %v %g, want %g", c.o, c.d, ok, h.Distance, c.want)
		}
	}
}

// BenchmarkCast is one ray through the test world's clutter.
func BenchmarkCast(b *testing.B) {
	_, s := loadTest(b)
	o, d := r3.Vec{Z: 0.5}, r3.Unit(r3.Vec{X: 1, Y: 0.3})
	b.ReportAllocs()
	for b.Loop() {
		s.Cast(o, d, 30)
	}
}
