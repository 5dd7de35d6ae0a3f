package raycast

import (
	"errors"
	"fmt"
	"math"

	"github.com/telebridge/telebridge/pkg/geom"
	"github.com/telebridge/telebridge/pkg/sdf"
	"gonum.org/v1/gonum/spatial/r3"
)

// Hit is where a ray meets the collision geometry.
type Hit struct {
	// Distance along the ray's unit direction [m].
	Distance float64
	// Point and Normal in the world frame; the normal is a unit vector
	// pointing out of the solid (towards the ray's origin for triangles).
	Point, Normal r3.Vec
	// Body indexes sdf.World.Bodies and Shape the body's Collisions.
	Body, Shape int
}

// Scene is the collision geometry of a world, ready for rays.
type Scene struct {
	static  bvh
	dynamic []dynBody
	byBody  map[int]int // World.Bodies index -> dynamic index
}

type dynBody struct {
	body int
	pose geom.Transform
	inv  [3][3]float64 // world -> link rotation
	t    bvh           // in the link frame
}

// ErrNotDynamic is returned by SetPose for a body the scene holds as
// static (or that has no collision shapes).
var ErrNotDynamic = errors.New("raycast: not a dynamic body of the scene")

// New builds a scene from the collision shapes of w's bodies at their
// load-time poses. Static bodies are fixed from then on; dynamic ones
// move with SetPose.
func New(w *sdf.World) *Scene {
	s := &Scene{byBody: map[int]int{}}
	for bi := range w.Bodies {
		b := &w.Bodies[bi]
		if len(b.Collisions) == 0 {
			continue
		}
		if b.Static {
			for si := range b.Collisions {
				addShape(&s.static, b.Pose, &b.Collisions[si], bi, si)
			}
			continue
		}
		db := dynBody{body: bi}
		for si := range b.Collisions {
			addShape(&db.t, geom.Identity(), &b.Collisions[si], bi, si)
		}
		db.t.build()
		s.byBody[bi] = len(s.dynamic)
		s.dynamic = append(s.dynamic, db)
		_ = s.SetPose(bi, b.Pose)
	}
	s.static.build()
	return s
}

// addShape appends the primitives of shape c of a body at pose into t.
func addShape(t *bvh, pose geom.Transform, c *sdf.Shape, body, shape int) {
	w := pose.Mul(c.Pose)
	rot := w.Rotation.Matrix()
	var rt [3][3]float64
	for i := range 3 {
		for j := range 3 {
			rt[i][j] = rot[j][i]
		}
	}
	p := prim{body: int32(body), shape: int32(shape), rot: rt, pos: w.Translation}
	g := &c.Geometry
	// Bounds of a centred box of half extents h under rot.
	bound := func(h r3.Vec) {
		var e r3.Vec
		e.X = math.Abs(rot[0][0])*h.X + math.Abs(rot[0][1])*h.Y + math.Abs(rot[0][2])*h.Z
		e.Y = math.Abs(rot[1][0])*h.X + math.Abs(rot[1][1])*h.Y + math.Abs(rot[1][2])*h.Z
		e.Z = math.Abs(rot[2][0])*h.X + math.Abs(rot[2][1])*h.Y + math.Abs(rot[2][2])*h.Z
		p.min, p.max = r3.Sub(w.Translation, e), r3.Add(w.Translation, e)
	}
	switch g.Kind {
	case sdf.Box:
		p.kind, p.half = kBox, r3.Scale(0.5, g.Size)
		bound(p.half)
	case sdf.Cylinder:
		p.kind, p.half = kCylinder, r3.Vec{X: g.Radius, Z: g.Length / 2}
		bound(r3.Vec{X: g.Radius, Y: g.Radius, Z: g.Length / 2})
	case sdf.Sphere:
		p.kind, p.half = kSphere, r3.Vec{X: g.Radius}
		bound(r3.Vec{X: g.Radius, Y: g.Radius, Z: g.Radius})
	case sdf.Plane:
		p.kind, p.half = kPlane, r3.Unit(w.Rotation.Rotate(g.Normal))
		t.planes = append(t.planes, p)
		return
	case sdf.MeshGeom:
		m := g.Mesh
		for _, tri := range m.Triangles {
			a, b, c := w.Apply(m.Vertices[tri[0]]), w.Apply(m.Vertices[tri[1]]), w.Apply(m.Vertices[tri[2]])
			q := prim{kind: kTriangle, body: int32(body), shape: int32(shape), v0: a, e1: r3.Sub(b, a), e2: r3.Sub(c, a)}
			q.min, q.max = vmin(a, vmin(b, c)), vmax(a, vmax(b, c))
			t.prims = append(t.prims, q)
		}
		return
	default:
		return
	}
	t.prims = append(t.prims, p)
}

// SetPose moves a dynamic body (World.Bodies index) to pose, its link
// frame in the world frame.
func (s *Scene) SetPose(body int, pose geom.Transform) error {
	i, ok := s.byBody[body]
	if !ok {
		return fmt.Errorf("body %d: %w", body, ErrNotDynamic)
	}
	if err := pose.Validate(); err != nil {
		return fmt.Errorf("raycast: body %d: %w", body, err)
	}
	d := &s.dynamic[i]
	d.pose = pose
	m := pose.Rotation.Matrix()
	for r := range 3 {
		for c := range 3 {
			d.inv[r][c] = m[c][r]
		}
	}
	return nil
}

// Cast returns the nearest hit of the ray from origin along dir (any
// non-zero length; it is normalised) closer than maxDist [m]; ok is false
// when there is none.
func (s *Scene) Cast(origin, dir r3.Vec, maxDist float64) (h Hit, ok bool) {
	l := r3.Norm(dir)
	if !(l > 0) || math.IsInf(l, 0) || !(maxDist > 0) {
		return Hit{}, false
	}
	dir = r3.Scale(1/l, dir)
	p, t, n := s.static.cast(origin, dir, maxDist)
	if p != nil {
		h, ok = Hit{Distance: t, Normal: n, Body: int(p.body), Shape: int(p.shape)}, true
	}
	for i := range s.dynamic {
		d := &s.dynamic[i]
		lo := mulT(&d.inv, r3.Sub(origin, d.pose.Translation))
		ld := mulT(&d.inv, dir)
		if q, tt, nn := d.t.cast(lo, ld, t); q != nil {
			t = tt
			h, ok = Hit{Distance: tt, Normal: mulTT(&d.inv, nn), Body: int(q.body), Shape: int(q.shape)}, true
		}
	}
	if ok {
		h.Point = r3.Add(origin, r3.Scale(h.Distance, dir))
	}
	return h, ok
}

// Bounds returns the box around every bounded static shape [m] (planes are
// unbounded and left out); ok is false for a scene without one.
func (s *Scene) Bounds() (min, max r3.Vec, ok bool) {
	if len(s.static.nodes) == 0 {
		return r3.Vec{}, r3.Vec{}, false
	}
	return s.static.min, s.static.max, true
}
