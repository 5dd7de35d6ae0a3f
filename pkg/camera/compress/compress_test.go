package compress

import (
	"bytes"
	"errors"
	"image"
	"image/color"
	"image/jpeg"
	"math"
	"testing"

	"github.com/telebridge/telebridge/pkg/camera"
)

// source is the test scene: smooth colour gradients with a coarse
// checkerboard of brighter squares (luma edges), constant within each
// 2x2 cell so that a Bayer mosaic of it demosaics exactly.
func source(w, h int) *image.RGBA {
	m := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			cx, cy := x&^1, y&^1
			lift := 0
			if (cx/32+cy/32)%2 == 0 {
				lift = 30
			}
			m.SetRGBA(x, y, color.RGBA{
				R: uint8(30 + 150*cx/w + lift), G: uint8(30 + 150*cy/h + lift),
				B: uint8(190 - 120*cx/w + lift), A: 0xff,
			})
		}
	}
	return m
}

// frameOf packs src into a frame of encoding enc (rows padded by pad
// bytes, to exercise the step).
func frameOf(t testing.TB, src *image.RGBA, enc string, pad int, bigEndian bool) *camera.Frame {
	t.Helper()
	w, h := src.Rect.Dx(), src.Rect.Dy()
	bpp := map[string]int{"yuv422_yuy2": 2, "uyvy": 2, "mono8": 1, "mono16": 2, "rgb8": 3, "bgr8": 3,
		"bayer_rggb8": 1, "bayer_bggr8": 1, "bayer_gbrg8": 1, "bayer_grbg8": 1}[enc]
	if bpp == 0 {
		t.Fatalf("no packer for %s", enc)
	}
	step := w*bpp + pad
	data := make([]byte, step*h)
	at := func(x, y int) (r, g, b uint8) {
		c := src.RGBAAt(x, y)
		return c.R, c.G, c.B
	}
	for y := 0; y < h; y++ {
		row := data[y*step:]
		for x := 0; x < w; x++ {
			r, g, b := at(x, y)
			yy, cb, cr := color.RGBToYCbCr(r, g, b)
			switch enc {
			case "rgb8":
				row[3*x], row[3*x+1], row[3*x+2] = r, g, b
			case "bgr8":
				row[3*x], row[3*x+1], row[3*x+2] = b, g, r
			case "mono8":
				row[x] = yy
			case "mono16":
				hi, lo := yy, uint8(x*7+y) // the low byte is noise below the JPEG's 8 bits
				if bigEndian {
					row[2*x], row[2*x+1] = hi, lo
				} else {
					row[2*x], row[2*x+1] = lo, hi
				}
			case "yuv422_yuy2", "uyvy":
				yo, co := 0, 1
				if enc == "uyvy" {
					yo, co = 1, 0
				}
				row[2*x+yo] = yy
				if x%2 == 0 {
					_, cb1, cr1 := color.RGBToYCbCr(at(x+1, y))
					row[2*x+co] = uint8((int(cb) + int(cb1) + 1) / 2)
					row[2*x+co+2] = uint8((int(cr) + int(cr1) + 1) / 2)
				}
			default: // Bayer: the order names the 2x2 cell, row by row
				order := enc[len("bayer_") : len("bayer_")+4]
				switch order[(y%2)*2+x%2] {
				case 'r':
					row[x] = r
				case 'g':
					row[x] = g
				case 'b':
					row[x] = b
				}
			}
		}
	}
	var be uint8
	if bigEndian {
		be = 1
	}
	return &camera.Frame{Width: uint32(w), Height: uint32(h), Step: uint32(step), Encoding: enc, Data: data, IsBigEndian: be}
}

// meanError is the mean absolute difference [grey levels] between the
// decoded JPEG and src: over R, G and B, or over luma when grey.
func meanError(t testing.TB, jpg []byte, src *image.RGBA, grey bool) float64 {
	t.Helper()
	img, err := jpeg.Decode(bytes.NewReader(jpg))
	if err != nil {
		t.Fatalf("decode: %v", err)
	}
	if img.Bounds() != src.Rect {
		t.Fatalf("decoded size %v, want %v", img.Bounds(), src.Rect)
	}
	_, isGrey := img.(*image.Gray)
	if isGrey != grey {
		t.Fatalf("decoded a %T, grey want %v", img, grey)
	}
	sum, n := 0.0, 0
	for y := src.Rect.Min.Y; y < src.Rect.Max.Y; y++ {
		for x := src.Rect.Min.X; x < src.Rect.Max.X; x++ {
			s := src.RGBAAt(x, y)
			r, g, b, _ := img.At(x, y).RGBA()
			if grey {
				yy, _, _ := color.RGBToYCbCr(s.R, s.G, s.B)
				sum += math.Abs(float64(r>>8) - float64(yy))
				n++
				continue
			}
			sum += math.Abs(float64(r>>8)-float64(s.R)) + math.Abs(float64(g>>8)-float64(s.G)) + math.Abs(float64(b>>8)-float64(s.B))
			n += 3
		}
	}
	return sum / float64(n)
}

