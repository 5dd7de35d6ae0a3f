//go:build linux

package render

import (
	"testing"

	"github.com/telebridge/telebridge/pkg/geom"
)

// BenchmarkReadback: where an RGBA frame of the test scene goes:
// finish-ms/op is glFinish (drawing done by llvmpipe), read-ms/op the
// glReadPixels of the 640x480 picture after it. The read is what a
// pixel-buffer-object double buffer could overlap with the next frame.
//
//	go test -run '^$' -bench BenchmarkReadback ./pkg/render/
func BenchmarkReadback(b *testing.B) {
	r := newRenderer(b)
	balls := testScene(b, r)
	in, pose := sceneCamera()
	cam, err := r.NewCamera(in)
	if err != nil {
		b.Fatal(err)
	}
	buf := make([]byte, 4*in.Width*in.Height)
	var split frameSplit
	if err := r.do(func(d *device) error { d.split = &split; return nil }); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		_ = r.SetPose(balls[0], geom.Translation(2.2, 0.001*float64(i%500), 0.25))
		if err := cam.Render(pose, buf, FmtRGBA); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	var s frameSplit
	if err := r.do(func(d *device) error { s = *d.split; d.split = nil; return nil }); err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(s.finish.Seconds()*1e3/float64(s.frames), "finish-ms/op")
	b.ReportMetric(s.readNs.Seconds()*1e3/float64(s.frames), "read-ms/op")
}
