package mjpeg

import (
	"go/build"
	"image"
	"image/color"
	"image/draw"
	"image/jpeg"
	"image/png"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/telebridge/telebridge/pkg/camera"
	"github.com/telebridge/telebridge/pkg/camera/wire"
)

// patternFrame returns test image k of pkg/camera's synthetic source in
// pixel format name (as the "pattern:" camera delivers it).
func patternFrame(tb testing.TB, name string, w, h int) *camera.Frame {
	tb.Helper()
	f, err := wire.ParsePixelFormat(name)
	if err != nil {
		tb.Fatal(err)
	}
	step, size := wire.ImageSize(f, uint32(w), uint32(h), 0)
	data := make([]byte, size)
	camera.FillPattern(data, f, step, uint32(h), 3, 128)
	return &camera.Frame{Width: uint32(w), Height: uint32(h), Step: step, Encoding: f.Encoding, Data: data}
}

// naturalRGB returns a w x h image tiled from the frame of real video
// that Go ships as image test data (150x103 px), or skips: a stand-in for
// a camera image, which compresses far worse than the test pattern.
func naturalRGB(tb testing.TB, w, h int) *image.RGBA {
	tb.Helper()
	path := filepath.Join(build.Default.GOROOT, "src", "image", "testdata", "video-001.png")
	fh, err := os.Open(path)
	if err != nil {
		tb.Skipf("no natural test image: %v", err)
	}
	defer fh.Close()
	tile, err := png.Decode(fh)
	if err != nil {
		tb.Fatalf("%s: %v", path, err)
	}
	out := image.NewRGBA(image.Rect(0, 0, w, h))
	tb0 := tile.Bounds()
	for y := 0; y < h; y += tb0.Dy() {
		for x := 0; x < w; x += tb0.Dx() {
			draw.Draw(out, image.Rect(x, y, x+tb0.Dx(), y+tb0.Dy()), tile, tb0.Min, draw.Src)
		}
	}
	return out
}

// naturalFrame converts naturalRGB to encoding enc (YUYV or a Bayer
// mosaic).
func naturalFrame(tb testing.TB, enc string, w, h int) *camera.Frame {
	tb.Helper()
	img := naturalRGB(tb, w, h)
	p, _ := lookup(enc)
	var data []byte
	step := w * p.bpp
	switch p.kind {
	case kindYUYV:
		data = make([]byte, step*h)
		for y := 0; y < h; y++ {
			for x := 0; x < w; x += 2 {
				a, b := img.RGBAAt(x, y), img.RGBAAt(x+1, y)
				y0, cb, cr := color.RGBToYCbCr(a.R, a.G, a.B)
				y1, _, _ := color.RGBToYCbCr(b.R, b.G, b.B)
				o := y*step + 2*x
				data[o], data[o+1], data[o+2], data[o+3] = y0, cb, y1, cr
			}
		}
	case kindBayer:
		data = make([]byte, step*h)
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				c := img.RGBAAt(x, y)
				v := c.G
				switch (y%2)*2 + x%2 {
				case p.r:
					v = c.R
				case p.b:
					v = c.B
				}
				data[y*step+x] = v
			}
		}
	default:
		tb.Fatalf("naturalFrame: %s not supported", enc)
	}
	return &camera.Frame{Width: uint32(w), Height: uint32(h), Step: uint32(step), Encoding: enc, Data: data}
}

