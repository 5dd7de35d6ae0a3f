package physics

import (
	"fmt"
	"math"

	"github.com/telebridge/telebridge/pkg/physics/ode"
)

// ShapeKind says which fields of a Shape apply.
type ShapeKind int

// The shapes.
const (
	ShapeBox      ShapeKind = iota + 1 // Size: side lengths x, y, z [m]
	ShapeSphere                        // Radius [m]
	ShapeCylinder                      // Radius, Length [m]; axis z
	ShapePlane                         // static only: the plane z = 0 of its pose (normal +z), infinite
	ShapeMesh                          // Vertices, Triangles; static or on a body
)

// Shape is a collision shape, centred on its frame.
type Shape struct {
	Kind   ShapeKind // which of the fields below apply
	Size   Vec3      // box side lengths [m]
	Radius float64   // sphere and cylinder radius [m]
	Length float64   // cylinder length along z [m]
	// Vertices and Triangles are a mesh: points [m] in the shape frame and
	// counter-clockwise (outward normal) index triples into Vertices.
	Vertices  []Vec3
	Triangles [][3]uint32
}

// Box returns a box shape of side lengths x, y, z [m].
func Box(x, y, z float64) Shape { return Shape{Kind: ShapeBox, Size: Vec3{x, y, z}} }

// Sphere returns a sphere shape of radius r [m].
func Sphere(r float64) Shape { return Shape{Kind: ShapeSphere, Radius: r} }

// Cylinder returns a cylinder shape of radius r and length l [m] along z.
func Cylinder(r, l float64) Shape { return Shape{Kind: ShapeCylinder, Radius: r, Length: l} }

// Plane returns the infinite plane z = 0 of its pose (static only).
func Plane() Shape { return Shape{Kind: ShapePlane} }

func pos(x float64) bool { return x > 0 && x < 1e4 }

func (s Shape) validate() error {
	switch s.Kind {
	case ShapeBox:
		if !pos(s.Size[0]) || !pos(s.Size[1]) || !pos(s.Size[2]) {
			return fmt.Errorf("physics: box %v m: sides must be positive", s.Size)
		}
	case ShapeSphere:
		if !pos(s.Radius) {
			return fmt.Errorf("physics: sphere radius %g m: must be positive", s.Radius)
		}
	case ShapeCylinder:
		if !pos(s.Radius) || !pos(s.Length) {
			return fmt.Errorf("physics: cylinder r %g m, length %g m: must be positive", s.Radius, s.Length)
		}
	case ShapePlane:
	case ShapeMesh:
		if len(s.Vertices) < 3 || len(s.Triangles) < 1 {
			return fmt.Errorf("physics: mesh of %d vertices, %d triangles: too small", len(s.Vertices), len(s.Triangles))
		}
		if len(s.Vertices) > 1<<24 || len(s.Triangles) > 1<<24 {
			return fmt.Errorf("physics: mesh of %d vertices, %d triangles: too large", len(s.Vertices), len(s.Triangles))
		}
		for i, v := range s.Vertices {
			if !v.finite() {
				return fmt.Errorf("physics: mesh vertex %d is not finite", i)
			}
		}
		for i, t := range s.Triangles {
			for _, k := range t {
				if int(k) >= len(s.Vertices) {
					return fmt.Errorf("physics: mesh triangle %d names vertex %d of %d", i, k, len(s.Vertices))
				}
			}
		}
	default:
		return fmt.Errorf("physics: unknown shape kind %d", s.Kind)
	}
	return nil
}

func poseOK(p Pose) error {
	if !p.Pos.finite() || !p.Rot.finite() {
		return fmt.Errorf("physics: pose %+v is not finite", p)
	}
	if p.Rot != (Quat{}) {
		q := p.Rot
		if n := q[0]*q[0] + q[1]*q[1] + q[2]*q[2] + q[3]*q[3]; math.Abs(n-1) > 1e-3 {
			return fmt.Errorf("physics: quaternion %v is not a rotation (norm^2 %g)", q, n)
		}
	}
	return nil
}

// createGeom makes the ODE geom of s in space sp (under lock).
func (w *World) createGeom(sp ode.Space, s Shape) (ode.Geom, error) {
	l := w.l
	switch s.Kind {
	case ShapeBox:
		return l.CreateBox(sp, s.Size[0], s.Size[1], s.Size[2]), nil
	case ShapeSphere:
		return l.CreateSphere(sp, s.Radius), nil
	case ShapeCylinder:
		return l.CreateCylinder(sp, s.Radius, s.Length), nil
	case ShapeMesh:
		v := make([]float64, 0, 3*len(s.Vertices))
		for _, p := range s.Vertices {
			v = append(v, p[0], p[1], p[2])
		}
		ix := make([]uint32, 0, 3*len(s.Triangles))
		for _, t := range s.Triangles {
			ix = append(ix, t[0], t[1], t[2])
		}
		// ODE keeps pointers into both arrays: pin them for the world's life.
		w.pinner.Pin(&v[0])
		w.pinner.Pin(&ix[0])
		d := l.TriMeshDataCreate()
		l.TriMeshDataBuildDouble(d, v, ix)
		w.meshes = append(w.meshes, d)
		return l.CreateTriMesh(sp, d), nil
	}
	return 0, fmt.Errorf("physics: shape kind %d cannot be created here", s.Kind)
}

// Static is a piece of static geometry.
type Static struct {
	g ode.Geom
}

// AddStatic adds fixed geometry at pose p in the world.
func (w *World) AddStatic(s Shape, p Pose, m Material) (*Static, error) {
	if err := s.validate(); err != nil {
		return nil, err
	}
	if err := poseOK(p); err != nil {
		return nil, err
	}
	if err := m.validate(); err != nil {
		return nil, err
	}
	lock.Lock()
	defer lock.Unlock()
	if w.closed {
		return nil, ErrClosed
	}
	var g ode.Geom
	if s.Kind == ShapePlane {
		n := p.Rot.Rotate(Vec3{0, 0, 1})
		g = w.l.CreatePlane(w.static, n[0], n[1], n[2], n.Dot(p.Pos))
	} else {
		var err error
		if g, err = w.createGeom(w.static, s); err != nil {
			return nil, err
		}
		w.l.GeomSetPosition(g, p.Pos[0], p.Pos[1], p.Pos[2])
		w.l.GeomSetQuaternion(g, p.Rot.norm())
	}
	w.geoms[g] = &geomInfo{mat: m}
	return &Static{g: g}, nil
}
