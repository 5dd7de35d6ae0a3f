package video

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"testing"
)

// solid makes a w x h frame of one colour (r, g, b) in encoding enc.
func solid(enc string, w, h int, r, g, b uint8) *Frame {
	bpp, _ := bytesPerPixel(enc)
	f := &Frame{Encoding: enc, Width: w, Height: h, Step: w * bpp}
	y, u, v := lumaOf(int(r), int(g), int(b)), uint8(0), uint8(0)
	u, v = chromaOf(int(r), int(g), int(b))
	switch enc {
	case "yuv422_yuy2", "uyvy":
		f.Data = bytes.Repeat(map[string][]byte{"yuv422_yuy2": {y, u, y, v}, "uyvy": {u, y, v, y}}[enc], w/2*h)
	case "mono8":
		f.Data = bytes.Repeat([]byte{y}, w*h)
	case "mono16":
		f.Data = bytes.Repeat([]byte{0x55, y}, w*h)
	case "rgb8":
		f.Data = bytes.Repeat([]byte{r, g, b}, w*h)
	case "bgr8":
		f.Data = bytes.Repeat([]byte{b, g, r}, w*h)
	case EncodingNV12:
		f.Data = append(bytes.Repeat([]byte{y}, w*h), bytes.Repeat([]byte{u, v}, w/2*h/2)...)
	default: // Bayer: place r, g, b by the cell order in the name
		order := enc[len("bayer_"):len("bayer_rggb")]
		val := map[byte]uint8{'r': r, 'g': g, 'b': b}
		f.Data = make([]byte, w*h)
		for yy := 0; yy < h; yy++ {
			for x := 0; x < w; x++ {
				f.Data[yy*w+x] = val[order[(yy%2)*2+x%2]]
			}
		}
	}
	return f
}

func TestConvertEveryFormat(t *testing.T) {
	colours := []struct{ r, g, b uint8 }{{255, 255, 255}, {255, 0, 0}, {0, 128, 255}, {16, 200, 30}}
	for _, enc := range Encodings() {
		if enc == EncodingH264 || enc == EncodingJPEG {
			continue
		}
		for _, c := range colours {
			t.Run(fmt.Sprintf("%s/%v", enc, c), func(t *testing.T) {
				f := solid(enc, 64, 48, c.r, c.g, c.b)
				var conv Converter
				var dst I420
				if err := conv.Convert(f, &dst); err != nil {
					t.Fatal(err)
				}
				wy := lumaOf(int(c.r), int(c.g), int(c.b))
				wu, wv := chromaOf(int(c.r), int(c.g), int(c.b))
				if enc == "mono8" || enc == "mono16" {
					wu, wv = 128, 128
				}
				if dst.Width != 64 || dst.Height != 48 || len(dst.Y) != 64*48 || len(dst.U) != 32*24 {
					t.Fatalf("size %dx%d planes %d/%d", dst.Width, dst.Height, len(dst.Y), len(dst.U))
				}
				if !near(dst.Y, wy) || !near(dst.U, wu) || !near(dst.V, wv) {
					t.Errorf("got Y %d U %d V %d, want %d %d %d", dst.Y[100], dst.U[50], dst.V[50], wy, wu, wv)
				}
				if n := testing.AllocsPerRun(20, func() { _ = conv.Convert(f, &dst) }); n != 0 {
					t.Errorf("%v allocations per frame, want 0", n)
				}
			})
		}
	}
}

// near reports whether every byte of p is within 1 of want.
func near(p []byte, want uint8) bool {
	for _, v := range p {
		if d := int(v) - int(want); d < -1 || d > 1 {
			return false
		}
	}
	return true
}

func TestConvertJPEG(t *testing.T) {
	for _, img := range []image.Image{
		image.NewGray(image.Rect(0, 0, 64, 48)),
		image.NewRGBA(image.Rect(0, 0, 64, 48)),
	} {
		switch m := img.(type) {
		case *image.Gray:
			for i := range m.Pix {
				m.Pix[i] = 90
			}
		case *image.RGBA:
			for y := 0; y < 48; y++ {
				for x := 0; x < 64; x++ {
					m.Set(x, y, color.RGBA{255, 0, 0, 255})
				}
			}
		}
		var b bytes.Buffer
		if err := jpeg.Encode(&b, img, &jpeg.Options{Quality: 95}); err != nil {
			t.Fatal(err)
		}
		var conv Converter
		var dst I420
		if err := conv.Convert(&Frame{Encoding: EncodingJPEG, Width: 64, Height: 48, Data: b.Bytes()}, &dst); err != nil {
			t.Fatal(err)
		}
		if dst.Width != 64 || dst.Height != 48 {
			t.Fatalf("size %dx%d", dst.Width, dst.Height)
		}
		t.Logf("%T: Y %d U %d V %d", img, dst.Y[500], dst.U[200], dst.V[200])
	}
}

func TestConvertRejectsBadFrames(t *testing.T) {
	var conv Converter
	var dst I420
	cases := []struct {
		f    Frame
		want error
	}{
		{Frame{Encoding: "rgba8", Width: 4, Height: 4, Step: 16, Data: make([]byte, 64)}, ErrUnknownEncoding},
		{Frame{Encoding: EncodingH264, Width: 4, Height: 4, Data: []byte{0, 0, 1, 0x65}}, ErrUnknownEncoding},
		{Frame{Encoding: "mono8", Width: 4, Height: 4, Step: 4, Data: make([]byte, 15)}, ErrBadFrame},
		{Frame{Encoding: "mono8", Width: 4, Height: 4, Step: 3, Data: make([]byte, 16)}, ErrBadFrame},
		{Frame{Encoding: "mono8", Width: 5, Height: 4, Step: 5, Data: make([]byte, 20)}, ErrBadSize},
		{Frame{Encoding: "mono8", Width: 0, Height: 0, Step: 0, Data: nil}, ErrBadSize},
		{Frame{Encoding: EncodingNV12, Width: 4, Height: 4, Step: 4, Data: make([]byte, 23)}, ErrBadFrame},
		{Frame{Encoding: EncodingJPEG, Width: 4, Height: 4, Data: []byte{0xff, 0xd8, 1, 2}}, ErrBadFrame},
	}
	for _, c := range cases {
		if err := conv.Convert(&c.f, &dst); !errors.Is(err, c.want) {
			t.Errorf("%s %dx%d step %d len %d: %v, want %v", c.f.Encoding, c.f.Width, c.f.Height, c.f.Step, len(c.f.Data), err, c.want)
		}
	}
}

// BenchmarkConvert converts one 640x480 frame of each format to I420.
func BenchmarkConvert(b *testing.B) {
	for _, enc := range Encodings() {
		if enc == EncodingH264 || enc == EncodingJPEG {
			continue
		}
		b.Run(enc, func(b *testing.B) {
			f := solid(enc, 640, 480, 10, 200, 60)
			var conv Converter
			var dst I420
			b.ReportAllocs()
			b.SetBytes(int64(len(f.Data)))
			for b.Loop() {
				_ = conv.Convert(f, &dst)
			}
		})
	}
}
