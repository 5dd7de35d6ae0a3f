package mesh

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"path"
	"strings"

	"gonum.org/v1/gonum/spatial/r3"
)

// Mesh is an indexed triangle mesh.
type Mesh struct {
	// Vertices are the corner positions, in the file's unit ([m] for SDF).
	Vertices []r3.Vec
	// Triangles index Vertices, counter-clockwise seen from outside where
	// the file says so (STL and OBJ do not enforce it).
	Triangles [][3]int32
	// Min and Max bound every vertex a triangle uses; both are zero for a
	// mesh without triangles.
	Min, Max r3.Vec
}

// Limits bound what a reader accepts. The zero value of a field means its
// default.
type Limits struct {
	// MaxBytes is the largest input accepted [bytes]; default 64 MiB.
	MaxBytes int
	// MaxTriangles is the most triangles kept; default 2 000 000.
	MaxTriangles int
	// MaxVertices is the most vertices an OBJ file may declare; default
	// 2 000 000.
	MaxVertices int
}

// Defaults of Limits.
const (
	DefaultMaxBytes     = 64 << 20
	DefaultMaxTriangles = 2_000_000
	DefaultMaxVertices  = 2_000_000
)

func (l Limits) withDefaults() Limits {
	if l.MaxBytes <= 0 {
		l.MaxBytes = DefaultMaxBytes
	}
	if l.MaxTriangles <= 0 {
		l.MaxTriangles = DefaultMaxTriangles
	}
	if l.MaxVertices <= 0 {
		l.MaxVertices = DefaultMaxVertices
	}
	return l
}

// ErrTooLarge is wrapped by the readers when the input exceeds Limits.
var ErrTooLarge = errors.New("mesh: over the size limit")

// ErrFormat is wrapped by the readers for input that is not a valid file
// of the format (bad number, missing keyword, index out of range, NaN).
var ErrFormat = errors.New("mesh: malformed")

// ErrUnsupported is wrapped by Decode for a file name whose extension is
// neither .stl nor .obj (e.g. COLLADA .dae).
var ErrUnsupported = errors.New("mesh: unsupported format")

// Decode reads data as the format its name's extension says (.stl or
// .obj, any case). name is used in error messages only.
func Decode(name string, data []byte, lim Limits) (*Mesh, error) {
	var m *Mesh
	var err error
	switch strings.ToLower(path.Ext(name)) {
	case ".stl":
		m, err = ReadSTL(data, lim)
	case ".obj":
		m, err = ReadOBJ(data, lim)
	default:
		return nil, fmt.Errorf("%s: %w (only .stl and .obj are read)", name, ErrUnsupported)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return m, nil
}

// finish computes the bounds and checks every coordinate is finite.
func (m *Mesh) finish() error {
	m.Min, m.Max = r3.Vec{}, r3.Vec{}
	first := true
	for _, t := range m.Triangles {
		for _, i := range t {
			v := m.Vertices[i]
			if !finite(v) {
				return fmt.Errorf("%w: vertex %d is not finite (%v)", ErrFormat, i, v)
			}
			if first {
				m.Min, m.Max, first = v, v, false
				continue
			}
			m.Min = r3.Vec{X: math.Min(m.Min.X, v.X), Y: math.Min(m.Min.Y, v.Y), Z: math.Min(m.Min.Z, v.Z)}
			m.Max = r3.Vec{X: math.Max(m.Max.X, v.X), Y: math.Max(m.Max.Y, v.Y), Z: math.Max(m.Max.Z, v.Z)}
		}
	}
	return nil
}

func finite(v r3.Vec) bool {
	return !math.IsNaN(v.X) && !math.IsNaN(v.Y) && !math.IsNaN(v.Z) &&
		!math.IsInf(v.X, 0) && !math.IsInf(v.Y, 0) && !math.IsInf(v.Z, 0)
}

// Scaled returns a copy of m with every vertex multiplied component-wise by
// s (the SDF <mesh><scale>). A scale with an odd number of negative
// components mirrors the mesh, so the triangles' winding is reversed to
// keep their outside outside.
func (m *Mesh) Scaled(s r3.Vec) *Mesh {
	out := &Mesh{Vertices: make([]r3.Vec, len(m.Vertices)), Triangles: make([][3]int32, len(m.Triangles))}
	for i, v := range m.Vertices {
		out.Vertices[i] = r3.Vec{X: v.X * s.X, Y: v.Y * s.Y, Z: v.Z * s.Z}
	}
	flip := s.X*s.Y*s.Z < 0
	for i, t := range m.Triangles {
		if flip {
			t[1], t[2] = t[2], t[1]
		}
		out.Triangles[i] = t
	}
	_ = out.finish() // finite in, finite out unless s is not: then bounds carry it
	return out
}

// Area returns the total surface [unit^2] of the triangles.
func (m *Mesh) Area() float64 {
	var a float64
	for _, t := range m.Triangles {
		p, q, r := m.Vertices[t[0]], m.Vertices[t[1]], m.Vertices[t[2]]
		a += r3.Norm(r3.Cross(r3.Sub(q, p), r3.Sub(r, p))) / 2
	}
	return a
}

// Volume returns the signed volume [unit^3] enclosed by the triangles (the
// divergence theorem): positive for a closed mesh wound counter-clockwise
// seen from outside, meaningless for an open one.
func (m *Mesh) Volume() float64 {
	var v float64
	for _, t := range m.Triangles {
		p, q, r := m.Vertices[t[0]], m.Vertices[t[1]], m.Vertices[t[2]]
		v += r3.Dot(p, r3.Cross(q, r)) / 6
	}
	return v
}

// lineReader yields the lines of data with their 1-based numbers.
type lineReader struct {
	data []byte
	line int
}

func (r *lineReader) next() ([]byte, bool) {
	if len(r.data) == 0 {
		return nil, false
	}
	r.line++
	i := bytes.IndexByte(r.data, '\n')
	var l []byte
	if i < 0 {
		l, r.data = r.data, nil
	} else {
		l, r.data = r.data[:i], r.data[i+1:]
	}
	return bytes.TrimSpace(l), true
}
