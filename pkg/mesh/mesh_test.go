package mesh

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/spatial/r3"
)

// cubeOBJ is a unit cube [0,1]^3 of six quads, counter-clockwise from
// outside, with the last face written with negative indices and v/vt/vn.
const cubeOBJ = `# unit cube
o cube
v 0 0 0
v 1 0 0
v 1 1 0
v 0 1 0
v 0 0 1
v 1 0 1
v 1 1 1
v 0 1 1
vt 0 0
vn 0 0 1
f 1 4 3 2
f 5 6 7 8
f 1 2 6 5
f 2/1 3/1 7/1 6/1
f 3//1 4//1 8//1 7//1
f -8/1/1 -4/1/1 -1/1/1 -5/1/1
`

const triSTL = `solid tri
  facet normal 0 0 1
    outer loop
      vertex 0 0 0
      vertex 2 0 0
      vertex 0 3 0.5
    endloop
  endfacet
endsolid tri
`

func TestReadOBJCube(t *testing.T) {
	m, err := ReadOBJ([]byte(cubeOBJ), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Vertices) != 8 || len(m.Triangles) != 12 {
		t.Fatalf("%d vertices, %d triangles; want 8, 12", len(m.Vertices), len(m.Triangles))
	}
	if m.Min != (r3.Vec{}) || m.Max != (r3.Vec{X: 1, Y: 1, Z: 1}) {
		t.Errorf("bounds %v %v", m.Min, m.Max)
	}
	if v := m.Volume(); math.Abs(v-1) > 1e-12 {
		t.Errorf("volume %g, want 1 (closed and wound outwards)", v)
	}
	if a := m.Area(); math.Abs(a-6) > 1e-12 {
		t.Errorf("area %g, want 6", a)
	}
}