// TestRoundTrip: every raw encoding pkg/camera delivers, encoded at
// quality 90 and decoded, is the source scene within a few grey levels on
// average. The bound separates a right conversion from a wrong one: red
// and blue swapped is far beyond it (checked below).
func TestRoundTrip(t *testing.T) {
	const w, h, bound = 320, 240, 3.0
	src := source(w, h)
	cases := []struct {
		enc       string
		pad       int
		bigEndian bool
		grey      bool
	}{
		{enc: "yuv422_yuy2"},
		{enc: "yuv422_yuy2", pad: 64},
		{enc: "uyvy"},
		{enc: "mono8", grey: true},
		{enc: "mono8", pad: 3, grey: true},
		{enc: "mono16", grey: true},
		{enc: "mono16", bigEndian: true, grey: true},
		{enc: "rgb8"},
		{enc: "rgb8", pad: 5},
		{enc: "bgr8"},
		{enc: "bayer_rggb8"},
		{enc: "bayer_bggr8"},
		{enc: "bayer_gbrg8"},
		{enc: "bayer_grbg8", pad: 2},
	}
	enc, err := New(90)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range cases {
		f := frameOf(t, src, tc.enc, tc.pad, tc.bigEndian)
		jpg, err := enc.Encode(f)
		if err != nil {
			t.Fatalf("%s pad %d: %v", tc.enc, tc.pad, err)
		}
		e := meanError(t, jpg, src, tc.grey)
		t.Logf("%-12s pad %2d big-endian %-5v: %6d bytes, mean error %.2f", tc.enc, tc.pad, tc.bigEndian, len(jpg), e)
		if e > bound {
			t.Errorf("%s pad %d big-endian %v: mean error %.2f grey levels, want <= %v", tc.enc, tc.pad, tc.bigEndian, e, bound)
		}
	}
	// The bound discriminates: BGR bytes declared as RGB miss it widely.
	f := frameOf(t, src, "bgr8", 0, false)
	f.Encoding = "rgb8"
	jpg, err := enc.Encode(f)
	if err != nil {
		t.Fatal(err)
	}
	if e := meanError(t, jpg, src, false); e < 5*bound {
		t.Errorf("red and blue swapped: mean error %.2f, want far above %v", e, bound)
	}
}

// TestPassThrough: MJPG/JPEG frames come back as they are, not copied.
func TestPassThrough(t *testing.T) {
	jpg, err := camera.PatternJPEG(64, 48, 0, 128)
	if err != nil {
		t.Fatal(err)
	}
	enc, _ := New(DefaultQuality)
	f := &camera.Frame{Width: 64, Height: 48, Encoding: "jpeg", Compressed: true, Data: jpg}
	out, err := enc.Encode(f)
	if err != nil {
		t.Fatal(err)
	}
	if len(out) != len(jpg) || &out[0] != &jpg[0] {
		t.Errorf("jpeg frame not passed through as it is")
	}
}

// TestBadFrames: malformed frames are refused with the right sentinel.
func TestBadFrames(t *testing.T) {
	good := func() *camera.Frame {
		return &camera.Frame{Width: 4, Height: 2, Step: 8, Encoding: "yuv422_yuy2", Data: make([]byte, 16)}
	}
	cases := []struct {
		name string
		edit func(*camera.Frame)
		want error
	}{
		{"unknown encoding", func(f *camera.Frame) { f.Encoding = "nv21" }, ErrUnknownEncoding},
		{"empty encoding", func(f *camera.Frame) { f.Encoding = "" }, ErrUnknownEncoding},
		{"h264", func(f *camera.Frame) { f.Encoding = "h264" }, ErrUnknownEncoding},
		{"short data", func(f *camera.Frame) { f.Data = f.Data[:15] }, ErrBadFrame},
		{"no data", func(f *camera.Frame) { f.Data = nil }, ErrBadFrame},
		{"step below the row", func(f *camera.Frame) { f.Step = 7 }, ErrBadFrame},
		{"zero width", func(f *camera.Frame) { f.Width = 0 }, ErrBadFrame},
		{"zero height", func(f *camera.Frame) { f.Height = 0 }, ErrBadFrame},
		{"huge", func(f *camera.Frame) { f.Width, f.Step = 70000, 140000 }, ErrBadFrame},
		{"odd 4:2:2 width", func(f *camera.Frame) { f.Width = 3 }, ErrBadFrame},
		{"odd bayer height", func(f *camera.Frame) {
			f.Encoding, f.Width, f.Height, f.Step, f.Data = "bayer_grbg8", 4, 3, 4, make([]byte, 12)
		}, ErrBadFrame},
		{"jpeg without SOI", func(f *camera.Frame) { f.Encoding, f.Compressed, f.Data = "jpeg", true, []byte{1, 2, 3, 4} }, ErrBadFrame},
		{"jpeg too short", func(f *camera.Frame) { f.Encoding, f.Compressed, f.Data = "jpeg", true, []byte{0xff, 0xd8} }, ErrBadFrame},
	}
	enc, _ := New(DefaultQuality)
	if _, err := enc.Encode(good()); err != nil {
		t.Fatalf("the good frame: %v", err)
	}
	for _, tc := range cases {
		f := good()
		tc.edit(f)
		if _, err := enc.Encode(f); !errors.Is(err, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, err, tc.want)
		}
	}
}

