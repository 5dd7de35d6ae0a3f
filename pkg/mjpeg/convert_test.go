package mjpeg

import (
	"errors"
	"image"
	"testing"

	"github.com/telebridge/telebridge/pkg/camera"
	"github.com/telebridge/telebridge/pkg/camera/wire"
)

// The JPEG tolerance: quantisation at quality 75 plus chroma subsampling,
// measured at the middle of flat areas.
const tol = 12

func TestYUYVStripes(t *testing.T) {
	cols := [][3]uint8{yuvRed, yuvGreen, yuvBlue, yuvWhite}
	want := []rgb{{255, 0, 0}, {0, 255, 0}, {0, 0, 255}, {255, 255, 255}}
	for _, tc := range []struct {
		name       string
		w, h, step int
		maxWidth   int
		outW, outH int
	}{
		{"native", 640, 480, 1280, 0, 640, 480},
		{"padded rows", 320, 240, 700, 0, 320, 240},
		{"half", 640, 480, 1280, 320, 320, 240},
		{"quarter", 640, 480, 1280, 200, 160, 120},
		{"eighth", 640, 480, 1280, 100, 80, 60},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := yuyvStripes(tc.w, tc.h, tc.step, cols)
			img := decodeJPEG(t, encodeSync(t, f, tc.maxWidth))
			if b := img.Bounds(); b.Dx() != tc.outW || b.Dy() != tc.outH {
				t.Fatalf("size %v, want %dx%d", b.Size(), tc.outW, tc.outH)
			}
			sw := tc.outW / 4
			for i, c := range want {
				checkColour(t, img, i*sw+sw/2, tc.outH/2, c, tol)
			}
		})
	}
}

func TestUYVY(t *testing.T) {
	f := yuyvStripes(64, 16, 128, [][3]uint8{yuvRed, yuvBlue})
	// Reorder Y0 U Y1 V -> U Y0 V Y1.
	for i := 0; i+3 < len(f.Data); i += 4 {
		y0, u, y1, v := f.Data[i], f.Data[i+1], f.Data[i+2], f.Data[i+3]
		f.Data[i], f.Data[i+1], f.Data[i+2], f.Data[i+3] = u, y0, v, y1
	}
	f.Encoding = "uyvy"
	img := decodeJPEG(t, encodeSync(t, f, 0))
	checkColour(t, img, 16, 8, rgb{255, 0, 0}, tol)
	checkColour(t, img, 48, 8, rgb{0, 0, 255}, tol)
}

func TestBayer(t *testing.T) {
	left, right := rgb{200, 100, 50}, rgb{20, 180, 240}
	for _, enc := range []string{"bayer_rggb8", "bayer_bggr8", "bayer_gbrg8", "bayer_grbg8"} {
		for _, mw := range []int{0, 80} {
			f := bayerFrame(enc, 320, 240, left, right)
			img := decodeJPEG(t, encodeSync(t, f, mw))
			w, h := 160, 120 // one pixel per 2x2 cell
			if mw == 80 {
				w, h = 80, 60
			}
			if b := img.Bounds(); b.Dx() != w || b.Dy() != h {
				t.Fatalf("%s max %d: size %v, want %dx%d", enc, mw, b.Size(), w, h)
			}
			checkColour(t, img, w/4, h/2, left, tol)
			checkColour(t, img, 3*w/4, h/2, right, tol)
		}
	}
}

func TestGreyAndMono16(t *testing.T) {
	const w, h = 64, 32
	grey := make([]byte, w*h)
	mono16 := make([]byte, 2*w*h)
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			v := uint8(40)
			if x >= w/2 {
				v = 210
			}
			grey[y*w+x] = v
			mono16[2*(y*w+x)], mono16[2*(y*w+x)+1] = 0x5a, v // low byte is noise to drop
		}
	}
	for _, f := range []*camera.Frame{
		{Width: w, Height: h, Step: w, Encoding: "mono8", Data: grey},
		{Width: w, Height: h, Step: 2 * w, Encoding: "mono16", Data: mono16},
	} {
		img := decodeJPEG(t, encodeSync(t, f, 0))
		if _, ok := img.(*image.Gray); !ok {
			t.Errorf("%s: decoded %T, want a grey JPEG", f.Encoding, img)
		}
		checkColour(t, img, w/4, h/2, rgb{40, 40, 40}, 4)
		checkColour(t, img, 3*w/4, h/2, rgb{210, 210, 210}, 4)
	}
}

