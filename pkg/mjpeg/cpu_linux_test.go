//go:build linux && cgo

package mjpeg

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/telebridge/telebridge/pkg/camera"
)

// TestCPUCost measures (reports, asserts nothing about time) the process
// CPU, against a baseline with no camera, of four pattern cameras (640x480 YUYV, 30 Hz) wired to streams, for
// MJPEG_CPU seconds per case (e.g. MJPEG_CPU=10s):
//   - nobody watches: the cameras do not even stream;
//   - the cameras stream for someone else (a ROS subscriber), nobody
//     watches the MJPEG: Feed only counts;
//   - one viewer on one camera at the default rate and quality.
//
// Skipped unless MJPEG_CPU is set: it takes 4 x that long.
func TestCPUCost(t *testing.T) {
	d, err := time.ParseDuration(os.Getenv("MJPEG_CPU"))
	if err != nil || d <= 0 {
		t.Skip("set MJPEG_CPU=10s to measure the CPU cost of cameras with and without viewers")
	}
	for _, tc := range []struct {
		name    string
		cameras int
		others  int // subscribers other than the stream's viewers
		viewers int // MJPEG viewers of camera 0
	}{
		{"baseline: no camera", 0, 0, 0},
		{"4 cameras, nobody watches", 4, 0, 0},
		{"4 cameras streaming for others, no MJPEG viewer", 4, 1, 0},
		{"4 cameras, 1 MJPEG viewer on one", 4, 0, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			var wg sync.WaitGroup
			defer func() { cancel(); wg.Wait() }()
			var streams []*Stream
			var cams []*camera.Camera
			for _, name := range []string{"front_left", "front_right", "rear", "zoom"}[:tc.cameras] {
				s, err := NewStream(name, Config{})
				if err != nil {
					t.Fatal(err)
				}
				defer s.Close()
				cam, err := camera.New(camera.Config{Name: name, Device: "pattern:" + name}, s.Feed)
				if err != nil {
					t.Fatal(err)
				}
				others := tc.others
				s.OnViewers(func(n int) { cam.SetSubscribers(n+others, 0) })
				wg.Add(1)
				go func() { defer wg.Done(); _ = cam.Run(ctx) }()
				streams, cams = append(streams, s), append(cams, cam)
			}
			if tc.viewers > 0 {
				srv := httptest.NewServer(streams[0])
				defer srv.Close()
				req, _ := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL, nil)
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				defer resp.Body.Close()
				r := newPartReader(resp.Body)
				if _, err := r.next(); err != nil { // streaming before measuring
					t.Fatal(err)
				}
				wg.Add(1)
				go func() {
					defer wg.Done()
					for {
						if _, err := r.next(); err != nil {
							return
						}
					}
				}()
			}
			// Opening a pattern camera draws its buffers (a one-off cost, as
			// a device's open is): measure after every camera is open.
			for _, c := range cams {
				waitFor(t, "camera open", func() bool { _, open := c.Negotiated(); return open })
				if tc.others > 0 {
					waitFor(t, "camera streaming", func() bool { return c.Stats().Frames > 0 })
				}
			}
			var in0 Stats
			if len(streams) > 0 {
				in0 = streams[0].Stats()
			}
			cpu0, ok := cpuTime()
			if !ok {
				t.Skip("getrusage failed")
			}
			wall0 := time.Now()
			time.Sleep(d) // the measurement window, not synchronisation
			cpu1, _ := cpuTime()
			wall := time.Since(wall0)
			var st Stats
			if len(streams) > 0 {
				st = streams[0].Stats()
			}
			var frames uint64
			for _, c := range cams {
				frames += c.Stats().Frames
			}
			t.Logf("%s: CPU %v in %v = %.2f%% of one core; camera frames %d; stream 0: %d frames in, %d encoded (%.1f Hz, %.0f B/s, mean encode %v)",
				tc.name, (cpu1 - cpu0).Round(time.Millisecond), wall.Round(time.Millisecond),
				100*(cpu1-cpu0).Seconds()/wall.Seconds(), frames, st.FramesIn-in0.FramesIn, st.Encoded-in0.Encoded,
				st.FPS, st.BytesPerSec, st.MeanEncode.Round(10*time.Microsecond))
			if tc.others == 0 && tc.viewers == 0 && frames != 0 {
				t.Errorf("%d frames captured with nobody watching: the cameras streamed", frames)
			}
		})
	}
}
