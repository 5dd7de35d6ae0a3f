package render

import (
	"math"
	"testing"

	"github.com/telebridge/telebridge/pkg/geom"
)

// testScene fills r with a small training yard of about 2 000 triangles
// (the benchmark's scene and the picture in docs/render.md): a ground
// plane, a staircase, a ramp, a wall, loose boxes, barrels and balls. It
// returns the bodies that move in the benchmarks (the balls).
func testScene(t testing.TB, r *Renderer) []BodyID {
	t.Helper()
	grey := [4]float32{0.55, 0.57, 0.52, 1}
	addBody(t, r, Plane(40, 40), grey, geom.Identity())
	concrete := [4]float32{0.72, 0.70, 0.66, 1}
	for i := range 5 { // staircase: 17 cm risers, 30 cm treads
		h := 0.17 * float64(i+1)
		addBody(t, r, Box(0.3, 1.2, h), concrete, geom.Translation(6+0.3*float64(i), 2.2, h/2))
	}
	ramp := geom.Transform{Translation: geom.Translation(5.5, -2.4, 0.4).Translation,
		Rotation: geom.FromRPY(0, -25*math.Pi/180, 0)}
	addBody(t, r, Box(2.0, 1.2, 0.1), [4]float32{0.45, 0.36, 0.25, 1}, ramp)
	addBody(t, r, Box(0.2, 8, 1.5), [4]float32{0.8, 0.78, 0.72, 1}, geom.Translation(9.5, 0, 0.75))
	colours := [][4]float32{{0.85, 0.2, 0.15, 1}, {0.95, 0.7, 0.1, 1}, {0.2, 0.5, 0.85, 1}, {0.3, 0.65, 0.3, 1}}
	for i := range 31 { // loose boxes on a grid
		x := 2.5 + 0.6*float64(i%8)
		y := -1.2 + 0.8*float64(i/8)
		s := 0.2 + 0.05*float64(i%3)
		yaw := 0.3 * float64(i)
		addBody(t, r, Box(s, s, s), colours[i%len(colours)],
			geom.Transform{Translation: geom.Translation(x+3, y, s/2).Translation, Rotation: geom.FromRPY(0, 0, yaw)})
	}
	for i := range 2 { // barrels
		addBody(t, r, Cylinder(0.3, 0.9, 16), [4]float32{0.1, 0.35, 0.6, 1}, geom.Translation(3.5, 1.5+0.8*float64(i), 0.45))
	}
	var balls []BodyID
	for i := range 4 {
		balls = append(balls, addBody(t, r, Sphere(0.25, 20, 10), colours[(i+1)%len(colours)],
			geom.Translation(2.2+0.7*float64(i), -0.6+0.4*float64(i), 0.25)))
	}
	return balls
}

// sceneCamera is the test scene's camera: 640x480, 90 degrees across,
// 1 m above the ground, looking along the world's x axis, tilted down 10
// degrees.
func sceneCamera() (Intrinsics, geom.Transform) {
	link := geom.Transform{Translation: geom.Translation(0, 0, 1).Translation, Rotation: geom.FromRPY(0, 10*math.Pi/180, 0)}
	return FromFOV(640, 480, math.Pi/2), OpticalFromLink(link)
}
