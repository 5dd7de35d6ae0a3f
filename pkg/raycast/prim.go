package raycast

import (
	"math"

	"gonum.org/v1/gonum/spatial/r3"
)

type primKind uint8

const (
	kBox primKind = iota
	kCylinder
	kSphere
	kTriangle
	kPlane
)

// prim is one primitive in the frame of its hierarchy (the world for
// static bodies, the link frame for dynamic ones).
type prim struct {
	kind  primKind
	body  int32 // World.Bodies index
	shape int32 // index in the body's Collisions
	// Boxes, cylinders, spheres and planes: rot maps the hierarchy's
	// frame into the shape frame (R^T), pos is the shape origin.
	rot [3][3]float64
	pos r3.Vec
	// Box: half extents. Cylinder: X radius, Z half length. Sphere: X
	// radius. Plane: the normal (in the hierarchy's frame).
	half r3.Vec
	// Triangle: a corner and the two edges from it.
	v0, e1, e2 r3.Vec
	min, max   r3.Vec // bounds in the hierarchy's frame
}

func mulT(m *[3][3]float64, v r3.Vec) r3.Vec {
	return r3.Vec{
		X: m[0][0]*v.X + m[0][1]*v.Y + m[0][2]*v.Z,
		Y: m[1][0]*v.X + m[1][1]*v.Y + m[1][2]*v.Z,
		Z: m[2][0]*v.X + m[2][1]*v.Y + m[2][2]*v.Z,
	}
}

// mulTT applies the transpose of m (shape frame back to the hierarchy's).
func mulTT(m *[3][3]float64, v r3.Vec) r3.Vec {
	return r3.Vec{
		X: m[0][0]*v.X + m[1][0]*v.Y + m[2][0]*v.Z,
		Y: m[0][1]*v.X + m[1][1]*v.Y + m[2][1]*v.Z,
		Z: m[0][2]*v.X + m[1][2]*v.Y + m[2][2]*v.Z,
	}
}

// intersect returns the distance along d from o to p's surface, if there
// is a hit in [0, tmax), and the surface normal in the hierarchy's frame.
func (p *prim) intersect(o, d r3.Vec, tmax float64) (float64, r3.Vec, bool) {
	switch p.kind {
	case kTriangle:
		return p.triangle(o, d, tmax)
	case kPlane:
		den := r3.Dot(d, p.half)
		if den >= 0 { // parallel, or from below
			return 0, r3.Vec{}, false
		}
		t := r3.Dot(r3.Sub(p.pos, o), p.half) / den
		if t < 0 || t >= tmax {
			return 0, r3.Vec{}, false
		}
		return t, p.half, true
	}
	lo := mulT(&p.rot, r3.Sub(o, p.pos))
	ld := mulT(&p.rot, d)
	var t float64
	var n r3.Vec
	var ok bool
	switch p.kind {
	case kBox:
		t, n, ok = box(lo, ld, p.half, tmax)
	case kCylinder:
		t, n, ok = cylinder(lo, ld, p.half.X, p.half.Z, tmax)
	case kSphere:
		t, n, ok = sphere(lo, ld, p.half.X, tmax)
	}
	if !ok {
		return 0, r3.Vec{}, false
	}
	return t, mulTT(&p.rot, n), true
}

// box intersects a ray in the box frame with the box of half extents h.
func box(o, d, h r3.Vec, tmax float64) (float64, r3.Vec, bool) {
	tn, tf := math.Inf(-1), math.Inf(1)
	an, af := -1, -1
	var sn, sf float64
	oa, da, ha := [3]float64{o.X, o.Y, o.Z}, [3]float64{d.X, d.Y, d.Z}, [3]float64{h.X, h.Y, h.Z}
	for a := range 3 {
		if da[a] == 0 {
			if oa[a] < -ha[a] || oa[a] > ha[a] {
				return 0, r3.Vec{}, false
			}
			continue
		}
		inv := 1 / da[a]
		t1, t2 := (-ha[a]-oa[a])*inv, (ha[a]-oa[a])*inv
		s := -1.0 // the near face's normal sign on this axis
		if t1 > t2 {
			t1, t2, s = t2, t1, 1
		}
		if t1 > tn {
			tn, an, sn = t1, a, s
		}
		if t2 < tf {
			tf, af, sf = t2, a, -s
		}
		if tn > tf {
			return 0, r3.Vec{}, false
		}
	}
	t, a, s := tn, an, sn
	if t < 0 { // inside: the exit face
		t, a, s = tf, af, sf
	}
	if t < 0 || t >= tmax || a < 0 {
		return 0, r3.Vec{}, false
	}
	var n [3]float64
	n[a] = s
	return t, r3.Vec{X: n[0], Y: n[1], Z: n[2]}, true
}

