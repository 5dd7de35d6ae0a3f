// Command meshgen writes the meshes of the shipped worlds (worlds/): a
// traffic cone as binary STL and a loading ramp wedge as Wavefront OBJ. The
// files are generated, not downloaded, so every vertex is accounted for;
// the package test checks the committed files are what this writes.
//
//	go run ./internal/tools/meshgen [-root worlds]
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/telebridge/telebridge/pkg/mesh"
	"gonum.org/v1/gonum/spatial/r3"
)

// file is one generated mesh file.
type file struct {
	path string // slash path under the worlds root
	data []byte
}

// Cone dimensions [m]: a truncated cone standing on its base at z = 0.
const (
	coneHeight   = 0.50
	coneBase     = 0.15 // base radius
	coneTop      = 0.025
	coneSegments = 24
)

// Ramp dimensions [m]: a wedge rising along +X from z = 0 at x = 0 to
// rampHeight at x = rampLength, centred on y = 0.
const (
	rampLength = 4.0
	rampWidth  = 2.4
	rampHeight = 0.8
)

// cone returns a closed truncated cone, wound outwards.
func cone() *mesh.Mesh { return mesh.Frustum(coneBase, coneTop, coneHeight, coneSegments) }

// wedge returns the closed loading ramp, wound outwards.
func wedge() *mesh.Mesh {
	w := rampWidth / 2
	return &mesh.Mesh{
		Vertices: []r3.Vec{
			{X: 0, Y: -w}, {X: rampLength, Y: -w}, {X: rampLength, Y: w}, {X: 0, Y: w}, // ground
			{X: rampLength, Y: -w, Z: rampHeight}, {X: rampLength, Y: w, Z: rampHeight}, // top edge
		},
		Triangles: [][3]int32{
			{0, 2, 1}, {0, 3, 2}, // bottom, facing -Z
			{0, 4, 5}, {0, 5, 3}, // slope
			{1, 2, 5}, {1, 5, 4}, // back, facing +X
			{0, 1, 4}, // side y = -w
			{3, 5, 2}, // side y = +w
		},
	}
}

// files returns every generated file.
func files() []file {
	return []file{
		{"models/traffic_cone/meshes/cone.stl", mesh.WriteBinarySTL(cone(), "telebridge traffic cone, internal/tools/meshgen")},
		{"meshes/loading_ramp.obj", mesh.WriteOBJ(wedge(), "telebridge loading ramp, internal/tools/meshgen")},
	}
}

func main() {
	root := flag.String("root", "worlds", "folder of the shipped worlds")
	flag.Parse()
	for _, f := range files() {
		p := filepath.Join(*root, filepath.FromSlash(f.path))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			fmt.Fprintln(os.Stderr, "meshgen:", err)
			os.Exit(1)
		}
		if err := os.WriteFile(p, f.data, 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "meshgen:", err)
			os.Exit(1)
		}
		fmt.Println("wrote", p)
	}
}
