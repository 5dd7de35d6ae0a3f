package video

import (
	"testing"
	"time"
)

// picture returns a w x h I420 whose samples are f(x, y) in every plane
// (chroma planes at their own coordinates).
func picture(w, h int, f func(x, y int) byte) *I420 {
	p := &I420{}
	_ = p.Resize(w, h)
	for y := range h {
		for x := range w {
			p.Y[y*w+x] = f(x, y)
		}
	}
	for y := range h / 2 {
		for x := range w / 2 {
			p.U[y*w/2+x], p.V[y*w/2+x] = f(x, y), f(x, y)
		}
	}
	return p
}

func TestScale(t *testing.T) {
	for _, tc := range []struct {
		name         string
		w, h, ow, oh int
		f            func(x, y int) byte
		check        func(x, y int) byte // expected output luma at (x, y)
	}{
		{"flat stays flat", 640, 480, 320, 240, func(int, int) byte { return 77 }, func(int, int) byte { return 77 }},
		{"a 1-pixel checker halves to grey, no aliasing", 640, 480, 320, 240,
			func(x, y int) byte { return byte(255 * ((x + y) % 2)) }, func(int, int) byte { return 128 }},
		{"columns of 0/200 pairs average", 64, 48, 32, 24,
			func(x, _ int) byte { return byte(200 * (x % 2)) }, func(int, int) byte { return 100 }},
		{"a gradient keeps its slope", 64, 16, 16, 16,
			func(x, _ int) byte { return byte(4 * x) }, func(x, _ int) byte { return byte(16*x + 6) }},
		{"same size copies", 32, 32, 32, 32,
			func(x, y int) byte { return byte(x*8 + y) }, func(x, y int) byte { return byte(x*8 + y) }},
		{"a 3:2 ratio (640 -> 426) keeps the mean of a flat picture", 640, 480, 426, 320,
			func(int, int) byte { return 200 }, func(int, int) byte { return 200 }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := picture(tc.w, tc.h, tc.f)
			src.Capture = time.Unix(5, 0)
			var dst I420
			_ = dst.Resize(tc.ow, tc.oh)
			var s Scaler
			if err := s.Scale(&dst, src); err != nil {
				t.Fatal(err)
			}
			for y := range tc.oh {
				for x := range tc.ow {
					if got, want := dst.Y[y*tc.ow+x], tc.check(x, y); got != want {
						t.Fatalf("Y(%d,%d) = %d, want %d", x, y, got, want)
					}
				}
			}
			if !dst.Capture.Equal(src.Capture) {
				t.Error("capture time not carried")
			}
		})
	}
	var s Scaler
	var small I420
	_ = small.Resize(32, 32)
	if err := s.Scale(picture(64, 64, nil2), &small); err == nil {
		t.Error("scaling up accepted")
	}
}

func nil2(int, int) byte { return 0 }

// TestDecimator: capture times at a camera's rate, kept at a lower one.
func TestDecimator(t *testing.T) {
	frames := func(fps float64, n int, jitter time.Duration) []time.Time {
		out := make([]time.Time, n)
		t0 := time.Unix(100, 0)
		for i := range out {
			j := jitter
			if i%2 == 1 {
				j = -jitter
			}
			out[i] = t0.Add(time.Duration(float64(i)*float64(time.Second)/fps) + j)
		}
		return out
	}
	for _, tc := range []struct {
		name     string
		in, max  float64
		jitter   time.Duration
		n, kept  int
		stallAt  int // a 1 s gap before this frame (0: none)
		keptLate int // after the stall, frames kept of the next 30
	}{
		{"30 -> 15", 30, 15, 0, 90, 45, 0, 0},
		{"30 -> 10", 30, 10, 0, 90, 30, 0, 0},
		{"30 -> 20 keeps two of three", 30, 20, 0, 90, 60, 0, 0},
		{"30 -> 15 with 5 ms capture jitter", 30, 15, 5 * time.Millisecond, 90, 45, 0, 0},
		{"at or above the camera's rate keeps all", 30, 30, 0, 90, 90, 0, 0},
		{"no limit keeps all", 30, 0, 0, 90, 90, 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var d decimator
			if tc.max > 0 {
				d.period = time.Duration(float64(time.Second) / tc.max)
			}
			kept := 0
			for _, at := range frames(tc.in, tc.n, tc.jitter) {
				if d.keep(at) {
					kept++
				}
			}
			if kept != tc.kept {
				t.Fatalf("kept %d of %d, want %d", kept, tc.n, tc.kept)
			}
		})
	}
	// After a camera stall the decimator does not burst to catch up.
	d := decimator{period: 100 * time.Millisecond}
	t0 := time.Unix(100, 0)
	d.keep(t0)
	kept := 0
	for i := range 30 {
		if d.keep(t0.Add(5*time.Second + time.Duration(i)*time.Second/30)) {
			kept++
		}
	}
	if kept != 10 {
		t.Fatalf("after a stall: kept %d of 30 frames at 30 fps for 10 fps, want 10", kept)
	}
}

// TestStreamSizeAndRate: a stream configured for 320x240 at 10 fps,
// fed 640x480 at 30 fps, encodes 320x240 pictures, a third of them, with
// the encoder told 10 fps.
func TestStreamSizeAndRate(t *testing.T) {
	s, ff := testStream(t, Config{Name: "t", Width: 320, Height: 240, MaxFrameRate: 10})
	v, err := s.Subscribe(64)
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	f := solid("mono8", 640, 480, 90, 90, 90)
	t0 := time.Unix(100, 0)
	for i := range 30 {
		f.Capture = t0.Add(time.Duration(i) * time.Second / 30)
		s.Feed(f)
		// Let the encoder take each kept picture, so none is skipped for
		// a busy encoder.
		for deadline := time.Now().Add(5 * time.Second); s.Stats().Encoded+s.Stats().FramesSkipped < uint64(i/3+1) && time.Now().Before(deadline); {
			time.Sleep(time.Millisecond)
		}
	}
	st := s.Stats()
	if st.FramesDecimated != 20 || st.Encoded != 10 {
		t.Fatalf("stats %+v: want 20 decimated and 10 encoded", st)
	}
	ff.mu.Lock()
	defer ff.mu.Unlock()
	if len(ff.cfgs) != 1 || ff.cfgs[0].Width != 320 || ff.cfgs[0].Height != 240 || ff.cfgs[0].FrameRate != 10 {
		t.Fatalf("encoder opened with %+v, want one 320x240 at 10 Hz", ff.cfgs)
	}
}

func TestStreamSizeConfigRefused(t *testing.T) {
	for _, c := range []Config{
		{Width: 320},
		{Width: 321, Height: 240},
		{Width: 8, Height: 8},
		{MaxFrameRate: -1},
		{MaxFrameRate: 0.01},
		{PassThrough: true, Width: 320, Height: 240},
		{PassThrough: true, MaxFrameRate: 10},
	} {
		c.NewEncoder = (&fakeFactory{}).open
		if _, err := NewStream(c); err == nil {
			t.Errorf("%+v accepted", c)
		}
	}
}

// BenchmarkScale: 640x480 to 320x240, no allocation once warmed up.
func BenchmarkScale(b *testing.B) {
	src := picture(640, 480, func(x, y int) byte { return byte(x ^ y) })
	var dst I420
	_ = dst.Resize(320, 240)
	var s Scaler
	b.ReportAllocs()
	for b.Loop() {
		if err := s.Scale(&dst, src); err != nil {
			b.Fatal(err)
		}
	}
}