func TestRGBAndBGR(t *testing.T) {
	const w, h = 64, 32
	for _, enc := range []string{"rgb8", "bgr8"} {
		data := make([]byte, 3*w*h)
		for i := 0; i < w*h; i++ {
			c := rgb{230, 30, 10}
			if i%w >= w/2 {
				c = rgb{10, 60, 220}
			}
			if enc == "bgr8" {
				c.r, c.b = c.b, c.r
			}
			data[3*i], data[3*i+1], data[3*i+2] = c.r, c.g, c.b
		}
		f := &camera.Frame{Width: w, Height: h, Step: 3 * w, Encoding: enc, Data: data}
		img := decodeJPEG(t, encodeSync(t, f, 0))
		// bgr8 data holds the same colours with red and blue bytes swapped.
		left, right := rgb{230, 30, 10}, rgb{10, 60, 220}
		checkColour(t, img, w/4, h/2, left, tol)
		checkColour(t, img, 3*w/4, h/2, right, tol)
	}
}

func TestCheckFrameRejects(t *testing.T) {
	for _, tc := range []struct {
		name                string
		enc                 string
		compressed          bool
		w, h, step, dataLen int
		want                error
	}{
		{"unknown encoding", "yuv420", false, 8, 8, 8, 64, ErrUnknownEncoding},
		{"empty encoding", "", false, 8, 8, 8, 64, ErrUnknownEncoding},
		{"short data", "yuv422_yuy2", false, 640, 480, 1280, 1280*480 - 1, ErrBadFrame},
		{"step too small", "yuv422_yuy2", false, 640, 480, 1279, 1 << 20, ErrBadFrame},
		{"zero width", "mono8", false, 0, 8, 8, 64, ErrBadFrame},
		{"negative height", "mono8", false, 8, -1, 8, 64, ErrBadFrame},
		{"huge", "mono8", false, 1 << 20, 1, 1 << 20, 1 << 20, ErrBadFrame},
		{"odd yuyv width", "yuv422_yuy2", false, 7, 2, 14, 28, ErrBadFrame},
		{"bayer 1 row", "bayer_rggb8", false, 8, 1, 8, 8, ErrBadFrame},
		{"raw marked compressed", "mono8", true, 8, 8, 8, 64, ErrBadFrame},
		{"jpeg not marked compressed", "jpeg", false, 8, 8, 0, 64, ErrBadFrame},
		{"jpeg too short", "jpeg", true, 8, 8, 0, 3, ErrBadFrame},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := checkFrame(tc.enc, tc.compressed, tc.w, tc.h, tc.step, tc.dataLen)
			if !errors.Is(err, tc.want) {
				t.Fatalf("err %v, want %v", err, tc.want)
			}
		})
	}
	// The last row needs no padding: step*(h-1) + w*bpp bytes suffice.
	if _, n, err := checkFrame("mono8", false, 10, 3, 16, 42); err != nil || n != 42 {
		t.Fatalf("unpadded last row: n %d, err %v", n, err)
	}
}

func TestOutSize(t *testing.T) {
	yuyv, _ := lookup("yuv422_yuy2")
	bayer, _ := lookup("bayer_grbg8")
	for _, tc := range []struct {
		p                   *pixFormat
		w, h, maxW          int
		wantF, wantW, wantH int
	}{
		{yuyv, 640, 480, 0, 1, 640, 480},
		{yuyv, 640, 480, 640, 1, 640, 480},
		{yuyv, 640, 480, 639, 2, 320, 240},
		{yuyv, 1920, 1080, 320, 8, 240, 135},
		{yuyv, 16384, 16, 1, 16, 1024, 1}, // at most 16x; height stays >= 1
		{bayer, 640, 480, 0, 1, 320, 240},
		{bayer, 640, 480, 160, 2, 160, 120},
	} {
		f, w, h := outSize(tc.p, tc.w, tc.h, tc.maxW)
		if f != tc.wantF || w != tc.wantW || h != tc.wantH {
			t.Errorf("%s %dx%d max %d: %d %dx%d, want %d %dx%d", tc.p.enc, tc.w, tc.h, tc.maxW, f, w, h, tc.wantF, tc.wantW, tc.wantH)
		}
	}
}

// Every uncompressed format pkg/camera publishes is one a Stream encodes.
func TestEveryCameraFormat(t *testing.T) {
	for _, f := range wire.Formats() {
		if _, ok := lookup(f.Encoding); !ok {
			t.Errorf("camera format %s (%s) not handled", f.Name, f.Encoding)
		}
	}
}
