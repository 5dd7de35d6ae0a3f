package mjpeg

import (
	"errors"
	"math"
	"testing"
	"time"

	"github.com/telebridge/telebridge/pkg/camera"
)

func TestNewStreamConfig(t *testing.T) {
	for _, tc := range []struct {
		name string
		cfg  Config
		ok   bool
	}{
		{"defaults", Config{}, true},
		{"max rate", Config{Rate: MaxRate}, true},
		{"negative rate", Config{Rate: -1}, false},
		{"NaN rate", Config{Rate: math.NaN()}, false},
		{"rate too high", Config{Rate: 121}, false},
		{"quality 0 is default", Config{Quality: 0}, true},
		{"quality 101", Config{Quality: 101}, false},
		{"quality -5", Config{Quality: -5}, false},
		{"negative max width", Config{MaxWidth: -1}, false},
		{"negative write timeout", Config{WriteTimeout: -time.Second}, false},
		{"negative snapshot timeout", Config{SnapshotTimeout: -time.Second}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := NewStream("cam", tc.cfg)
			if tc.ok != (err == nil) {
				t.Fatalf("err %v, want ok %v", err, tc.ok)
			}
			if err != nil && !errors.Is(err, ErrBadConfig) {
				t.Fatalf("err %v does not wrap ErrBadConfig", err)
			}
			if err == nil {
				c := s.Config()
				if c.Rate <= 0 || c.Quality < 1 || c.WriteTimeout <= 0 || c.SnapshotTimeout <= 0 {
					t.Fatalf("defaults not filled: %+v", c)
				}
			}
		})
	}
	s, _ := NewStream("cam", Config{})
	if c := s.Config(); c.Rate != DefaultRate || c.Quality != DefaultQuality {
		t.Fatalf("defaults %+v", c)
	}
}

// accepted returns how many fed frames passed the rate limit.
func accepted(st Stats) uint64 { return st.FramesIn - st.Skipped - st.Bad }

// The rate limit, on an injected clock: a 30 Hz camera at 10 Hz gives
// 10 frames a second, a 10 Hz camera with jitter loses none, and the
// schedule restarts after an idle gap.
func TestRateLimit(t *testing.T) {
	for _, tc := range []struct {
		name    string
		rate    float64
		camHz   float64
		jitter  time.Duration // alternating +/- on each frame
		seconds int
		want    uint64
	}{
		{"30 Hz camera at 10 Hz", 10, 30, 0, 10, 100},
		{"10 Hz camera jittering at 10 Hz", 10, 10, 5 * time.Millisecond, 10, 100},
		{"25 Hz camera at 10 Hz", 10, 25, 0, 10, 100},
		{"15 Hz camera at 2 Hz", 2, 15, 0, 10, 20},
		{"5 Hz camera at 10 Hz", 10, 5, 0, 10, 50},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, clk := newTestStream(t, Config{Rate: tc.rate})
			v, err := s.addViewer()
			if err != nil {
				t.Fatal(err)
			}
			defer s.removeViewer(v)
			f := yuyvStripes(16, 8, 32, [][3]uint8{yuvRed})
			period := time.Duration(float64(time.Second) / tc.camHz)
			n := int(tc.camHz) * tc.seconds
			start := clk.now()
			for i := 0; i < n; i++ {
				at := start.Add(time.Duration(i) * period)
				if i%2 == 1 {
					at = at.Add(tc.jitter)
				} else if i > 0 {
					at = at.Add(-tc.jitter)
				}
				clk.mu.Lock()
				clk.t = at
				clk.mu.Unlock()
				s.Feed(f)
			}
			if got := accepted(s.Stats()); got < tc.want-1 || got > tc.want+1 {
				t.Fatalf("accepted %d of %d frames, want %d ±1", got, n, tc.want)
			}
		})
	}
}

func TestRateRestartsAfterIdle(t *testing.T) {
	s, clk := newTestStream(t, Config{Rate: 10})
	v, _ := s.addViewer()
	defer s.removeViewer(v)
	f := yuyvStripes(16, 8, 32, [][3]uint8{yuvRed})
	s.Feed(f)
	clk.add(10 * time.Millisecond)
	s.Feed(f) // too soon
	clk.add(time.Hour)
	s.Feed(f) // after a long gap: due at once
	clk.add(50 * time.Millisecond)
	s.Feed(f) // not a burst catching up on the hour
	st := s.Stats()
	if accepted(st) != 2 || st.Skipped != 2 {
		t.Fatalf("accepted %d, skipped %d; want 2, 2", accepted(st), st.Skipped)
	}
}

// With no viewer Feed counts the frame and does nothing else: no
// validation, no copy, no allocation.
func TestFeedNoViewerAllocatesNothing(t *testing.T) {
	s, _ := newTestStream(t, Config{})
	f := yuyvStripes(640, 480, 1280, [][3]uint8{yuvRed})
	if a := testing.AllocsPerRun(1000, func() { s.Feed(f) }); a != 0 {
		t.Fatalf("Feed with no viewer: %v allocs, want 0", a)
	}
	bad := &camera.Frame{Encoding: "nonsense", Data: []byte{1}}
	s.Feed(bad)
	st := s.Stats()
	if st.FramesIn != 1002 || st.Bad != 0 || st.Encoded != 0 || len(s.pending.data) != 0 {
		t.Fatalf("stats %+v, pending %d bytes: want only counted", st, len(s.pending.data))
	}
}

