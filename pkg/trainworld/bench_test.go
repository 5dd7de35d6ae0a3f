package trainworld_test

import (
	"context"
	"math"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/telebridge/telebridge/pkg/camera/wire"
	"github.com/telebridge/telebridge/pkg/render"
	"github.com/telebridge/telebridge/pkg/trainworld"
)

// BenchmarkStep is one 1 ms physics step of the course with the robot
// driving, with the mirror into the ray-casting scene.
func BenchmarkStep(b *testing.B) {
	w := course(b, trainworld.Config{})
	p := &trainworld.Plant{W: w}
	must(b, p.Drive(0.3, 0.3, new([6]float64)))
	must(b, w.Step(100))
	b.ReportAllocs()
	b.ResetTimer()
	c0 := cpu()
	for range b.N {
		if err := w.Step(1); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(cpu()-c0)/1e3/float64(b.N), "cpu-us/step")
}

// BenchmarkRenderFront is one 640x480 YUYV picture of the front camera
// in the course (what a watched console camera costs per frame).
func BenchmarkRenderFront(b *testing.B) {
	w := course(b, trainworld.Config{})
	r, err := render.New()
	if err != nil {
		b.Skip(err)
	}
	defer r.Close()
	must(b, w.AttachRenderer(r))
	cam, err := w.NewCamera("front_left_camera_link", render.FromFOV(640, 480, math.Pi/2))
	must(b, err)
	defer cam.Close()
	buf := make([]byte, 640*480*2)
	b.ReportAllocs()
	b.ResetTimer()
	c0 := cpu()
	for range b.N {
		if err := cam.Render(buf, wire.FmtYUYV); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(cpu()-c0)/1e6/float64(b.N), "cpu-ms/frame")
}

// BenchmarkRealTime runs the world loop in real time for 5 s with the
// robot driving, without a camera and with the four console cameras
// rendered at 15 fps 640x480 YUYV, and reports the real-time factor
// (rtf), the loop's busy share of a core (loop-%) and the process's CPU
// over the run (cpu-%: user + system, of one core). Run it alone:
// go test -run XXX -bench RealTime -benchtime 1x ./pkg/trainworld/
func BenchmarkRealTime(b *testing.B) {
	for _, cams := range []int{0, 1, 4} {
		b.Run(map[int]string{0: "no-camera", 1: "one-camera-15fps", 4: "four-cameras-15fps"}[cams], func(b *testing.B) {
			for range b.N {
				realTime(b, cams)
			}
		})
	}
}

func cpu() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func realTime(b *testing.B, cams int) {
	w := course(b, trainworld.Config{})
	p := &trainworld.Plant{W: w}
	must(b, p.Drive(0.3, 0.25, new([6]float64)))
	var cs []*trainworld.Camera
	if cams > 0 {
		r, err := render.New()
		if err != nil {
			b.Skip(err)
		}
		defer r.Close()
		must(b, w.AttachRenderer(r))
		links := []string{"front_left_camera_link", "rear_camera_link", "zoom_camera_link", "front_right_camera_link"}
		for _, l := range links[:cams] {
			c, err := w.NewCamera(l, render.FromFOV(640, 480, math.Pi/2))
			must(b, err)
			defer c.Close()
			cs = append(cs, c)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	var wg sync.WaitGroup
	for _, c := range cs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			buf := make([]byte, 640*480*2)
			t := time.NewTicker(time.Second / 15)
			defer t.Stop()
			for {
				select {
				case <-ctx.Done():
					return
				case <-t.C:
					if err := c.Render(buf, wire.FmtYUYV); err != nil {
						b.Error(err)
						return
					}
				}
			}
		}()
	}
	c0, t0 := cpu(), time.Now()
	must(b, w.Run(ctx))
	wg.Wait()
	c1, t1 := cpu(), time.Now()
	s := w.Stats()
	b.ReportMetric(s.RTF, "rtf")
	b.ReportMetric(100*s.Busy, "loop-%")
	b.ReportMetric(100*float64(c1-c0)/float64(t1.Sub(t0)), "cpu-%")
	b.ReportMetric(s.Dropped, "dropped-s")
	b.ReportMetric(s.StepCPU*1e6, "us/step")
}
