package peer

import (
	"testing"

	"github.com/telebridge/telebridge/pkg/video"
)

func TestCapsFit(t *testing.T) {
	for _, tc := range []struct {
		name string
		caps Caps
		w, h int
		fps  float64
		want video.Setting
	}{
		{"no caps: the camera's own", Caps{}, 640, 480, 30, video.Setting{}},
		{"a bitrate cap alone shares the camera's encoder", Caps{MaxBitrate: 500_000}, 640, 480, 30, video.Setting{}},
		{"half size", Caps{Width: 320, Height: 240}, 640, 480, 30, video.Setting{Width: 320, Height: 240}},
		{"a wide box keeps the camera's aspect", Caps{Width: 640, Height: 240}, 640, 480, 30, video.Setting{Width: 320, Height: 240}},
		{"odd results are made even", Caps{Width: 333, Height: 1000}, 640, 480, 30, video.Setting{Width: 332, Height: 248}},
		{"a box larger than the camera is the camera", Caps{Width: 1920, Height: 1080}, 640, 480, 30, video.Setting{}},
		{"never below 16 px", Caps{Width: 64, Height: 48}, 4096, 100, 30, video.Setting{Width: 64, Height: 16}},
		{"a lower frame rate", Caps{FrameRate: 10}, 640, 480, 30, video.Setting{MaxFrameRate: 10}},
		{"a higher frame rate is the camera's", Caps{FrameRate: 60}, 640, 480, 30, video.Setting{}},
		{"both", Caps{Width: 160, Height: 120, FrameRate: 5}, 640, 480, 15, video.Setting{Width: 160, Height: 120, MaxFrameRate: 5}},
		{"camera size unknown: only the rate", Caps{Width: 160, Height: 120, FrameRate: 5}, 0, 0, 0, video.Setting{MaxFrameRate: 5}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.caps.Fit(tc.w, tc.h, tc.fps); got != tc.want {
				t.Fatalf("Fit = %+v, want %+v", got, tc.want)
			}
		})
	}
}