// TestQuality: the range is checked at New and SetQuality, and a higher
// quality gives a larger, closer JPEG.
func TestQuality(t *testing.T) {
	for _, tc := range []struct {
		q  int
		ok bool
	}{{-1, false}, {0, false}, {1, true}, {50, true}, {100, true}, {101, false}} {
		_, err := New(tc.q)
		if ok := err == nil; ok != tc.ok || (!ok && !errors.Is(err, ErrBadQuality)) {
			t.Errorf("New(%d): %v, want ok %v", tc.q, err, tc.ok)
		}
	}
	enc, _ := New(20)
	if err := enc.SetQuality(0); !errors.Is(err, ErrBadQuality) || enc.Quality() != 20 {
		t.Errorf("SetQuality(0): %v, quality %d", err, enc.Quality())
	}
	src := source(160, 120)
	f := frameOf(t, src, "yuv422_yuy2", 0, false)
	low, _ := enc.Encode(f)
	low = append([]byte(nil), low...)
	if err := enc.SetQuality(95); err != nil {
		t.Fatal(err)
	}
	high, _ := enc.Encode(f)
	el, eh := meanError(t, low, src, false), meanError(t, high, src, false)
	t.Logf("quality 20: %d bytes, error %.2f; quality 95: %d bytes, error %.2f", len(low), el, len(high), eh)
	if len(high) <= len(low) || eh >= el {
		t.Errorf("quality 95 (%d bytes, error %.2f) not larger and closer than 20 (%d bytes, error %.2f)", len(high), eh, len(low), el)
	}
}

// TestEncodeAllocs: after the first frame, Encode allocates no more than
// image/jpeg's own jpeg.Encode of the converted picture does: the
// conversion and the output buffer are reused.
func TestEncodeAllocs(t *testing.T) {
	src := source(320, 240)
	for _, e := range []string{"yuv422_yuy2", "mono16", "rgb8", "bayer_grbg8"} {
		f := frameOf(t, src, e, 0, false)
		enc, _ := New(DefaultQuality)
		if _, err := enc.Encode(f); err != nil {
			t.Fatal(err)
		}
		img := mustConvert(t, enc, f)
		var out jpegBuf
		base := testing.AllocsPerRun(20, func() {
			out.b = out.b[:0]
			_ = jpeg.Encode(&out, img, &enc.opts)
		})
		got := testing.AllocsPerRun(20, func() { _, _ = enc.Encode(f) })
		t.Logf("%s: Encode %.0f allocs per frame, image/jpeg alone %.0f", e, got, base)
		if got > base {
			t.Errorf("%s: Encode %.0f allocs per frame, more than image/jpeg's %.0f", e, got, base)
		}
	}
	jf := &camera.Frame{Encoding: "jpeg", Compressed: true, Data: []byte{0xff, 0xd8, 0xff, 0xd9}}
	enc, _ := New(DefaultQuality)
	if n := testing.AllocsPerRun(20, func() { _, _ = enc.Encode(jf) }); n != 0 {
		t.Errorf("pass-through: %.0f allocs per frame, want 0", n)
	}
}

// mustConvert returns the encoder's converted picture of f.
func mustConvert(t testing.TB, e *Encoder, f *camera.Frame) image.Image {
	t.Helper()
	img, err := e.convert(f)
	if err != nil {
		t.Fatal(err)
	}
	return img
}

// TestEncodings lists every raw encoding of pkg/camera's format table.
func TestEncodings(t *testing.T) {
	got := map[string]bool{}
	for _, e := range Encodings() {
		got[e] = true
	}
	for _, e := range []string{"yuv422_yuy2", "uyvy", "mono8", "mono16", "rgb8", "bgr8",
		"bayer_rggb8", "bayer_bggr8", "bayer_gbrg8", "bayer_grbg8", "jpeg"} {
		if !got[e] {
			t.Errorf("Encodings lacks %s", e)
		}
	}
}
