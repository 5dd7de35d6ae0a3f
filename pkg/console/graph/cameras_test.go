package graph_test

import (
	"bytes"
	"errors"
	"image"
	"image/jpeg"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/telebridge/telebridge/pkg/camera"
	"github.com/telebridge/telebridge/pkg/console/graph"
	"github.com/telebridge/telebridge/pkg/mjpeg"
)

// TestCameraTopics: auto (the default) shows a camera from image_raw
// where it is published and from image_raw/compressed where only that is
// (a MJPG camera), and waits while neither is; compressed and raw take
// their topic whatever the graph has; anything else is refused.
func TestCameraTopics(t *testing.T) {
	c := config()
	c.CameraNamespace = "/cams"
	raw := graph.CameraTopic{Topic: "/cams/front/image_raw"}
	comp := graph.CameraTopic{Topic: "/cams/front/image_raw/compressed", Compressed: true}
	for _, tc := range []struct {
		transport         string
		rawUp, compUp, ok bool
		want              graph.CameraTopic
	}{
		{"", true, true, true, raw},                                     // a raw camera: the console encodes at the page's rate
		{graph.TransportAuto, true, false, true, raw},                   // a camera_publisher without JPEG (older, or another driver)
		{graph.TransportAuto, false, true, true, comp},                  // a MJPG camera
		{graph.TransportAuto, false, false, false, graph.CameraTopic{}}, // not up yet
		{graph.TransportCompressed, true, true, true, comp},
		{graph.TransportCompressed, false, false, true, comp},
		{graph.TransportRaw, false, true, true, raw},
	} {
		c.CameraTransport = tc.transport
		n, err := c.Names()
		if err != nil {
			t.Fatalf("%q: %v", tc.transport, err)
		}
		ts := n.Cameras["front"]
		if ts.Raw != raw.Topic || ts.Compressed != comp.Topic || len(n.Cameras) != len(c.Cameras) {
			t.Errorf("%q: topics %+v (%d cameras)", tc.transport, ts, len(n.Cameras))
		}
		if got, ok := ts.Choose(tc.rawUp, tc.compUp); got != tc.want || ok != tc.ok {
			t.Errorf("%q with raw %v, compressed %v published: %+v %v, want %+v %v", tc.transport, tc.rawUp, tc.compUp, got, ok, tc.want, tc.ok)
		}
	}
	if graph.DefaultNodeConfig().CameraTransport != graph.TransportAuto {
		t.Error("the default transport is not auto")
	}
	c.CameraTransport = "theora"
	if _, err := c.Names(); !errors.Is(err, graph.ErrConfig) {
		t.Errorf("camera_transport theora: %v", err)
	}
}

func TestIsJPEGFormat(t *testing.T) {
	for format, want := range map[string]bool{
		"jpeg": true, "JPEG": true, " jpg ": true,
		"bgr8; jpeg compressed bgr8": true, "rgb8; jpeg compressed bgr8": true, "mono8; jpeg compressed mono8": true,
		"png": false, "bgr8; png compressed bgr8": false, "": false, "h264": false,
	} {
		if got := graph.IsJPEGFormat(format); got != want {
			t.Errorf("IsJPEGFormat(%q) = %v, want %v", format, got, want)
		}
	}
}

func jpegOf(t testing.TB, w, h int) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := jpeg.Encode(&b, image.NewGray(image.Rect(0, 0, w, h)), nil); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestCompressedFrame: a JPEG CompressedImage becomes a compressed frame
// of the JPEG's size that borrows the message's bytes; other formats and
// non-JPEG bytes are refused and leave the frame alone.
func TestCompressedFrame(t *testing.T) {
	jpg := jpegOf(t, 640, 480)
	stamp := time.Unix(1700000000, 42)
	var f camera.Frame
	if err := graph.CompressedFrame(&f, stamp, "zoom_optical_frame", "jpeg", jpg); err != nil {
		t.Fatal(err)
	}
	if f.Width != 640 || f.Height != 480 || !f.Compressed || f.Encoding != "jpeg" || !f.Header.Stamp.Equal(stamp) ||
		f.Header.FrameID != "zoom_optical_frame" || &f.Data[0] != &jpg[0] {
		t.Errorf("frame %+v", f.Header)
	}
	for _, tc := range []struct {
		name, format string
		data         []byte
		want         error
	}{
		{"png", "bgr8; png compressed bgr8", jpg, graph.ErrNotJPEG},
		{"empty", "jpeg", nil, graph.ErrBadJPEG},
		{"not a jpeg", "jpeg", []byte("\x89PNG\r\n\x1a\n...."), graph.ErrBadJPEG},
		{"cut before the frame header", "jpeg", jpg[:20], graph.ErrBadJPEG},
	} {
		g := camera.Frame{Encoding: "untouched"}
		if err := graph.CompressedFrame(&g, stamp, "x", tc.format, tc.data); !errors.Is(err, tc.want) || g.Encoding != "untouched" {
			t.Errorf("%s: %v (want %v), frame %q", tc.name, err, tc.want, g.Encoding)
		}
	}
}

