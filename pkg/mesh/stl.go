package mesh

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"strconv"

	"gonum.org/v1/gonum/spatial/r3"
)

// stlHeader is the size of a binary STL's header and triangle count.
const stlHeader = 84

// stlRecord is the size of one binary STL triangle: normal, three corners
// (12 float32) and a 16-bit attribute.
const stlRecord = 50

// ReadSTL reads a binary or ASCII STL file. A file whose size is exactly
// what its binary header announces is binary (some binary files start with
// "solid" too); otherwise a file starting with "solid" is ASCII. The facet
// normals are ignored (the winding says where the outside is); identical
// corners are merged into one vertex.
func ReadSTL(data []byte, lim Limits) (*Mesh, error) {
	lim = lim.withDefaults()
	if len(data) > lim.MaxBytes {
		return nil, fmt.Errorf("stl: %d bytes: %w (limit %d)", len(data), ErrTooLarge, lim.MaxBytes)
	}
	if len(data) >= stlHeader {
		n := uint64(binary.LittleEndian.Uint32(data[80:84]))
		if uint64(len(data)) == stlHeader+stlRecord*n {
			return readBinarySTL(data, lim)
		}
	}
	if bytes.HasPrefix(bytes.TrimLeft(data, " \t\r\n"), []byte("solid")) {
		return readASCIISTL(data, lim)
	}
	if len(data) < stlHeader {
		return nil, fmt.Errorf("stl: %w: %d bytes, shorter than a binary header (84) and not ASCII", ErrFormat, len(data))
	}
	n := uint64(binary.LittleEndian.Uint32(data[80:84]))
	if uint64(len(data)) < stlHeader+stlRecord*n {
		return nil, fmt.Errorf("stl: %w: binary header announces %d triangles (%d bytes), file has %d bytes", ErrFormat, n, stlHeader+stlRecord*n, len(data))
	}
	// Trailing bytes after the announced triangles: read what is announced.
	return readBinarySTL(data[:stlHeader+stlRecord*n], lim)
}

type vertexMerger struct {
	m     *Mesh
	index map[[3]float64]int32
}

func newMerger(m *Mesh) *vertexMerger {
	return &vertexMerger{m: m, index: make(map[[3]float64]int32)}
}

func (v *vertexMerger) add(p r3.Vec) int32 {
	k := [3]float64{p.X, p.Y, p.Z}
	if i, ok := v.index[k]; ok {
		return i
	}
	i := int32(len(v.m.Vertices))
	v.m.Vertices = append(v.m.Vertices, p)
	v.index[k] = i
	return i
}

func readBinarySTL(data []byte, lim Limits) (*Mesh, error) {
	n := int(binary.LittleEndian.Uint32(data[80:84]))
	if n > lim.MaxTriangles {
		return nil, fmt.Errorf("stl: %d triangles: %w (limit %d)", n, ErrTooLarge, lim.MaxTriangles)
	}
	m := &Mesh{Triangles: make([][3]int32, 0, n)}
	vm := newMerger(m)
	f := func(off int) float64 {
		return float64(math.Float32frombits(binary.LittleEndian.Uint32(data[off:])))
	}
	for t := range n {
		rec := stlHeader + t*stlRecord
		var tri [3]int32
		for c := range 3 {
			o := rec + 12 + c*12
			p := r3.Vec{X: f(o), Y: f(o + 4), Z: f(o + 8)}
			if !finite(p) {
				return nil, fmt.Errorf("stl: %w: triangle %d corner %d is not finite", ErrFormat, t, c)
			}
			tri[c] = vm.add(p)
		}
		m.Triangles = append(m.Triangles, tri)
	}
	if err := m.finish(); err != nil {
		return nil, fmt.Errorf("stl: %w", err)
	}
	return m, nil
}

