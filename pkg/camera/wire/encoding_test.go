package wire

import (
	"errors"
	"testing"
)

func TestEncodingMap(t *testing.T) {
	cases := []struct {
		param      string
		fourcc     string
		encoding   string
		bpp        int
		compressed bool
	}{
		{"YUYV", "YUYV", "yuv422_yuy2", 2, false},
		{"uyvy", "UYVY", "uyvy", 2, false},
		{"GREY", "GREY", "mono8", 1, false},
		{"Y16", "Y16 ", "mono16", 2, false},
		{"BGGR", "BA81", "bayer_bggr8", 1, false},
		{"BA81", "BA81", "bayer_bggr8", 1, false},
		{"GBRG", "GBRG", "bayer_gbrg8", 1, false},
		{"GRBG", "GRBG", "bayer_grbg8", 1, false},
		{"RGGB", "RGGB", "bayer_rggb8", 1, false},
		{"RGB3", "RGB3", "rgb8", 3, false},
		{"BGR3", "BGR3", "bgr8", 3, false},
		{"MJPG", "MJPG", "jpeg", 0, true},
		{"mjpeg", "MJPG", "jpeg", 0, true},
		{"JPEG", "JPEG", "jpeg", 0, true},
	}
	for _, tc := range cases {
		f, err := ParsePixelFormat(tc.param)
		if err != nil {
			t.Errorf("%s: %v", tc.param, err)
			continue
		}
		want, _ := NewFourCC(tc.fourcc)
		if f.FourCC != want || f.Encoding != tc.encoding || f.BytesPerPixel != tc.bpp || f.Compressed != tc.compressed {
			t.Errorf("%s: got %+v (%s), want %s %s bpp %d compressed %v", tc.param, f, f.FourCC, tc.fourcc, tc.encoding, tc.bpp, tc.compressed)
		}
		if back, ok := LookupFormat(want); !ok || back != f {
			t.Errorf("LookupFormat(%s) = %+v, %v", tc.fourcc, back, ok)
		}
	}
	for _, bad := range []string{"", "NV12", "H264", "YU12", "RGB4", "toolong"} {
		if _, err := ParsePixelFormat(bad); !errors.Is(err, ErrUnsupportedFormat) {
			t.Errorf("ParsePixelFormat(%q) err = %v, want ErrUnsupportedFormat", bad, err)
		}
	}
	if got := FmtYUYV.String(); got != "YUYV" {
		t.Errorf("FmtYUYV.String() = %q", got)
	}
	if got := FourCC(0x0a414141).String(); got != "AAA." {
		t.Errorf("non-printable FourCC = %q", got)
	}
}

func TestResolveEncoding(t *testing.T) {
	grey, _ := ParsePixelFormat("GREY")
	yuyv, _ := ParsePixelFormat("YUYV")
	mjpg, _ := ParsePixelFormat("MJPG")
	grbg, _ := ParsePixelFormat("GRBG")
	cases := []struct {
		f        Format
		override string
		want     string
		ok       bool
	}{
		{yuyv, "", "yuv422_yuy2", true},
		{yuyv, "yuv422_yuy2", "yuv422_yuy2", true},
		{yuyv, "rgb8", "", false}, // would need a conversion
		{yuyv, "mono8", "", false},
		{grey, "bayer_grbg8", "bayer_grbg8", true}, // raw Bayer behind a GREY format
		{grbg, "mono8", "mono8", true},
		{grey, "mono16", "", false},
		{mjpg, "", "jpeg", true},
		{mjpg, "bayer_grbg8", "", false},
	}
	for _, tc := range cases {
		got, err := ResolveEncoding(tc.f, tc.override)
		if tc.ok != (err == nil) || got != tc.want {
			t.Errorf("ResolveEncoding(%s, %q) = %q, %v", tc.f.Name, tc.override, got, err)
		}
		if err != nil && !errors.Is(err, ErrBadEncoding) {
			t.Errorf("error %v does not wrap ErrBadEncoding", err)
		}
	}
}
