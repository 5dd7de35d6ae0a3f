package mesh

import (
	"math"

	"gonum.org/v1/gonum/spatial/r3"
)

// Box returns a closed box of full edge lengths size [m] centred on the
// origin, wound outwards: 8 vertices, 12 triangles. A renderer that wants
// sharp edges shades it by FaceNormal.
func Box(size r3.Vec) *Mesh {
	h := r3.Scale(0.5, size)
	m := &Mesh{}
	for i := range 8 {
		v := r3.Vec{X: -h.X, Y: -h.Y, Z: -h.Z}
		if i&1 != 0 {
			v.X = h.X
		}
		if i&2 != 0 {
			v.Y = h.Y
		}
		if i&4 != 0 {
			v.Z = h.Z
		}
		m.Vertices = append(m.Vertices, v)
	}
	// Corner i has x = bit 0, y = bit 1, z = bit 2.
	for _, q := range [6][4]int32{
		{0, 2, 3, 1}, // -Z
		{4, 5, 7, 6}, // +Z
		{0, 1, 5, 4}, // -Y
		{2, 6, 7, 3}, // +Y
		{0, 4, 6, 2}, // -X
		{1, 3, 7, 5}, // +X
	} {
		m.Triangles = append(m.Triangles, [3]int32{q[0], q[1], q[2]}, [3]int32{q[0], q[2], q[3]})
	}
	_ = m.finish()
	return m
}

// Frustum returns a closed truncated cone about Z from z = 0 (radius r0)
// to z = h (radius r1) [m], with segments sides (at least 3), wound
// outwards. r1 = r0 is a cylinder; a radius of 0 closes it in a point.
func Frustum(r0, r1, h float64, segments int) *Mesh {
	segments = max(segments, 3)
	m := &Mesh{Vertices: []r3.Vec{{}, {Z: h}}}
	for _, ring := range [2]struct{ r, z float64 }{{r0, 0}, {r1, h}} {
		for i := range segments {
			s, c := math.Sincos(2 * math.Pi * float64(i) / float64(segments))
			m.Vertices = append(m.Vertices, r3.Vec{X: ring.r * c, Y: ring.r * s, Z: ring.z})
		}
	}
	n := int32(segments)
	for i := range n {
		j := (i + 1) % n
		b0, b1, t0, t1 := 2+i, 2+j, 2+n+i, 2+n+j
		m.Triangles = append(m.Triangles, [3]int32{0, b1, b0}, [3]int32{1, t0, t1}, [3]int32{b0, b1, t1}, [3]int32{b0, t1, t0})
	}
	_ = m.finish()
	return m
}

// Cylinder returns a closed cylinder of radius r and length l [m] about Z,
// centred on the origin as SDF's <cylinder> is.
func Cylinder(r, l float64, segments int) *Mesh {
	m := Frustum(r, r, l, segments)
	for i := range m.Vertices {
		m.Vertices[i].Z -= l / 2
	}
	_ = m.finish()
	return m
}

// Sphere returns a closed UV sphere of radius r [m] centred on the origin,
// with rings bands of latitude (at least 2) and segments of longitude (at
// least 3), wound outwards.
func Sphere(r float64, rings, segments int) *Mesh {
	rings, segments = max(rings, 2), max(segments, 3)
	m := &Mesh{Vertices: []r3.Vec{{Z: r}, {Z: -r}}}
	for k := 1; k < rings; k++ {
		sp, cp := math.Sincos(math.Pi * float64(k) / float64(rings))
		for i := range segments {
			s, c := math.Sincos(2 * math.Pi * float64(i) / float64(segments))
			m.Vertices = append(m.Vertices, r3.Vec{X: r * sp * c, Y: r * sp * s, Z: r * cp})
		}
	}
	n := int32(segments)
	ring := func(k, i int32) int32 { return 2 + (k-1)*n + (i+n)%n }
	last := int32(rings - 1)
	for i := range n {
		m.Triangles = append(m.Triangles, [3]int32{0, ring(1, i), ring(1, i+1)})
		m.Triangles = append(m.Triangles, [3]int32{1, ring(last, i+1), ring(last, i)})
		for k := int32(1); k < last; k++ {
			a, b, c, d := ring(k, i), ring(k, i+1), ring(k+1, i), ring(k+1, i+1)
			m.Triangles = append(m.Triangles, [3]int32{a, c, d}, [3]int32{a, d, b})
		}
	}
	_ = m.finish()
	return m
}

// FaceNormal returns the unit normal of triangle i by its winding (zero
// for a degenerate triangle).
func (m *Mesh) FaceNormal(i int) r3.Vec {
	t := m.Triangles[i]
	p, q, r := m.Vertices[t[0]], m.Vertices[t[1]], m.Vertices[t[2]]
	n := r3.Cross(r3.Sub(q, p), r3.Sub(r, p))
	if l := r3.Norm(n); l > 0 {
		return r3.Scale(1/l, n)
	}
	return r3.Vec{}
}