func readASCIISTL(data []byte, lim Limits) (*Mesh, error) {
	m := &Mesh{}
	vm := newMerger(m)
	r := lineReader{data: data}
	var corners []int32
	inLoop, inFacet, ended := false, false, false
	for {
		l, ok := r.next()
		if !ok {
			break
		}
		f := bytes.Fields(l)
		if len(f) == 0 {
			continue
		}
		bad := func(what string) error {
			return fmt.Errorf("stl: line %d: %w: %s", r.line, ErrFormat, what)
		}
		switch string(f[0]) {
		case "solid":
			if r.line != 1 && !ended {
				return nil, bad("\"solid\" inside a solid")
			}
			ended = false
		case "facet":
			if inFacet {
				return nil, bad("\"facet\" inside a facet")
			}
			inFacet = true
		case "outer":
			if !inFacet || inLoop {
				return nil, bad("\"outer loop\" outside a facet")
			}
			inLoop, corners = true, corners[:0]
		case "vertex":
			if !inLoop {
				return nil, bad("\"vertex\" outside a loop")
			}
			if len(f) != 4 {
				return nil, bad(fmt.Sprintf("\"vertex\" needs 3 numbers, has %d", len(f)-1))
			}
			var p [3]float64
			for i := range 3 {
				x, err := strconv.ParseFloat(string(f[i+1]), 64)
				if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
					return nil, bad(fmt.Sprintf("vertex coordinate %q is not a finite number", f[i+1]))
				}
				p[i] = x
			}
			if len(corners) >= 3 {
				return nil, bad("a facet has more than 3 vertices")
			}
			corners = append(corners, vm.add(r3.Vec{X: p[0], Y: p[1], Z: p[2]}))
		case "endloop":
			if !inLoop || len(corners) != 3 {
				return nil, bad(fmt.Sprintf("\"endloop\" after %d vertices, want 3", len(corners)))
			}
			inLoop = false
			if len(m.Triangles) >= lim.MaxTriangles {
				return nil, fmt.Errorf("stl: line %d: %w (limit %d triangles)", r.line, ErrTooLarge, lim.MaxTriangles)
			}
			m.Triangles = append(m.Triangles, [3]int32{corners[0], corners[1], corners[2]})
		case "endfacet":
			if !inFacet || inLoop {
				return nil, bad("\"endfacet\" without a closed loop")
			}
			inFacet = false
		case "endsolid":
			if inFacet {
				return nil, bad("\"endsolid\" inside a facet")
			}
			ended = true
		default:
			return nil, bad(fmt.Sprintf("unknown keyword %q", f[0]))
		}
	}
	if inFacet || inLoop {
		return nil, fmt.Errorf("stl: %w: file ends inside a facet", ErrFormat)
	}
	if err := m.finish(); err != nil {
		return nil, fmt.Errorf("stl: %w", err)
	}
	return m, nil
}

// WriteBinarySTL encodes m as a binary STL with the given header text (at
// most 80 bytes are kept; it must not start with "solid"). Facet normals are
// computed from the winding. Coordinates are rounded to float32.
func WriteBinarySTL(m *Mesh, header string) []byte {
	out := make([]byte, stlHeader+stlRecord*len(m.Triangles))
	copy(out[:80], header)
	binary.LittleEndian.PutUint32(out[80:], uint32(len(m.Triangles)))
	put := func(off int, v r3.Vec) {
		binary.LittleEndian.PutUint32(out[off:], math.Float32bits(float32(v.X)))
		binary.LittleEndian.PutUint32(out[off+4:], math.Float32bits(float32(v.Y)))
		binary.LittleEndian.PutUint32(out[off+8:], math.Float32bits(float32(v.Z)))
	}
	for i, t := range m.Triangles {
		rec := stlHeader + i*stlRecord
		p, q, r := m.Vertices[t[0]], m.Vertices[t[1]], m.Vertices[t[2]]
		n := r3.Cross(r3.Sub(q, p), r3.Sub(r, p))
		if l := r3.Norm(n); l > 0 {
			n = r3.Scale(1/l, n)
		}
		put(rec, n)
		put(rec+12, p)
		put(rec+24, q)
		put(rec+36, r)
	}
	return out
}
