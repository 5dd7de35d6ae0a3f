package mjpeg

import (
	"bytes"
	"image"
	"image/jpeg"
	"sync"
	"testing"
	"time"

	"github.com/telebridge/telebridge/internal/testkit/runtest"
	"github.com/telebridge/telebridge/pkg/camera"
)

// fakeClock is an injected clock for the rate limit and FPS.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func newFakeClock() *fakeClock {
	return &fakeClock{t: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
}

func (c *fakeClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// newTestStream returns a stream on a fake clock.
func newTestStream(t testing.TB, cfg Config) (*Stream, *fakeClock) {
	t.Helper()
	s, err := NewStream("test", cfg)
	if err != nil {
		t.Fatal(err)
	}
	clk := newFakeClock()
	s.now = clk.now
	t.Cleanup(func() { _ = s.Close() })
	return s, clk
}

// waitFor waits for cond with a bound of 20 s (a generous bound for a
// loaded machine; the condition, not the time, is what is asserted).
func waitFor(t testing.TB, what string, cond func() bool) {
	t.Helper()
	runtest.WaitFor(t, 20*time.Second, what, cond)
}

// rgb is an 8-bit colour.
type rgb struct{ r, g, b uint8 }

// Full-range (JFIF) YCbCr of pure colours, as image/jpeg interprets them.
var (
	yuvRed   = [3]uint8{76, 85, 255}
	yuvGreen = [3]uint8{150, 44, 21}
	yuvBlue  = [3]uint8{29, 255, 107}
	yuvWhite = [3]uint8{255, 128, 128}
)

// yuyvStripes returns a YUYV frame of len(cols) vertical stripes of equal
// width, each of one YCbCr colour; step may exceed 2*w (padding 0xEE).
func yuyvStripes(w, h, step int, cols [][3]uint8) *camera.Frame {
	data := bytes.Repeat([]byte{0xee}, step*h)
	sw := w / len(cols)
	for y := 0; y < h; y++ {
		for x := 0; x < w; x += 2 {
			c := cols[min(x/sw, len(cols)-1)]
			o := y*step + 2*x
			data[o], data[o+1], data[o+2], data[o+3] = c[0], c[1], c[0], c[2]
		}
	}
	return &camera.Frame{Width: uint32(w), Height: uint32(h), Step: uint32(step), Encoding: "yuv422_yuy2", Data: data}
}

// bayerFrame returns an 8-bit Bayer mosaic of encoding enc whose left half
// samples colour left and right half colour right (each site takes its
// channel of the colour).
func bayerFrame(enc string, w, h int, left, right rgb) *camera.Frame {
	p, _ := lookup(enc)
	data := make([]byte, w*h)
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			c := left
			if x >= w/2 {
				c = right
			}
			idx := (y%2)*2 + x%2
			v := c.g
			switch idx {
			case p.r:
				v = c.r
			case p.b:
				v = c.b
			}
			data[y*w+x] = v
		}
	}
	return &camera.Frame{Width: uint32(w), Height: uint32(h), Step: uint32(w), Encoding: enc, Data: data}
}

// decodeJPEG decodes b or fails the test.
func decodeJPEG(t testing.TB, b []byte) image.Image {
	t.Helper()
	img, err := jpeg.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("decode jpeg (%d bytes): %v", len(b), err)
	}
	return img
}

// checkColour asserts the pixel at (x, y) of img is want within tol per
// channel.
func checkColour(t testing.TB, img image.Image, x, y int, want rgb, tol int) {
	t.Helper()
	r, g, b, _ := img.At(x, y).RGBA()
	got := rgb{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8)}
	if absDiff(got.r, want.r) > tol || absDiff(got.g, want.g) > tol || absDiff(got.b, want.b) > tol {
		t.Errorf("pixel (%d,%d) = %v, want %v ±%d", x, y, got, want, tol)
	}
}

func absDiff(a, b uint8) int {
	if a > b {
		return int(a - b)
	}
	return int(b - a)
}

// encodeSync converts and encodes f as the encoder would, on the calling
// goroutine, and returns the JPEG (for converter tests without viewers).
func encodeSync(t testing.TB, f *camera.Frame, maxWidth int) []byte {
	t.Helper()
	p, n, err := checkFrame(f.Encoding, f.Compressed, int(f.Width), int(f.Height), int(f.Step), len(f.Data))
	if err != nil {
		t.Fatal(err)
	}
	var c Converter
	fa, w, h := outSize(p, int(f.Width), int(f.Height), maxWidth)
	img := c.convert(p, f.Data[:n], int(f.Width), int(f.Height), int(f.Step), fa, w, h)
	var b jpegBuf
	if err := jpeg.Encode(&b, img, &jpeg.Options{Quality: DefaultQuality}); err != nil {
		t.Fatal(err)
	}
	return b.b
}
