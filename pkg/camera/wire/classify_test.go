package wire

import (
	"testing"
)

func TestClassify(t *testing.T) {
	const size, length = 614400, 614400
	cases := []struct {
		name              string
		flags, used, leng uint32
		image             uint32
		compressed        bool
		want              Verdict
	}{
		{"good", 0x2000, size, length, size, false, Good},
		{"good with padding after the image", 0, size + 64, length + 4096, size, false, Good},
		{"error flag", BufFlagError, size, length, size, false, ErrorFlag},
		{"error flag wins over size", BufFlagError, 0, length, size, false, ErrorFlag},
		{"empty", 0, 0, length, size, false, Empty},
		{"truncated", 0, size - 1, length, size, false, Truncated},
		{"half frame", 0, size / 2, length, size, false, Truncated},
		{"overlong", 0, length + 1, length, size, false, Overlong},
		{"jpeg small", 0, 12345, length, 0, true, Good},
		{"jpeg empty", 0, 0, length, 0, true, Empty},
		{"jpeg overlong", 0, length + 1, length, 0, true, Overlong},
		{"jpeg error", BufFlagError, 1000, length, 0, true, ErrorFlag},
	}
	for _, tc := range cases {
		if got := Classify(tc.flags, tc.used, tc.leng, tc.image, tc.compressed); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestImageSize(t *testing.T) {
	yuyv, _ := ParsePixelFormat("YUYV")
	grbg, _ := ParsePixelFormat("GRBG")
	mjpg, _ := ParsePixelFormat("MJPG")
	cases := []struct {
		f                  Format
		w, h, bpl          uint32
		wantStep, wantSize uint32
	}{
		{yuyv, 640, 480, 0, 1280, 614400}, // driver said nothing: compute
		{yuyv, 640, 480, 1280, 1280, 614400},
		{yuyv, 640, 480, 1536, 1536, 737280}, // padded rows
		{yuyv, 640, 480, 100, 1280, 614400},  // nonsense bytesperline ignored
		{grbg, 752, 480, 0, 752, 360960},
		{mjpg, 1280, 720, 0, 0, 0},
	}
	for _, tc := range cases {
		s, n := ImageSize(tc.f, tc.w, tc.h, tc.bpl)
		if s != tc.wantStep || n != tc.wantSize {
			t.Errorf("%s %dx%d bpl %d: step %d size %d, want %d %d", tc.f.Name, tc.w, tc.h, tc.bpl, s, n, tc.wantStep, tc.wantSize)
		}
	}
}
