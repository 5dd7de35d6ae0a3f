package mesh

import (
	"bytes"
	"fmt"
	"math"
	"strconv"

	"gonum.org/v1/gonum/spatial/r3"
)

// ReadOBJ reads the geometry of a Wavefront OBJ file: "v x y z [w]"
// vertices and "f" faces of three or more corners written as v, v/vt,
// v//vn or v/vt/vn, with 1-based or negative (relative) vertex indices.
// A polygon is split into a fan of triangles from its first corner (exact
// for convex polygons, which is what exporters write). Texture
// coordinates, normals, groups, smoothing, materials and the other
// statements are skipped; points ("p") and lines ("l") carry no surface and
// are skipped too. A rational weight w other than 1 divides x, y, z.
func ReadOBJ(data []byte, lim Limits) (*Mesh, error) {
	lim = lim.withDefaults()
	if len(data) > lim.MaxBytes {
		return nil, fmt.Errorf("obj: %d bytes: %w (limit %d)", len(data), ErrTooLarge, lim.MaxBytes)
	}
	m := &Mesh{}
	r := lineReader{data: data}
	var poly []int32
	for {
		l, ok := r.next()
		if !ok {
			break
		}
		if i := bytes.IndexByte(l, '#'); i >= 0 {
			l = l[:i]
		}
		f := bytes.Fields(l)
		if len(f) == 0 {
			continue
		}
		bad := func(what string) error {
			return fmt.Errorf("obj: line %d: %w: %s", r.line, ErrFormat, what)
		}
		switch string(f[0]) {
		case "v":
			if len(f) != 4 && len(f) != 5 && len(f) != 7 { // 7: x y z r g b (vertex colours)
				return nil, bad(fmt.Sprintf("\"v\" needs 3 or 4 numbers, has %d", len(f)-1))
			}
			if len(m.Vertices) >= lim.MaxVertices {
				return nil, fmt.Errorf("obj: line %d: %w (limit %d vertices)", r.line, ErrTooLarge, lim.MaxVertices)
			}
			var p [4]float64
			p[3] = 1
			n := 3
			if len(f) == 5 {
				n = 4
			}
			for i := range n {
				x, err := strconv.ParseFloat(string(f[i+1]), 64)
				if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
					return nil, bad(fmt.Sprintf("coordinate %q is not a finite number", f[i+1]))
				}
				p[i] = x
			}
			if p[3] == 0 {
				return nil, bad("vertex weight w is 0")
			}
			m.Vertices = append(m.Vertices, r3.Vec{X: p[0] / p[3], Y: p[1] / p[3], Z: p[2] / p[3]})
		case "f":
			if len(f) < 4 {
				return nil, bad(fmt.Sprintf("a face needs at least 3 corners, has %d", len(f)-1))
			}
			poly = poly[:0]
			for _, c := range f[1:] {
				s := c
				if i := bytes.IndexByte(c, '/'); i >= 0 {
					s = c[:i]
				}
				idx, err := strconv.ParseInt(string(s), 10, 64)
				if err != nil {
					return nil, bad(fmt.Sprintf("corner %q has no vertex index", c))
				}
				n := int64(len(m.Vertices))
				switch {
				case idx > 0 && idx <= n:
					idx--
				case idx < 0 && -idx <= n:
					idx += n
				default:
					return nil, bad(fmt.Sprintf("vertex index %d out of range (1..%d or -1..-%d so far)", idx, n, n))
				}
				poly = append(poly, int32(idx))
			}
			if len(m.Triangles)+len(poly)-2 > lim.MaxTriangles {
				return nil, fmt.Errorf("obj: line %d: %w (limit %d triangles)", r.line, ErrTooLarge, lim.MaxTriangles)
			}
			for i := 1; i+1 < len(poly); i++ {
				m.Triangles = append(m.Triangles, [3]int32{poly[0], poly[i], poly[i+1]})
			}
		case "vt", "vn", "vp", "o", "g", "s", "usemtl", "mtllib", "p", "l":
		default:
			return nil, bad(fmt.Sprintf("unknown statement %q", f[0]))
		}
	}
	if err := m.finish(); err != nil {
		return nil, fmt.Errorf("obj: %w", err)
	}
	return m, nil
}

// WriteOBJ encodes m as a Wavefront OBJ (vertices with %g, then
// triangular faces), with comment as a leading "#" line.
func WriteOBJ(m *Mesh, comment string) []byte {
	var b bytes.Buffer
	if comment != "" {
		fmt.Fprintf(&b, "# %s\n", comment)
	}
	for _, v := range m.Vertices {
		fmt.Fprintf(&b, "v %s %s %s\n", fmtF(v.X), fmtF(v.Y), fmtF(v.Z))
	}
	for _, t := range m.Triangles {
		fmt.Fprintf(&b, "f %d %d %d\n", t[0]+1, t[1]+1, t[2]+1)
	}
	return b.Bytes()
}

func fmtF(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
