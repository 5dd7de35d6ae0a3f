package camera

import (
	"errors"
	"testing"

	"github.com/telebridge/telebridge/pkg/camera/wire"
)

func TestConfigValidation(t *testing.T) {
	cases := []struct {
		name string
		cfg  Config
		want error
	}{
		{"no name", Config{}, ErrBadParam},
		{"bad name", Config{Name: "front-left"}, ErrBadParam},
		{"digit first", Config{Name: "1cam"}, ErrBadParam},
		{"relative device", Config{Name: "c", Device: "video0"}, ErrBadParam},
		{"negative width", Config{Name: "c", Width: -1}, ErrBadParam},
		{"huge height", Config{Name: "c", Height: 100000}, ErrBadParam},
		{"rate too high", Config{Name: "c", FrameRate: 5000}, ErrBadParam},
		{"negative rate", Config{Name: "c", FrameRate: -30}, ErrBadParam},
		{"one buffer", Config{Name: "c", BufferCount: 1}, ErrBadParam},
		{"many buffers", Config{Name: "c", BufferCount: 33}, ErrBadParam},
		{"unknown format", Config{Name: "c", PixelFormat: "NV12"}, wire.ErrUnsupportedFormat},
		{"converting encoding", Config{Name: "c", Encoding: "rgb8"}, wire.ErrBadEncoding},
		{"bad url", Config{Name: "c", CameraInfoURL: "http://x/y.yaml"}, ErrBadParam},
		{"relative file url", Config{Name: "c", CameraInfoURL: "file://cal.yaml"}, ErrBadParam},
		{"escaping package url", Config{Name: "c", CameraInfoURL: "package://p/../../etc/passwd"}, ErrBadParam},
		{"bad control", Config{Name: "c", Controls: map[string]int64{"a b": 1}}, ErrBadParam},
		{"ok bayer", Config{Name: "rear", PixelFormat: "GRBG", Width: 752, Height: 480, FrameRate: 15}, nil},
		{"ok package url", Config{Name: "c", CameraInfoURL: "package://telebridge/calibration/${NAME}.yaml"}, nil},
	}
	for _, tc := range cases {
		_, err := tc.cfg.Normalize()
		if tc.want == nil && err != nil || tc.want != nil && !errors.Is(err, tc.want) {
			t.Errorf("%s: err = %v, want %v", tc.name, err, tc.want)
		}
	}
}
