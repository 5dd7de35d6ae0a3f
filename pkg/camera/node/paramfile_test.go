package node

import (
	"errors"
	"os"
	"testing"

	"github.com/telebridge/telebridge/pkg/camera"
	"github.com/telebridge/telebridge/pkg/camera/wire"
)

func TestShippedParamsFile(t *testing.T) {
	data, err := os.ReadFile("../../../params/camera_publisher.yaml")
	if err != nil {
		t.Fatal(err)
	}
	cams, err := ParseParamsFile(data, "camera_publisher")
	if err != nil {
		t.Fatal(err)
	}
	want := []struct{ name, device, format, encoding string }{
		{"front_left", "/dev/video0", "GRBG", "bayer_grbg8"},
		{"front_right", "/dev/video1", "GRBG", "bayer_grbg8"},
		{"rear", "/dev/video2", "GRBG", "bayer_grbg8"},
		{"zoom", "/dev/video3", "YUYV", "yuv422_yuy2"},
	}
	if len(cams) != len(want) {
		t.Fatalf("%d cameras, want 4: %+v", len(cams), cams)
	}
	devices := map[string]bool{}
	for i, w := range want {
		c := cams[i]
		f, _ := wire.ParsePixelFormat(c.PixelFormat)
		enc, _ := wire.ResolveEncoding(f, c.Encoding)
		if c.Name != w.name || c.Device != w.device || c.PixelFormat != w.format || enc != w.encoding || c.FrameRate != 30 || c.BufferCount != 4 {
			t.Errorf("camera %d: %+v (encoding %s), want %+v", i, c, enc, w)
		}
		if devices[c.Device] {
			t.Errorf("device %s used twice", c.Device)
		}
		devices[c.Device] = true
	}
}

func TestParseParamsFileErrors(t *testing.T) {
	bad := map[string]string{
		"no node":        "other:\n  ros__parameters:\n    cameras: [a]\n",
		"no cameras":     "camera_publisher:\n  ros__parameters:\n    a:\n      width: 640\n",
		"shared device":  "camera_publisher:\n  ros__parameters:\n    cameras: [a, b]\n    a:\n      width: 640\n",
		"int for double": "camera_publisher:\n  ros__parameters:\n    cameras: [a]\n    a:\n      frame_rate: 15\n",
		"out of range":   "camera_publisher:\n  ros__parameters:\n    cameras: [a]\n    a:\n      buffer_count: 64\n",
		"bad value":      "camera_publisher:\n  ros__parameters:\n    cameras: [a]\n    a:\n      width: wide\n",
		"unknown param":  "camera_publisher:\n  ros__parameters:\n    cameras: [a]\n    a:\n      colour: red\n",
		"bad control":    "camera_publisher:\n  ros__parameters:\n    cameras: [a]\n    a:\n      controls:\n        gain: high\n",
	}
	for name, text := range bad {
		if _, err := ParseParamsFile([]byte(text), "camera_publisher"); !errors.Is(err, camera.ErrBadParam) {
			t.Errorf("%s: err = %v, want ErrBadParam", name, err)
		}
	}
	ok := "camera_publisher:\n  ros__parameters:\n    cameras: [a]\n    a:\n      frame_rate: 15.0\n      controls:\n        gain: 40\n"
	cams, err := ParseParamsFile([]byte(ok), "camera_publisher")
	if err != nil || cams[0].FrameRate != 15 || cams[0].Controls["gain"] != 40 || cams[0].Width != 640 {
		t.Errorf("ok file: %+v, %v", cams, err)
	}
}