// A frame skipped by the rate limit costs no allocation either.
func TestFeedSkippedAllocatesNothing(t *testing.T) {
	s, _ := newTestStream(t, Config{Rate: 1})
	v, _ := s.addViewer()
	defer s.removeViewer(v)
	f := yuyvStripes(640, 480, 1280, [][3]uint8{yuvRed})
	s.Feed(f) // due; the clock does not move, so every next one is skipped
	if a := testing.AllocsPerRun(1000, func() { s.Feed(f) }); a != 0 {
		t.Fatalf("skipped Feed: %v allocs, want 0", a)
	}
	if st := s.Stats(); st.Skipped != 1001 {
		t.Fatalf("skipped %d, want 1001", st.Skipped)
	}
}

func TestBadFramesCounted(t *testing.T) {
	s, clk := newTestStream(t, Config{})
	v, _ := s.addViewer()
	defer s.removeViewer(v)
	good := yuyvStripes(32, 8, 64, [][3]uint8{yuvRed})
	for i, f := range []*camera.Frame{
		{Width: 640, Height: 480, Step: 1280, Encoding: "yuv422_yuy2", Data: good.Data}, // short
		{Width: 8, Height: 8, Step: 8, Encoding: "rgb565", Data: make([]byte, 128)},
		{Encoding: "jpeg", Compressed: true, Data: []byte("GIF89a not a jpeg")},
	} {
		s.Feed(f)
		st := s.Stats()
		if st.Bad != uint64(i+1) || st.LastErr == nil {
			t.Fatalf("frame %d: bad %d, last err %v", i, st.Bad, st.LastErr)
		}
		t.Log(st.LastErr)
	}
	clk.add(time.Second)
	s.Feed(good)
	waitFor(t, "the good frame to be encoded", func() bool { return s.Stats().Encoded == 1 })
	if st := s.Stats(); st.Bad != 3 || st.Width != 32 || st.Height != 8 || st.InputEncoding != "yuv422_yuy2" {
		t.Fatalf("stats after a good frame %+v", st)
	}
}

// The encoder takes the latest due frame; one not taken in time is
// replaced and counted, and the encoder goroutine exists only while
// someone watches.
func TestLatestWinsAndEncoderLifetime(t *testing.T) {
	s, clk := newTestStream(t, Config{Rate: 100})
	red := yuyvStripes(32, 16, 64, [][3]uint8{yuvRed})
	green := yuyvStripes(32, 16, 64, [][3]uint8{yuvGreen})
	blue := yuyvStripes(32, 16, 64, [][3]uint8{yuvBlue})
	v, _ := s.addViewer()
	taken := func() bool {
		s.mu.Lock()
		defer s.mu.Unlock()
		return !s.pendingReady
	}
	// Hold the output lock: the encoder takes red, encodes it and blocks
	// publishing it, so it is busy while green and blue come.
	s.outMu.Lock()
	s.Feed(red)
	waitFor(t, "the encoder to take red", taken)
	clk.add(20 * time.Millisecond)
	s.Feed(green)
	clk.add(20 * time.Millisecond)
	s.Feed(blue) // replaces green, not yet taken
	s.outMu.Unlock()
	waitFor(t, "two frames published", func() bool { return s.Stats().Encoded == 2 })
	st := s.Stats()
	if st.Dropped != 1 {
		t.Fatalf("dropped %d, want 1 (green)", st.Dropped)
	}
	b, _, _ := s.Latest()
	checkColour(t, decodeJPEG(t, b), 16, 8, rgb{0, 0, 255}, tol)

	s.removeViewer(v)
	waitFor(t, "the encoder to exit", func() bool {
		s.mu.Lock()
		defer s.mu.Unlock()
		return !s.encoding
	})
	// A new viewer starts a new encoder.
	v, _ = s.addViewer()
	defer s.removeViewer(v)
	clk.add(time.Second)
	s.Feed(red)
	waitFor(t, "a frame from the second encoder", func() bool { return s.Stats().Encoded == 3 })
}