func TestSTLRoundTrip(t *testing.T) {
	cube, err := ReadOBJ([]byte(cubeOBJ), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	s := cube.Scaled(r3.Vec{X: 2, Y: 0.5, Z: 3})
	bin := WriteBinarySTL(s, "test cube")
	if len(bin) != 84+50*12 {
		t.Fatalf("binary STL of %d bytes", len(bin))
	}
	back, err := ReadSTL(bin, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if len(back.Vertices) != 8 || len(back.Triangles) != 12 {
		t.Fatalf("read back %d vertices, %d triangles; want 8 merged, 12", len(back.Vertices), len(back.Triangles))
	}
	if math.Abs(back.Volume()-3) > 1e-6 || back.Max != (r3.Vec{X: 2, Y: 0.5, Z: 3}) {
		t.Errorf("volume %g bounds %v, want 3 and (2,0.5,3)", back.Volume(), back.Max)
	}
	// A binary file whose header starts with "solid" is still binary.
	copy(bin, "solid but binary")
	if _, err := ReadSTL(bin, Limits{}); err != nil {
		t.Errorf("binary STL with a \"solid\" header: %v", err)
	}
	// The normal written is the winding's: +z for the cube's top face.
	o, err := ReadOBJ(WriteOBJ(s, "c"), Limits{})
	if err != nil || len(o.Triangles) != 12 || math.Abs(o.Volume()-3) > 1e-12 {
		t.Errorf("OBJ round trip: %v, volume %g", err, o.Volume())
	}
}

func TestReadASCIISTL(t *testing.T) {
	m, err := ReadSTL([]byte(triSTL), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Triangles) != 1 || m.Max != (r3.Vec{X: 2, Y: 3, Z: 0.5}) {
		t.Errorf("got %+v", m)
	}
	// Cross product of (2,0,0) and (0,3,0.5) is (0,-1,6): area sqrt(37)/2.
	if a := m.Area(); math.Abs(a-math.Sqrt(37)/2) > 1e-12 {
		t.Errorf("area %g, want %g", a, math.Sqrt(37)/2)
	}
}

func TestMirrorKeepsOutside(t *testing.T) {
	cube, _ := ReadOBJ([]byte(cubeOBJ), Limits{})
	if v := cube.Scaled(r3.Vec{X: -1, Y: 1, Z: 1}).Volume(); math.Abs(v-1) > 1e-12 {
		t.Errorf("mirrored cube volume %g, want +1 (winding reversed)", v)
	}
}

func TestMalformed(t *testing.T) {
	huge := make([]byte, 84)
	binary.LittleEndian.PutUint32(huge[80:], 1<<30)
	nan := WriteBinarySTL(&Mesh{Vertices: []r3.Vec{{}, {X: math.NaN()}, {Y: 1}}, Triangles: [][3]int32{{0, 1, 2}}}, "x")
	for _, c := range []struct {
		name, file string
		data       string
		lim        Limits
		want       error
		msg        string
	}{
		{"obj index zero", "a.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 0 1 2\n", Limits{}, ErrFormat, "line 4"},
		{"obj index past end", "a.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 4\n", Limits{}, ErrFormat, "out of range"},
		{"obj negative past start", "a.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf -1 -2 -4\n", Limits{}, ErrFormat, "out of range"},
		{"obj two corners", "a.obj", "v 0 0 0\nv 1 0 0\nf 1 2\n", Limits{}, ErrFormat, "at least 3"},
		{"obj bad number", "a.obj", "v 0 x 0\n", Limits{}, ErrFormat, "line 1"},
		{"obj nan", "a.obj", "v 0 NaN 0\n", Limits{}, ErrFormat, "finite"},
		{"obj w zero", "a.obj", "v 0 1 0 0\n", Limits{}, ErrFormat, "weight"},
		{"obj freeform", "a.obj", "curv 0 1 1 2\n", Limits{}, ErrFormat, "unknown statement"},
		{"obj too many vertices", "a.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\n", Limits{MaxVertices: 2}, ErrTooLarge, "line 3"},
		{"obj too many triangles", "a.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 1 0\nf 1 2 3 4\n", Limits{MaxTriangles: 1}, ErrTooLarge, "line 5"},
		{"obj too many bytes", "a.obj", cubeOBJ, Limits{MaxBytes: 10}, ErrTooLarge, "limit 10"},
		{"stl short", "a.stl", "abc", Limits{}, ErrFormat, "shorter"},
		{"stl truncated binary", "a.stl", string(huge), Limits{}, ErrFormat, "announces 1073741824"},
		{"stl binary nan", "a.stl", string(nan), Limits{}, ErrFormat, "not finite"},
		{"stl binary too many", "a.stl", string(WriteBinarySTL(&Mesh{Vertices: []r3.Vec{{}, {X: 1}, {Y: 1}}, Triangles: [][3]int32{{0, 1, 2}, {0, 2, 1}}}, "x")), Limits{MaxTriangles: 1}, ErrTooLarge, "2 triangles"},
		{"stl ascii four vertices", "a.stl", strings.Replace(triSTL, "endloop", "vertex 1 1 1\nendloop", 1), Limits{}, ErrFormat, "more than 3"},
		{"stl ascii vertex outside", "a.stl", "solid x\nvertex 0 0 0\n", Limits{}, ErrFormat, "line 2"},
		{"stl ascii unterminated", "a.stl", "solid x\nfacet normal 0 0 1\nouter loop\n", Limits{}, ErrFormat, "ends inside"},
		{"stl ascii bad number", "a.stl", strings.Replace(triSTL, "0.5", "0.5e", 1), Limits{}, ErrFormat, "line 6"},
		{"dae", "a.dae", "<COLLADA/>", Limits{}, ErrUnsupported, "a.dae"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Decode(c.file, []byte(c.data), c.lim)
			if !errors.Is(err, c.want) || !strings.Contains(err.Error(), c.msg) {
				t.Errorf("error %v, want %v containing %q", err, c.want, c.msg)
			}
		})
	}
}

func fuzzCheck(t *testing.T, m *Mesh, err error) {
	if err != nil {
		return
	}
	for _, tri := range m.Triangles {
		for _, i := range tri {
			if i < 0 || int(i) >= len(m.Vertices) {
				t.Fatalf("triangle index %d of %d vertices", i, len(m.Vertices))
			}
			if !finite(m.Vertices[i]) {
				t.Fatalf("non-finite vertex %v", m.Vertices[i])
			}
		}
	}
}

func FuzzReadSTL(f *testing.F) {
	cube, _ := ReadOBJ([]byte(cubeOBJ), Limits{})
	f.Add(WriteBinarySTL(cube, "cube"))
	f.Add([]byte(triSTL))
	f.Add([]byte("solid\nendsolid\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := ReadSTL(data, Limits{MaxTriangles: 1 << 16})
		fuzzCheck(t, m, err)
	})
}

func FuzzReadOBJ(f *testing.F) {
	f.Add([]byte(cubeOBJ))
	f.Add([]byte("v 1 2 3\nv 4 5 6 1\nv 0 0 0\nf -1 -2 -3\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := ReadOBJ(data, Limits{MaxTriangles: 1 << 16, MaxVertices: 1 << 16})
		fuzzCheck(t, m, err)
	})
}

func ExampleReadOBJ() {
	m, err := ReadOBJ([]byte("v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nf 1 2 3 4\n"), Limits{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(len(m.Triangles), "triangles, top corner", m.Max) // a quad becomes two triangles
	// Output: 2 triangles, top corner {1 1 0}
}