// TestJPEGSize: sizes from real JPEGs (baseline, progressive-free
// restart-marker-free image/jpeg output, and the pattern camera's), and
// malformed headers refused.
func TestJPEGSize(t *testing.T) {
	for _, sz := range [][2]int{{1, 1}, {640, 480}, {1920, 1080}, {17, 3000}} {
		w, h, err := graph.JPEGSize(jpegOf(t, sz[0], sz[1]))
		if err != nil || w != sz[0] || h != sz[1] {
			t.Errorf("%v: %dx%d, %v", sz, w, h, err)
		}
	}
	pj, err := camera.PatternJPEG(320, 240, 1, 128)
	if err != nil {
		t.Fatal(err)
	}
	if w, h, err := graph.JPEGSize(pj); err != nil || w != 320 || h != 240 {
		t.Errorf("pattern jpeg: %dx%d, %v", w, h, err)
	}
	// Hand-made: SOI, fill bytes, an APP0 segment, then SOF2 (progressive).
	sof2 := []byte{0xff, 0xd8, 0xff, 0xff, 0xe0, 0x00, 0x04, 0, 0, 0xff, 0xc2, 0x00, 0x0b, 8, 0x01, 0xe0, 0x02, 0x80, 1, 1, 0x11, 0}
	if w, h, err := graph.JPEGSize(sof2); err != nil || w != 640 || h != 480 {
		t.Errorf("progressive: %dx%d, %v", w, h, err)
	}
	for name, b := range map[string][]byte{
		"no SOI":            {0xff, 0xd9, 0, 0},
		"scan first":        {0xff, 0xd8, 0xff, 0xda, 0, 2},
		"segment overruns":  {0xff, 0xd8, 0xff, 0xe0, 0x10, 0x00, 0},
		"zero length":       {0xff, 0xd8, 0xff, 0xe0, 0x00, 0x00, 0, 0},
		"garbage":           {0xff, 0xd8, 0x12, 0x34, 0, 0},
		"short frame":       {0xff, 0xd8, 0xff, 0xc0, 0x00, 0x04, 0, 0},
		"zero width":        {0xff, 0xd8, 0xff, 0xc0, 0x00, 0x08, 8, 0, 1, 0, 0, 1},
		"huffman is no SOF": {0xff, 0xd8, 0xff, 0xc4, 0x00, 0x08, 8, 0, 1, 0, 1, 1},
	} {
		if _, _, err := graph.JPEGSize(b); !errors.Is(err, graph.ErrBadJPEG) {
			t.Errorf("%s: %v, want ErrBadJPEG", name, err)
		}
	}
	jpg := jpegOf(t, 64, 48)
	if n := testing.AllocsPerRun(20, func() { _, _, _ = graph.JPEGSize(jpg) }); n != 0 {
		t.Errorf("JPEGSize allocates %.0f per call", n)
	}
}

// FuzzJPEGSize: any bytes give a size or ErrBadJPEG, never a panic; a
// size it finds in an image/jpeg file is the file's.
func FuzzJPEGSize(f *testing.F) {
	f.Add(jpegOf(f, 8, 8))
	f.Add([]byte{0xff, 0xd8, 0xff, 0xc2, 0x00, 0x0b, 8, 0x01, 0xe0, 0x02, 0x80, 1, 1, 0x11, 0})
	f.Add([]byte{0xff, 0xd8, 0xff, 0xe0, 0xff, 0xff})
	f.Fuzz(func(t *testing.T, b []byte) {
		w, h, err := graph.JPEGSize(b)
		if err != nil {
			if !errors.Is(err, graph.ErrBadJPEG) {
				t.Fatalf("error %v is not ErrBadJPEG", err)
			}
			return
		}
		if w <= 0 || h <= 0 {
			t.Fatalf("size %dx%d without an error", w, h)
		}
		if cfg, err := jpeg.DecodeConfig(bytes.NewReader(b)); err == nil && (cfg.Width != w || cfg.Height != h) {
			t.Fatalf("JPEGSize %dx%d, image/jpeg %dx%d", w, h, cfg.Width, cfg.Height)
		}
	})
}

// TestCompressedFrameShown: a camera's CompressedImage, made a frame by
// CompressedFrame, is what the console's MJPEG stream serves, byte for
// byte (passed through, not re-encoded): the page shows MJPG cameras.
func TestCompressedFrameShown(t *testing.T) {
	s, err := mjpeg.NewStream("zoom", mjpeg.Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	jpg := jpegOf(t, 64, 48)
	rec := httptest.NewRecorder()
	done := make(chan struct{})
	go func() {
		defer close(done)
		s.Snapshot(rec, httptest.NewRequest(http.MethodGet, "/cameras/zoom.jpg", nil))
	}()
	var f camera.Frame
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	deadline := time.After(10 * time.Second)
	for shown := false; !shown; {
		select {
		case <-done:
			shown = true
		case <-tick.C: // feed until the snapshot has taken one (the viewer registers asynchronously)
			if err := graph.CompressedFrame(&f, time.Now(), "zoom_optical_frame", "jpeg", jpg); err != nil {
				t.Fatal(err)
			}
			s.Feed(&f)
		case <-deadline:
			t.Fatal("no snapshot within 10 s")
		}
	}
	if rec.Code != http.StatusOK || !bytes.Equal(rec.Body.Bytes(), jpg) {
		t.Errorf("snapshot %d, %d bytes; want 200 and the %d bytes of the JPEG; stats %+v", rec.Code, rec.Body.Len(), len(jpg), s.Stats())
	}
	if st := s.Stats(); st.Bad != 0 {
		t.Errorf("%d bad frames: %s", st.Bad, st.LastErr)
	}
}