func TestOutputRateStats(t *testing.T) {
	s, clk := newTestStream(t, Config{Rate: 10})
	v, _ := s.addViewer()
	defer s.removeViewer(v)
	f := yuyvStripes(64, 32, 128, [][3]uint8{yuvRed, yuvGreen})
	for i := 0; i < 20; i++ {
		s.Feed(f)
		waitFor(t, "frame encoded", func() bool { return s.Stats().Encoded == uint64(i+1) })
		if i < 19 {
			clk.add(100 * time.Millisecond)
		}
	}
	st := s.Stats()
	if math.Abs(st.FPS-10) > 0.01 {
		t.Fatalf("FPS %v, want 10", st.FPS)
	}
	if want := 10 * float64(st.LastBytes); math.Abs(st.BytesPerSec-want) > 0.01*want {
		t.Fatalf("bytes/s %v, want %v (all frames alike)", st.BytesPerSec, want)
	}
	if st.MeanEncode <= 0 || st.LastEncode <= 0 {
		t.Fatalf("encode times %v %v", st.LastEncode, st.MeanEncode)
	}
	clk.add(3 * time.Second)
	if st := s.Stats(); st.FPS != 0 {
		t.Fatalf("FPS %v after 3 s with no frame, want 0", st.FPS)
	}
}

func TestPassthroughByteIdentical(t *testing.T) {
	jpg, err := camera.PatternJPEG(320, 240, 3, 128)
	if err != nil {
		t.Fatal(err)
	}
	jpg = append(jpg, 0, 0, 0) // padding after EOI, as some cameras send: kept
	s, _ := newTestStream(t, Config{MaxWidth: 100, Quality: 10})
	v, _ := s.addViewer()
	defer s.removeViewer(v)
	s.Feed(&camera.Frame{Width: 320, Height: 240, Encoding: "jpeg", Compressed: true, Data: jpg})
	waitFor(t, "passthrough", func() bool { return s.Stats().Passed == 1 })
	got, _, _ := s.Latest()
	if string(got) != string(jpg) {
		t.Fatalf("passthrough changed the bytes: %d bytes in, %d out", len(jpg), len(got))
	}
	if st := s.Stats(); st.Width != 320 || st.Height != 240 || st.MeanEncode != 0 {
		t.Fatalf("stats %+v", st)
	}
}

func TestOnViewers(t *testing.T) {
	s, _ := newTestStream(t, Config{})
	var got []int
	s.OnViewers(func(n int) { got = append(got, n) })
	a, _ := s.addViewer()
	b, _ := s.addViewer()
	s.removeViewer(a)
	s.removeViewer(a) // twice: no effect
	s.removeViewer(b)
	want := []int{0, 1, 2, 1, 0}
	if len(got) != len(want) {
		t.Fatalf("OnViewers calls %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("OnViewers calls %v, want %v", got, want)
		}
	}
	_ = s.Close()
	if _, err := s.addViewer(); !errors.Is(err, ErrClosed) {
		t.Fatalf("viewer after Close: %v", err)
	}
}

// Quality and MaxWidth reach the published JPEG.
func TestConfigShapesOutput(t *testing.T) {
	f := yuyvStripes(640, 480, 1280, [][3]uint8{yuvRed, yuvGreen, yuvBlue, yuvWhite})
	// Texture, so that quality matters: a ramp of luma across each row.
	for i := 0; i < len(f.Data); i += 2 {
		f.Data[i] = uint8(i * 7 % 251)
	}
	publish := func(cfg Config) (Stats, []byte) {
		s, _ := newTestStream(t, cfg)
		v, _ := s.addViewer()
		defer s.removeViewer(v)
		s.Feed(f)
		waitFor(t, "a frame", func() bool { return s.Stats().Encoded == 1 })
		b, _, _ := s.Latest()
		return s.Stats(), b
	}
	stLow, low := publish(Config{Quality: 10})
	stHigh, high := publish(Config{Quality: 95})
	if len(low) >= len(high) || stLow.LastBytes != len(low) || stHigh.LastBytes != len(high) {
		t.Fatalf("quality 10: %d bytes, quality 95: %d bytes (stats %d, %d)", len(low), len(high), stLow.LastBytes, stHigh.LastBytes)
	}
	st, b := publish(Config{MaxWidth: 320})
	img := decodeJPEG(t, b)
	if st.Width != 320 || st.Height != 240 || img.Bounds().Dx() != 320 || img.Bounds().Dy() != 240 {
		t.Fatalf("MaxWidth 320: stats %dx%d, jpeg %v", st.Width, st.Height, img.Bounds().Size())
	}
	if st.InputWidth != 640 || st.InputHeight != 480 {
		t.Fatalf("input size %dx%d", st.InputWidth, st.InputHeight)
	}
}

// mono16 from a ROS topic may be big-endian: the high byte is then first.
func TestMono16BigEndian(t *testing.T) {
	s, _ := newTestStream(t, Config{})
	v, _ := s.addViewer()
	defer s.removeViewer(v)
	const w, h = 16, 8
	data := make([]byte, 2*w*h)
	for i := 0; i < w*h; i++ {
		data[2*i], data[2*i+1] = 200, 0x33 // high byte 200 first, low byte noise
	}
	s.Feed(&camera.Frame{Width: w, Height: h, Step: 2 * w, Encoding: "mono16", IsBigEndian: 1, Data: data})
	waitFor(t, "a frame", func() bool { return s.Stats().Encoded == 1 })
	b, _, _ := s.Latest()
	checkColour(t, decodeJPEG(t, b), 8, 4, rgb{200, 200, 200}, 4)
}
