package node

import (
	"bytes"
	"errors"
	"image/jpeg"
	"testing"
	"time"

	"github.com/telebridge/telebridge/pkg/camera"
	"github.com/telebridge/telebridge/pkg/camera/compress"
	"github.com/telebridge/telebridge/pkg/camera/wire"
)

func TestWantsImages(t *testing.T) {
	cases := []struct {
		w    Wants
		want int
	}{
		{Wants{}, 0},
		{Wants{Info: 2}, 0}, // camera_info is counted apart
		{Wants{Raw: 1}, 1},
		{Wants{Compressed: 2}, 2},
		{Wants{Raw: 1, Compressed: 1}, 2},
		{Wants{RTP: true}, 1},
		{Wants{Raw: -1, Compressed: 1, RTP: true}, 2},
	}
	for _, tc := range cases {
		if got := tc.w.Images(); got != tc.want {
			t.Errorf("%+v.Images() = %d, want %d", tc.w, got, tc.want)
		}
	}
}

// TestCompressor: a YUYV frame of the test pattern becomes a JPEG of its
// size with the frame's header; a MJPG frame passes through; the quality
// set from another goroutine applies to the next frame.
func TestCompressor(t *testing.T) {
	yuyv, _ := wire.LookupFormat(wire.FmtYUYV)
	buf := make([]byte, 64*2*48)
	camera.FillPattern(buf, yuyv, 128, 48, 3, 128)
	stamp := time.Unix(1700000000, 5)
	f := &camera.Frame{Header: camera.Header{Stamp: stamp, FrameID: "zoom_optical_frame"}, Width: 64, Height: 48,
		Encoding: "yuv422_yuy2", Step: 128, Data: buf}
	c, err := NewCompressor(90)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Compress(f); err != nil {
		t.Fatal(err)
	}
	m := c.Msg
	if m.Format != "jpeg" || m.Header != f.Header {
		t.Errorf("message %q %+v", m.Format, m.Header)
	}
	cfg, err := jpeg.DecodeConfig(bytes.NewReader(m.Data))
	if err != nil || cfg.Width != 64 || cfg.Height != 48 {
		t.Fatalf("jpeg %+v, %v", cfg, err)
	}
	high := len(m.Data)
	c.Release()
	if c.Msg.Data != nil {
		t.Error("Release kept the data")
	}
	if err := c.SetQuality(0); !errors.Is(err, compress.ErrBadQuality) || c.Quality() != 90 {
		t.Errorf("SetQuality(0): %v, quality %d", err, c.Quality())
	}
	if err := c.SetQuality(10); err != nil {
		t.Fatal(err)
	}
	if err := c.Compress(f); err != nil || len(c.Msg.Data) >= high {
		t.Errorf("quality 10: %d bytes (quality 90: %d), %v", len(c.Msg.Data), high, err)
	}
	jpg, _ := camera.PatternJPEG(64, 48, 0, 128)
	mj := &camera.Frame{Header: f.Header, Width: 64, Height: 48, Encoding: "jpeg", Compressed: true, Data: jpg}
	if err := c.Compress(mj); err != nil || &c.Msg.Data[0] != &jpg[0] {
		t.Errorf("MJPG frame not passed through: %v", err)
	}
	f.Data = buf[:10]
	if err := c.Compress(f); !errors.Is(err, compress.ErrBadFrame) || c.Msg.Data != nil {
		t.Errorf("short frame: %v, data %d bytes", err, len(c.Msg.Data))
	}
}