// BenchmarkEncode is the encoder's work per frame (conversion + JPEG at
// the default quality, as Stream does it): ns/op is the time per frame,
// jpeg-B the size of one JPEG, cpu%@10Hz the share of one core a viewed
// stream takes at the default rate.
func BenchmarkEncode(b *testing.B) {
	for _, bc := range []struct {
		name     string
		frame    func(testing.TB) *camera.Frame
		maxWidth int
	}{
		{"yuyv-pattern-640x480", func(tb testing.TB) *camera.Frame { return patternFrame(tb, "YUYV", 640, 480) }, 0},
		{"yuyv-natural-640x480", func(tb testing.TB) *camera.Frame { return naturalFrame(tb, "yuv422_yuy2", 640, 480) }, 0},
		{"yuyv-natural-640x480-max320", func(tb testing.TB) *camera.Frame { return naturalFrame(tb, "yuv422_yuy2", 640, 480) }, 320},
		{"bayer-pattern-640x480", func(tb testing.TB) *camera.Frame { return patternFrame(tb, "GRBG", 640, 480) }, 0},
		{"bayer-natural-640x480", func(tb testing.TB) *camera.Frame { return naturalFrame(tb, "bayer_grbg8", 640, 480) }, 0},
		{"grey-pattern-640x480", func(tb testing.TB) *camera.Frame { return patternFrame(tb, "GREY", 640, 480) }, 0},
	} {
		b.Run(bc.name, func(b *testing.B) {
			f := bc.frame(b)
			p, n, err := checkFrame(f.Encoding, false, int(f.Width), int(f.Height), int(f.Step), len(f.Data))
			if err != nil {
				b.Fatal(err)
			}
			var c Converter
			var out jpegBuf
			opts := &jpeg.Options{Quality: DefaultQuality}
			fa, w, h := outSize(p, int(f.Width), int(f.Height), bc.maxWidth)
			b.ReportAllocs()
			cpu0, ok := cpuTime()
			for i := 0; i < b.N; i++ {
				img := c.convert(p, f.Data[:n], int(f.Width), int(f.Height), int(f.Step), fa, w, h)
				out.b = out.b[:0]
				if err := jpeg.Encode(&out, img, opts); err != nil {
					b.Fatal(err)
				}
			}
			cpu1, _ := cpuTime()
			b.ReportMetric(float64(len(out.b)), "jpeg-B")
			if ok {
				// CPU time, not wall time: on a loaded machine ns/op
				// includes waiting for a core.
				per := (cpu1 - cpu0) / time.Duration(b.N)
				b.ReportMetric(float64(per.Microseconds())/1000, "cpu-ms/op")
				b.ReportMetric(per.Seconds()*DefaultRate*100, "cpu%@10Hz")
			}
			b.ReportMetric(float64(len(out.b))*DefaultRate/1000, "kB/s@10Hz")
		})
	}
}

// BenchmarkConvert is the conversion alone (no JPEG).
func BenchmarkConvert(b *testing.B) {
	for _, name := range []string{"YUYV", "GRBG", "GREY"} {
		b.Run(name, func(b *testing.B) {
			f := patternFrame(b, name, 640, 480)
			p, n, _ := checkFrame(f.Encoding, false, 640, 480, int(f.Step), len(f.Data))
			fa, w, h := outSize(p, 640, 480, 0)
			var c Converter
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				c.convert(p, f.Data[:n], 640, 480, int(f.Step), fa, w, h)
			}
		})
	}
}

// BenchmarkFeed is Feed's cost on the capture goroutine.
func BenchmarkFeed(b *testing.B) {
	f := patternFrame(b, "YUYV", 640, 480)
	b.Run("no-viewer", func(b *testing.B) {
		s, _ := newTestStream(b, Config{})
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			s.Feed(f)
		}
	})
	b.Run("viewer-rate-skipped", func(b *testing.B) {
		s, _ := newTestStream(b, Config{})
		v, _ := s.addViewer()
		defer s.removeViewer(v)
		s.Feed(f) // due; the fake clock stands still, so the rest are skipped
		b.ReportAllocs()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			s.Feed(f)
		}
	})
	b.Run("viewer-due-copy", func(b *testing.B) {
		// Every frame due: validation and the copy into the encoder's
		// buffer (the encoder runs meanwhile and takes what it can).
		s, clk := newTestStream(b, Config{Rate: MaxRate})
		v, _ := s.addViewer()
		defer s.removeViewer(v)
		s.Feed(f)
		b.ReportAllocs()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			clk.add(time.Second)
			s.Feed(f)
		}
	})
}
