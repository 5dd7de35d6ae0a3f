package video

import (
	"os"
	"sync"
	"testing"
	"time"
)

// TestViewerFigures measures what more viewers cost (set VIDEO_FIGURES=1):
// one Stream with x264 fed 300 YUYV frames of the moving pattern at 30 Hz
// (640x480, 1 Mbit/s), watched by 1 and then by 10 viewers that drain
// their channels, alternating twice; CPU time of the process (getrusage).
func TestViewerFigures(t *testing.T) {
	requireX264(t)
	if os.Getenv("VIDEO_FIGURES") == "" {
		t.Skip("figures run: set VIDEO_FIGURES=1 (about 40 s)")
	}
	const n = 300
	m := newMovingPattern(640, 480)
	var pic I420
	frames := make([]*Frame, 60) // two seconds of YUYV, cycled
	for k := range frames {
		m.frame(&pic, k)
		f := &Frame{Encoding: "yuv422_yuy2", Width: 640, Height: 480, Step: 1280, Data: make([]byte, 1280*480)}
		for y := 0; y < 480; y++ {
			for x := 0; x < 640; x += 2 {
				o := y*1280 + 2*x
				f.Data[o], f.Data[o+2] = pic.Y[y*640+x], pic.Y[y*640+x+1]
				f.Data[o+1], f.Data[o+3] = pic.U[y/2*320+x/2], pic.V[y/2*320+x/2]
			}
		}
		frames[k] = f
	}
	t.Logf("machine shared with other work; load at start: %s", loadavg())
	for _, viewers := range []int{1, 10, 1, 10} {
		s, err := NewStream(Config{Name: "fig"})
		if err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		for i := 0; i < viewers; i++ {
			v, err := s.Subscribe(64)
			if err != nil {
				t.Fatal(err)
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				for range v.AccessUnits() {
				}
			}()
		}
		c0 := cpuTime()
		next := time.Now()
		for k := 0; k < n; k++ {
			time.Sleep(time.Until(next))
			next = next.Add(time.Second / 30)
			f := frames[k%len(frames)]
			f.Capture = time.Now()
			s.Feed(f)
		}
		time.Sleep(100 * time.Millisecond)
		cpu := cpuTime() - c0
		st := s.Stats()
		s.Close()
		wg.Wait()
		t.Logf("%2d viewers: %.1f %% of one core (cpu %.2f s over %d frames), %d encoded, %d skipped, %d viewer drops",
			viewers, 100*cpu.Seconds()/(n/30.0), cpu.Seconds(), n, st.Encoded, st.FramesSkipped, st.ViewerDrops)
	}
	t.Logf("load at end: %s", loadavg())
}
