//go:build vivid && linux && cgo

package camera_test

import (
	"context"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/telebridge/telebridge/pkg/camera"
	"github.com/telebridge/telebridge/pkg/camera/node"
)

// TestVividFourCameras runs the robot's four cameras (formats as in
// params/camera_publisher.yaml) in one process, one Camera goroutine each,
// against four vivid instances (/dev/video0..3; camera.sh boots the guest
// with n_devs=4 for this test).
func TestVividFourCameras(t *testing.T) {
	cfgs := []camera.Config{
		{Name: "front_left", Device: "/dev/video0", PixelFormat: "GRBG"},
		{Name: "front_right", Device: "/dev/video1", PixelFormat: "GRBG"},
		{Name: "rear", Device: "/dev/video2", PixelFormat: "GRBG"},
		{Name: "zoom", Device: "/dev/video3", PixelFormat: "YUYV"},
	}
	for _, c := range cfgs {
		if _, err := os.Stat(c.Device); err != nil {
			t.Fatalf("%s: %v (boot vivid with n_devs=4)", c.Device, err)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	cams := make([]*camera.Camera, len(cfgs))
	for i, c := range cfgs {
		msgs := node.NewMessages(nil) // what the node does per camera
		cam, err := camera.New(c, func(f *camera.Frame) { msgs.Fill(f) })
		if err != nil {
			t.Fatal(err)
		}
		cams[i] = cam
		wg.Add(1)
		go func() { defer wg.Done(); _ = cam.Run(ctx) }()
	}
	for _, cam := range cams {
		camera.WaitFor(t, "open", func() bool { _, open := cam.Negotiated(); return open })
	}
	cpu0, wall0 := camera.CPUTime(t), time.Now()
	for _, cam := range cams {
		cam.SetSubscribers(1, 1)
	}
	for _, cam := range cams {
		camera.WaitFor(t, cam.Config().Name+" 50 frames", func() bool { return cam.Stats().Frames >= 50 })
	}
	cpu, wall := camera.CPUTime(t)-cpu0, time.Since(wall0)
	for _, cam := range cams {
		cam.SetSubscribers(0, 0)
	}
	for _, cam := range cams {
		camera.WaitFor(t, "stop", func() bool { return cam.Stats().Stops == 1 })
	}
	cancel()
	wg.Wait()
	var total uint64
	for _, cam := range cams {
		st := cam.Stats()
		neg, _ := cam.Negotiated()
		total += st.Frames
		t.Logf("%s: %s %dx%d %.0f fps: frames %d dropped %d corrupted %d copies %d",
			cam.Config().Name, neg.Encoding, neg.Width, neg.Height, neg.FrameRate, st.Frames, st.Dropped, st.Corrupted, st.Copies)
		if st.Corrupted != 0 || st.Copies != st.Frames || st.Starts != 1 {
			t.Errorf("%s: %+v", cam.Config().Name, st)
		}
	}
	t.Logf("four streams: %d frames in %v (%.1f fps aggregate), %.2f%% of one core",
		total, wall.Round(time.Millisecond), float64(total)/wall.Seconds(), 100*cpu.Seconds()/wall.Seconds())
}
