package main

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/telebridge/telebridge/pkg/mesh"
)

// TestCommittedFilesAreGenerated fails when a mesh under worlds/ differs
// from what this generator writes (run `go run ./internal/tools/meshgen`).
func TestCommittedFilesAreGenerated(t *testing.T) {
	for _, f := range files() {
		got, err := os.ReadFile(filepath.Join("..", "..", "..", "worlds", filepath.FromSlash(f.path)))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, f.data) {
			t.Errorf("worlds/%s differs from the generator's output; run go run ./internal/tools/meshgen", f.path)
		}
	}
}

// TestSolidsAreClosed checks the volumes: a closed mesh wound outwards has
// the solid's volume.
func TestSolidsAreClosed(t *testing.T) {
	// The cone is a prism of 24-gon frusta: V = h/3 (A1 + A2 + sqrt(A1 A2)).
	poly := func(r float64) float64 { return 0.5 * coneSegments * r * r * math.Sin(2*math.Pi/coneSegments) }
	a1, a2 := poly(coneBase), poly(coneTop)
	for _, c := range []struct {
		name string
		m    *mesh.Mesh
		want float64
	}{
		{"cone", cone(), coneHeight / 3 * (a1 + a2 + math.Sqrt(a1*a2))},
		{"wedge", wedge(), rampLength * rampWidth * rampHeight / 2},
	} {
		if v := c.m.Volume(); math.Abs(v-c.want) > 1e-9 {
			t.Errorf("%s volume %g m^3, want %g", c.name, v, c.want)
		}
	}
}
