package render

import (
	"errors"
	"fmt"
	"math"
)

// Mesh is a triangle mesh in its own frame [m]: per vertex a position and
// a unit normal, three indices per triangle, counter-clockwise seen from
// outside (the side the normals point to).
type Mesh struct {
	Positions []float32 // x, y, z per vertex [m]
	Normals   []float32 // x, y, z per vertex, unit length
	Indices   []uint32  // three per triangle, into the vertices
	// DoubleSided draws the back of each triangle too (it is otherwise
	// culled): for open surfaces seen from both sides and for mesh files
	// whose winding cannot be trusted. A back face is lit as its front.
	DoubleSided bool
}

// ErrMesh is wrapped by Mesh.Validate.
var ErrMesh = errors.New("render: bad mesh")

// Vertices returns the number of vertices.
func (m *Mesh) Vertices() int { return len(m.Positions) / 3 }

// Triangles returns the number of triangles.
func (m *Mesh) Triangles() int { return len(m.Indices) / 3 }

// Validate reports (wrapping ErrMesh) an empty mesh, arrays whose lengths
// do not fit, an index out of range, or a position or normal that is not
// finite.
func (m *Mesh) Validate() error {
	n := len(m.Positions)
	switch {
	case n == 0 || len(m.Indices) == 0:
		return fmt.Errorf("%w: empty (%d positions, %d indices)", ErrMesh, n/3, len(m.Indices))
	case n%3 != 0 || len(m.Normals) != n:
		return fmt.Errorf("%w: %d position and %d normal values (3 per vertex, as many normals as positions)", ErrMesh, n, len(m.Normals))
	case len(m.Indices)%3 != 0:
		return fmt.Errorf("%w: %d indices is not whole triangles", ErrMesh, len(m.Indices))
	case n/3 > math.MaxUint32:
		return fmt.Errorf("%w: %d vertices", ErrMesh, n/3)
	}
	for i, v := range m.Positions {
		if !finite(float64(v)) || !finite(float64(m.Normals[i])) {
			return fmt.Errorf("%w: vertex %d is not finite", ErrMesh, i/3)
		}
	}
	for i, ix := range m.Indices {
		if int(ix) >= n/3 {
			return fmt.Errorf("%w: index %d is %d, past the %d vertices", ErrMesh, i, ix, n/3)
		}
	}
	return nil
}

// add appends a vertex.
func (m *Mesh) add(px, py, pz, nx, ny, nz float64) {
	m.Positions = append(m.Positions, float32(px), float32(py), float32(pz))
	m.Normals = append(m.Normals, float32(nx), float32(ny), float32(nz))
}

// quad appends a flat quadrilateral: corner c, edges a and b (a x b is
// the outward normal, so c, c+a, c+a+b, c+b runs counter-clockwise).
func (m *Mesh) quad(c, a, b [3]float64) {
	nx, ny, nz := a[1]*b[2]-a[2]*b[1], a[2]*b[0]-a[0]*b[2], a[0]*b[1]-a[1]*b[0]
	l := math.Sqrt(nx*nx + ny*ny + nz*nz)
	nx, ny, nz = nx/l, ny/l, nz/l
	base := uint32(m.Vertices())
	m.add(c[0], c[1], c[2], nx, ny, nz)
	m.add(c[0]+a[0], c[1]+a[1], c[2]+a[2], nx, ny, nz)
	m.add(c[0]+a[0]+b[0], c[1]+a[1]+b[1], c[2]+a[2]+b[2], nx, ny, nz)
	m.add(c[0]+b[0], c[1]+b[1], c[2]+b[2], nx, ny, nz)
	m.Indices = append(m.Indices, base, base+1, base+2, base, base+2, base+3)
}

