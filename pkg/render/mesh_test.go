package render

import (
	"errors"
	"math"
	"testing"
)

// TestPrimitives: each builder gives the triangle count it documents,
// unit normals, triangles wound counter-clockwise about their vertices'
// normals, and (closed shapes) the enclosed volume.
func TestPrimitives(t *testing.T) {
	for _, tc := range []struct {
		name      string
		m         *Mesh
		triangles int
		volume    float64 // 0: not closed
		tol       float64 // relative
	}{
		{"box", Box(1, 2, 3), 12, 6, 1e-6},
		{"plane", Plane(4, 2), 2, 0, 0},
		{"cylinder", Cylinder(0.5, 2, 64), 4 * 64, math.Pi * 0.25 * 2, 0.002},
		{"sphere", Sphere(1, 64, 32), 2 * 64 * 31, 4.0 / 3 * math.Pi, 0.01},
		{"cylinder clamps segments", Cylinder(1, 1, 1), 12, 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := tc.m
			if err := m.Validate(); err != nil {
				t.Fatal(err)
			}
			if m.Triangles() != tc.triangles {
				t.Errorf("%d triangles, want %d", m.Triangles(), tc.triangles)
			}
			for i := 0; i < m.Vertices(); i++ {
				n := m.Normals[3*i : 3*i+3]
				if l := math.Sqrt(float64(n[0]*n[0] + n[1]*n[1] + n[2]*n[2])); math.Abs(l-1) > 1e-5 {
					t.Fatalf("normal %d has length %g", i, l)
				}
			}
			var vol float64
			for k := 0; k < len(m.Indices); k += 3 {
				a, b, c := vert(m, m.Indices[k]), vert(m, m.Indices[k+1]), vert(m, m.Indices[k+2])
				g := cross(sub(b, a), sub(c, a))
				n := vnorm(m, m.Indices[k])
				if dot(g, n) <= 0 {
					t.Fatalf("triangle %d is wound clockwise about its normal", k/3)
				}
				vol += dot(a, cross(b, c)) / 6
			}
			if tc.volume > 0 && math.Abs(vol-tc.volume) > tc.tol*tc.volume {
				t.Errorf("volume %g, want %g", vol, tc.volume)
			}
		})
	}
}

func vert(m *Mesh, i uint32) [3]float64 {
	return [3]float64{float64(m.Positions[3*i]), float64(m.Positions[3*i+1]), float64(m.Positions[3*i+2])}
}

func vnorm(m *Mesh, i uint32) [3]float64 {
	return [3]float64{float64(m.Normals[3*i]), float64(m.Normals[3*i+1]), float64(m.Normals[3*i+2])}
}

func sub(a, b [3]float64) [3]float64 { return [3]float64{a[0] - b[0], a[1] - b[1], a[2] - b[2]} }
func dot(a, b [3]float64) float64    { return a[0]*b[0] + a[1]*b[1] + a[2]*b[2] }
func cross(a, b [3]float64) [3]float64 {
	return [3]float64{a[1]*b[2] - a[2]*b[1], a[2]*b[0] - a[0]*b[2], a[0]*b[1] - a[1]*b[0]}
}

// TestMeshValidate: malformed meshes are refused with ErrMesh.
func TestMeshValidate(t *testing.T) {
	nan := float32(math.NaN())
	for _, tc := range []struct {
		name string
		m    Mesh
	}{
		{"empty", Mesh{}},
		{"no indices", Mesh{Positions: []float32{0, 0, 0}, Normals: []float32{0, 0, 1}}},
		{"positions not xyz", Mesh{Positions: []float32{0, 0}, Normals: []float32{0, 0}, Indices: []uint32{0, 0, 0}}},
		{"fewer normals", Mesh{Positions: []float32{0, 0, 0}, Normals: []float32{0, 0}, Indices: []uint32{0, 0, 0}}},
		{"partial triangle", Mesh{Positions: []float32{0, 0, 0}, Normals: []float32{0, 0, 1}, Indices: []uint32{0, 0}}},
		{"index out of range", Mesh{Positions: []float32{0, 0, 0}, Normals: []float32{0, 0, 1}, Indices: []uint32{0, 0, 1}}},
		{"NaN position", Mesh{Positions: []float32{nan, 0, 0}, Normals: []float32{0, 0, 1}, Indices: []uint32{0, 0, 0}}},
		{"Inf normal", Mesh{Positions: []float32{0, 0, 0}, Normals: []float32{0, 0, float32(math.Inf(1))}, Indices: []uint32{0, 0, 0}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := tc.m.Validate(); !errors.Is(err, ErrMesh) {
				t.Errorf("Validate: %v, want ErrMesh", err)
			}
		})
	}
}

// FuzzMeshValidate: any arrays give nil or ErrMesh, never a panic; a mesh
// that passes has every index inside its vertices.
func FuzzMeshValidate(f *testing.F) {
	f.Add([]byte{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, []byte{0, 0, 0})
	f.Add([]byte{1, 2, 3, 4, 5, 6}, []byte{0, 1, 2, 7})
	f.Fuzz(func(t *testing.T, pos, idx []byte) {
		m := Mesh{}
		for _, b := range pos {
			m.Positions = append(m.Positions, float32(int8(b))/7)
			m.Normals = append(m.Normals, float32(b%3))
		}
		for _, b := range idx {
			m.Indices = append(m.Indices, uint32(b)%17)
		}
		err := m.Validate()
		if err != nil && !errors.Is(err, ErrMesh) {
			t.Fatalf("error %v does not wrap ErrMesh", err)
		}
		if err == nil {
			for _, i := range m.Indices {
				if int(i) >= m.Vertices() {
					t.Fatalf("valid mesh with index %d of %d vertices", i, m.Vertices())
				}
			}
		}
	})
}
