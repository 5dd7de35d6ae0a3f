//go:build linux && cgo

package camera_test

import (
	"bytes"
	"context"
	"errors"
	"image/jpeg"
	"sync"
	"testing"
	"time"

	"github.com/telebridge/telebridge/pkg/camera"
	"github.com/telebridge/telebridge/pkg/camera/node"
)

// The test source runs through Camera like a device: nothing while nobody
// subscribes, frames of the configured format, size and rate with
// strictly increasing stamps one period apart while someone does, live
// control changes, and a clean stop.
func TestCameraPatternSource(t *testing.T) {
	const rate = 100.0
	var mu sync.Mutex
	var frames []camera.Frame
	var firstLuma []byte
	msgs := node.NewMessages(nil)
	cam, err := camera.New(camera.Config{Name: "zoom", Device: "pattern:zoom", Width: 64, Height: 8, FrameRate: rate, PixelFormat: "YUYV"},
		func(f *camera.Frame) {
			msgs.Fill(f)
			mu.Lock()
			g := *f
			g.Data = nil
			frames = append(frames, g)
			firstLuma = append(firstLuma, msgs.Image.Data[0])
			mu.Unlock()
		})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- cam.Run(ctx) }()
	count := func() int { mu.Lock(); defer mu.Unlock(); return len(frames) }
	waitFor := func(what string, ok func() bool) {
		t.Helper()
		deadline := time.Now().Add(5 * time.Second)
		for !ok() {
			if time.Now().After(deadline) {
				t.Fatalf("%s: stats %+v", what, cam.Stats())
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
	waitFor("open", func() bool { _, open := cam.Negotiated(); return open })
	time.Sleep(100 * time.Millisecond)
	if n := count(); n != 0 || cam.Stats().Starts != 0 {
		t.Fatalf("no subscriber: %d frames, stats %+v", n, cam.Stats())
	}
	neg, _ := cam.Negotiated()
	if neg.Encoding != "yuv422_yuy2" || neg.Width != 64 || neg.Height != 8 || neg.Step != 128 || neg.FrameRate != rate {
		t.Errorf("negotiated %+v", neg)
	}

	start := time.Now()
	cam.SetSubscribers(1, 0)
	waitFor("30 frames", func() bool { return count() >= 30 })
	elapsed := time.Since(start)
	if got := float64(30) / elapsed.Seconds(); got > rate*1.2 {
		t.Errorf("rate %.1f fps, want at most %.0f", got, rate)
	}
	cam.SetControl(camera.PatternBrightness, 250)
	waitFor("brighter frames", func() bool { mu.Lock(); defer mu.Unlock(); return firstLuma[len(firstLuma)-1] == 250-64 })
	cam.SetControl("no_such_control", 1)
	waitFor("control error", func() bool { return cam.ControlErr() != nil })
	if err := cam.ControlErr(); !errors.Is(err, camera.ErrNoControl) {
		t.Errorf("ControlErr = %v", err)
	}

	cam.SetSubscribers(0, 0)
	waitFor("stop", func() bool { return cam.Stats().Stops == 1 })
	stopped := count()
	time.Sleep(100 * time.Millisecond)
	if n := count(); n != stopped {
		t.Errorf("%d frames after the last subscriber left", n-stopped)
	}
	mu.Lock()
	period := time.Duration(float64(time.Second) / rate)
	for i := 1; i < len(frames); i++ {
		a, b := frames[i-1], frames[i]
		gap := b.Sequence - a.Sequence
		if d := b.Header.Stamp.Sub(a.Header.Stamp); gap == 0 || d != time.Duration(gap)*period {
			t.Errorf("frame %d: sequence +%d, stamp +%v (period %v)", i, gap, d, period)
		}
		if b.Header.FrameID != "zoom_optical_frame" || b.Encoding != "yuv422_yuy2" || b.Step != 128 {
			t.Errorf("frame %d: %+v", i, b)
		}
	}
	mu.Unlock()
	st := cam.Stats()
	if st.Copies != st.Frames || st.Starts != 1 || st.Frames != uint64(stopped) {
		t.Errorf("stats %+v, %d frames seen", st, stopped)
	}
	camera.StopRun(t, cancel, done)
}

// An MJPG test camera delivers JPEG frames as compressed frames.
func TestPatternSourceMJPEG(t *testing.T) {
	p, err := camera.OpenPattern(camera.Config{Name: "a", Device: "pattern:a", Width: 64, Height: 48, FrameRate: 1000, PixelFormat: "MJPG"})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if err := p.Start(); err != nil {
		t.Fatal(err)
	}
	m := node.NewMessages(nil)
	var compressed bool
	if _, err := p.Next(time.Second, func(f *camera.Frame) { compressed = m.Fill(f) }); err != nil {
		t.Fatal(err)
	}
	if !compressed || m.Compressed.Format != "jpeg" || m.Info.Width != 64 || m.Info.Height != 48 {
		t.Fatalf("compressed %v format %q info %dx%d", compressed, m.Compressed.Format, m.Info.Width, m.Info.Height)
	}
	img, err := jpeg.Decode(bytes.NewReader(m.Compressed.Data))
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() != 64 || b.Dy() != 48 {
		t.Errorf("decoded %v", b)
	}
}