// Box returns a box of size sx, sy, sz [m] centred on its frame's origin,
// edges along the axes (SDF <box><size>): 24 vertices (flat faces), 12
// triangles.
func Box(sx, sy, sz float64) *Mesh {
	x, y, z := sx/2, sy/2, sz/2
	m := &Mesh{}
	m.quad([3]float64{x, -y, -z}, [3]float64{0, sy, 0}, [3]float64{0, 0, sz})  // +x
	m.quad([3]float64{-x, y, -z}, [3]float64{0, -sy, 0}, [3]float64{0, 0, sz}) // -x
	m.quad([3]float64{x, y, -z}, [3]float64{-sx, 0, 0}, [3]float64{0, 0, sz})  // +y
	m.quad([3]float64{-x, -y, -z}, [3]float64{sx, 0, 0}, [3]float64{0, 0, sz}) // -y
	m.quad([3]float64{-x, -y, z}, [3]float64{sx, 0, 0}, [3]float64{0, sy, 0})  // +z
	m.quad([3]float64{-x, y, -z}, [3]float64{sx, 0, 0}, [3]float64{0, -sy, 0}) // -z
	return m
}

// Plane returns a flat rectangle sx by sy [m] in its frame's x-y plane,
// centred on the origin, facing +z (SDF <plane> with normal 0 0 1; turn it
// with the body's pose for another normal): 4 vertices, 2 triangles. It
// is seen from the front only unless DoubleSided is set.
func Plane(sx, sy float64) *Mesh {
	m := &Mesh{}
	m.quad([3]float64{-sx / 2, -sy / 2, 0}, [3]float64{sx, 0, 0}, [3]float64{0, sy, 0})
	return m
}

// Cylinder returns a cylinder of radius r and length l [m] along its
// frame's z axis, centred on the origin (SDF <cylinder>), with segments
// sides (at least 3; smooth side normals, flat caps): 4*segments
// triangles.
func Cylinder(r, l float64, segments int) *Mesh {
	segments = max(segments, 3)
	m := &Mesh{}
	h := l / 2
	for i := 0; i <= segments; i++ { // side: a ring at each end, seam duplicated
		s, c := math.Sincos(2 * math.Pi * float64(i) / float64(segments))
		m.add(r*c, r*s, -h, c, s, 0)
		m.add(r*c, r*s, h, c, s, 0)
	}
	for i := 0; i < segments; i++ {
		b := uint32(2 * i)
		m.Indices = append(m.Indices, b, b+2, b+3, b, b+3, b+1)
	}
	for _, z := range []float64{h, -h} { // caps: a fan about the centre
		centre := uint32(m.Vertices())
		m.add(0, 0, z, 0, 0, math.Copysign(1, z))
		for i := 0; i < segments; i++ {
			s, c := math.Sincos(2 * math.Pi * float64(i) / float64(segments))
			m.add(r*c, r*s, z, 0, 0, math.Copysign(1, z))
		}
		for i := 0; i < segments; i++ {
			a, b := centre+1+uint32(i), centre+1+uint32((i+1)%segments)
			if z > 0 {
				m.Indices = append(m.Indices, centre, a, b)
			} else {
				m.Indices = append(m.Indices, centre, b, a)
			}
		}
	}
	return m
}

// Sphere returns a sphere of radius r [m] centred on its frame's origin
// (SDF <sphere>), as a UV sphere of segments meridians (at least 3) and
// rings parallels bands (at least 2): 2*segments*(rings-1) triangles.
func Sphere(r float64, segments, rings int) *Mesh {
	segments, rings = max(segments, 3), max(rings, 2)
	m := &Mesh{}
	for j := 0; j <= rings; j++ {
		sp, cp := math.Sincos(math.Pi * float64(j) / float64(rings)) // polar angle from +z
		for i := 0; i <= segments; i++ {
			s, c := math.Sincos(2 * math.Pi * float64(i) / float64(segments))
			nx, ny, nz := sp*c, sp*s, cp
			m.add(r*nx, r*ny, r*nz, nx, ny, nz)
		}
	}
	row := uint32(segments + 1)
	for j := 0; j < rings; j++ {
		for i := 0; i < segments; i++ {
			a := uint32(j)*row + uint32(i) // upper left (nearer +z)
			b, c, d := a+row, a+row+1, a+1
			if j > 0 { // the top band's upper triangle is degenerate
				m.Indices = append(m.Indices, a, b, d)
			}
			if j < rings-1 { // as is the bottom band's lower one
				m.Indices = append(m.Indices, d, b, c)
			}
		}
	}
	return m
}
