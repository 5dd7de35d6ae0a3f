package mesh

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/spatial/r3"
)

// TestShapesAreClosedAndOutward compares each solid's volume with the
// formula of its polygonal approximation and checks every face points away
// from the centre.
func TestShapesAreClosedAndOutward(t *testing.T) {
	ngon := func(r float64, n int) float64 { return 0.5 * float64(n) * r * r * math.Sin(2*math.Pi/float64(n)) }
	a0, a1 := ngon(0.3, 32), ngon(0.1, 32)
	for _, c := range []struct {
		name   string
		m      *Mesh
		want   float64
		tol    float64
		centre r3.Vec
	}{
		{"box", Box(r3.Vec{X: 1, Y: 2, Z: 3}), 6, 1e-12, r3.Vec{}},
		{"cylinder", Cylinder(0.5, 2, 32), ngon(0.5, 32) * 2, 1e-12, r3.Vec{}},
		{"frustum", Frustum(0.3, 0.1, 1, 32), (a0 + a1 + math.Sqrt(a0*a1)) / 3, 1e-12, r3.Vec{Z: 0.5}},
		{"sphere", Sphere(1, 32, 64), 4 * math.Pi / 3, 0.02, r3.Vec{}},
	} {
		if v := c.m.Volume(); math.Abs(v-c.want) > c.tol*math.Max(1, c.want) {
			t.Errorf("%s volume %g, want %g", c.name, v, c.want)
		}
		for i, tri := range c.m.Triangles {
			p := r3.Scale(1.0/3, r3.Add(c.m.Vertices[tri[0]], r3.Add(c.m.Vertices[tri[1]], c.m.Vertices[tri[2]])))
			if r3.Dot(c.m.FaceNormal(i), r3.Sub(p, c.centre)) <= 0 {
				t.Errorf("%s triangle %d faces inwards", c.name, i)
				break
			}
		}
	}
	if b := Box(r3.Vec{X: 1, Y: 2, Z: 3}); b.Min != (r3.Vec{X: -0.5, Y: -1, Z: -1.5}) || b.Max != (r3.Vec{X: 0.5, Y: 1, Z: 1.5}) {
		t.Errorf("box bounds %v %v", b.Min, b.Max)
	}
}
