package render

import (
	"syscall"
	"testing"
	"time"

	"github.com/telebridge/telebridge/pkg/camera/wire"
	"github.com/telebridge/telebridge/pkg/geom"
)

// cpuTime returns the process's user + system CPU time so far: the
// benchmark goroutine, the GL goroutine and llvmpipe's rasteriser threads.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkRender: one 640x480 frame of the ~2 000-triangle test scene
// with read-back, a ball moved before each frame; cpu-ms/op is the CPU of
// the whole process per frame (llvmpipe rasterises on several threads).
//
//	go test -run '^$' -bench BenchmarkRender -benchmem ./pkg/render/
//
// YUYV converts on the CPU on a software rasteriser; YUYV-gpu-pack forces
// the GPU packing pass that hardware uses, for comparison.
func BenchmarkRender(b *testing.B) {
	for _, tc := range []struct {
		name string
		f    wire.FourCC
		gpu  bool
	}{{"RGBA", FmtRGBA, false}, {"YUYV", wire.FmtYUYV, false}, {"YUYV-gpu-pack", wire.FmtYUYV, true}} {
		f := tc.f
		b.Run(tc.name, func(b *testing.B) {
			r := newRenderer(b)
			if tc.gpu {
				r.packOnGPU = true
			}
			balls := testScene(b, r)
			in, pose := sceneCamera()
			cam, err := r.NewCamera(in)
			if err != nil {
				b.Fatal(err)
			}
			n, _ := cam.FrameSize(f)
			buf := make([]byte, n)
			if err := cam.Render(pose, buf, f); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			b.SetBytes(int64(n))
			b.ResetTimer()
			cpu0 := cpuTime(b)
			for i := 0; b.Loop(); i++ {
				_ = r.SetPose(balls[0], geom.Translation(2.2, 0.001*float64(i%500), 0.25))
				if err := cam.Render(pose, buf, f); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(cpuTime(b)-cpu0)/1e6/float64(b.N), "cpu-ms/op")
			b.ReportMetric(float64(r.Triangles()), "triangles")
		})
	}
}

// BenchmarkFourCameras15fps: one op is a frame of each of four 640x480
// YUYV cameras (the Servosila's zoom, stereo pair and rear camera) of the
// test scene; core-% is the CPU those frames cost at 15 frames a second
// each, in percent of one core.
//
//	go test -run '^$' -bench BenchmarkFourCameras -benchmem ./pkg/render/
func BenchmarkFourCameras15fps(b *testing.B) {
	r := newRenderer(b)
	testScene(b, r)
	in, pose := sceneCamera()
	var cams [4]*Camera
	for i := range cams {
		c, err := r.NewCamera(in)
		if err != nil {
			b.Fatal(err)
		}
		cams[i] = c
	}
	poses := [4]geom.Transform{pose, pose.Mul(geom.Translation(0.1, 0, 0)), pose.Mul(geom.Translation(-0.1, 0, 0)), pose.Mul(geom.Translation(0, 0, -0.5))}
	buf := make([]byte, 2*in.Width*in.Height)
	for i, c := range cams { // first frames allocate each camera's RGBA picture
		if err := c.Render(poses[i], buf, wire.FmtYUYV); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := cpuTime(b)
	for b.Loop() {
		for i, c := range cams {
			if err := c.Render(poses[i], buf, wire.FmtYUYV); err != nil {
				b.Fatal(err)
			}
		}
	}
	cpu := float64(cpuTime(b)-cpu0) / float64(b.N) // [ns] per set of four frames
	b.ReportMetric(cpu/1e6, "cpu-ms/op")
	b.ReportMetric(cpu*15/1e9*100, "core-%")
}

// BenchmarkConvertYUYV: the RGBA -> YUYV conversion of a 640x480 frame
// alone (part of BenchmarkRender/YUYV).
func BenchmarkConvertYUYV(b *testing.B) {
	src := make([]byte, 4*640*480)
	for i := range src {
		src[i] = byte(i * 7)
	}
	dst := make([]byte, 2*640*480)
	b.ReportAllocs()
	b.SetBytes(int64(len(dst)))
	cpu0 := cpuTime(b)
	for b.Loop() {
		convert(dst, src, wire.FmtYUYV, 640, 480)
	}
	b.ReportMetric(float64(cpuTime(b)-cpu0)/1e6/float64(b.N), "cpu-ms/op")
}

// BenchmarkIdle: a renderer with the test scene and four cameras that
// nobody asks for pictures; one op is 100 ms of doing nothing, and
// cpu-us/s is what the process spent meanwhile (GL goroutine, llvmpipe's
// threads, the Go runtime).
//
//	go test -run '^$' -bench BenchmarkIdle -benchtime 20x ./pkg/render/
func BenchmarkIdle(b *testing.B) {
	r := newRenderer(b)
	testScene(b, r)
	in, pose := sceneCamera()
	buf := make([]byte, 4*in.Width*in.Height)
	for range 4 {
		c, err := r.NewCamera(in)
		if err != nil {
			b.Fatal(err)
		}
		if err := c.Render(pose, buf, FmtRGBA); err != nil { // llvmpipe's threads started
			b.Fatal(err)
		}
	}
	b.ResetTimer()
	cpu0, t0 := cpuTime(b), time.Now()
	for b.Loop() {
		time.Sleep(100 * time.Millisecond)
	}
	b.ReportMetric(float64(cpuTime(b)-cpu0)/1e3/time.Since(t0).Seconds(), "cpu-us/s")
}
