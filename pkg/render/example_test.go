package render_test

import (
	"errors"
	"fmt"
	"math"

	"github.com/telebridge/telebridge/pkg/camera/wire"
	"github.com/telebridge/telebridge/pkg/geom"
	"github.com/telebridge/telebridge/pkg/render"
)

// A camera 1 m above the ground looking along the world's x axis at a red
// box, its picture read back as YUYV. Callers fall back to a pattern
// camera when the renderer is unavailable.
func Example() {
	r, err := render.New()
	if errors.Is(err, render.ErrUnavailable) {
		fmt.Println("pattern camera:", err) // says what to install
		return
	}
	if err != nil {
		fmt.Println(err)
		return
	}
	defer r.Close()

	ground, _ := r.UploadMesh(render.Plane(20, 20))
	box, _ := r.UploadMesh(render.Box(0.5, 0.5, 0.5))
	_, _ = r.AddBody(ground, [4]float32{0.5, 0.5, 0.5, 1}, geom.Identity())
	crate, _ := r.AddBody(box, [4]float32{0.9, 0.1, 0.1, 1}, geom.Translation(3, 0, 0.25))

	// K of a camera_info, 640x480.
	in := render.FromK([9]float64{525, 0, 319.5, 0, 525, 239.5, 0, 0, 1}, 640, 480)
	cam, err := r.NewCamera(in)
	if err != nil {
		fmt.Println(err)
		return
	}
	frame := make([]byte, 640*480*2)
	link := geom.Translation(0, 0, 1) // x forward, z up
	for step := range 3 {
		// The physics moved the crate; the camera renders where it is now.
		_ = r.SetPose(crate, geom.Transform{Translation: geom.Translation(3, 0.1*float64(step), 0.25).Translation,
			Rotation: geom.FromRPY(0, 0, math.Pi/8*float64(step))})
		if err := cam.Render(render.OpticalFromLink(link), frame, wire.FmtYUYV); err != nil {
			fmt.Println(err)
			return
		}
	}
}