// sphere intersects a ray in the sphere frame with a sphere of radius r.
func sphere(o, d r3.Vec, r, tmax float64) (float64, r3.Vec, bool) {
	b := r3.Dot(o, d)
	c := r3.Dot(o, o) - r*r
	disc := b*b - c // d is a unit vector: a = 1
	if disc < 0 {
		return 0, r3.Vec{}, false
	}
	sq := math.Sqrt(disc)
	t := -b - sq
	if t < 0 {
		t = -b + sq
	}
	if t < 0 || t >= tmax {
		return 0, r3.Vec{}, false
	}
	return t, r3.Scale(1/r, r3.Add(o, r3.Scale(t, d))), true
}

// cylinder intersects a ray in the cylinder frame with a cylinder of
// radius r about Z from -hz to hz.
func cylinder(o, d r3.Vec, r, hz, tmax float64) (float64, r3.Vec, bool) {
	best := math.Inf(1)
	var n r3.Vec
	try := func(t float64, nn r3.Vec) {
		if t >= 0 && t < best {
			best, n = t, nn
		}
	}
	a := d.X*d.X + d.Y*d.Y
	if a > 0 {
		b := o.X*d.X + o.Y*d.Y
		c := o.X*o.X + o.Y*o.Y - r*r
		disc := b*b - a*c
		if disc >= 0 {
			sq := math.Sqrt(disc)
			for _, t := range [2]float64{(-b - sq) / a, (-b + sq) / a} {
				if z := o.Z + t*d.Z; z >= -hz && z <= hz {
					p := r3.Add(o, r3.Scale(t, d))
					try(t, r3.Vec{X: p.X / r, Y: p.Y / r})
				}
			}
		}
	}
	if d.Z != 0 {
		for _, s := range [2]float64{-1, 1} {
			t := (s*hz - o.Z) / d.Z
			x, y := o.X+t*d.X, o.Y+t*d.Y
			if x*x+y*y <= r*r {
				try(t, r3.Vec{Z: s})
			}
		}
	}
	if best >= tmax {
		return 0, r3.Vec{}, false
	}
	return best, n, true
}

// baryEps widens each triangle by a hair in barycentric terms so a ray
// through a shared edge or vertex of a mesh hits one of its triangles
// instead of slipping between them by rounding.
const baryEps = 1e-9

// triangle is Moller-Trumbore, hit from either side; the normal faces the
// ray's origin.
func (p *prim) triangle(o, d r3.Vec, tmax float64) (float64, r3.Vec, bool) {
	const eps = 1e-12
	pv := r3.Cross(d, p.e2)
	det := r3.Dot(p.e1, pv)
	if det > -eps && det < eps {
		return 0, r3.Vec{}, false
	}
	inv := 1 / det
	tv := r3.Sub(o, p.v0)
	u := r3.Dot(tv, pv) * inv
	if u < -baryEps || u > 1+baryEps {
		return 0, r3.Vec{}, false
	}
	qv := r3.Cross(tv, p.e1)
	v := r3.Dot(d, qv) * inv
	if v < -baryEps || u+v > 1+baryEps {
		return 0, r3.Vec{}, false
	}
	t := r3.Dot(p.e2, qv) * inv
	if t < 0 || t >= tmax {
		return 0, r3.Vec{}, false
	}
	n := r3.Unit(r3.Cross(p.e1, p.e2))
	if r3.Dot(n, d) > 0 {
		n = r3.Scale(-1, n)
	}
	return t, n, true
}
