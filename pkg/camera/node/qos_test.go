package node

import (
	"testing"

	"github.com/telebridge/telebridge/pkg/camera"
	"github.com/telebridge/telebridge/pkg/qos"
	"github.com/telebridge/telebridge/pkg/rosqos"
)

func TestPublishersAreREP2003(t *testing.T) {
	got := Publishers([]camera.Config{{Name: "front", PixelFormat: "YUYV"}, {Name: "rear", PixelFormat: "MJPG"}})
	// A raw camera publishes its JPEG too (image_raw/compressed), a MJPG one only that.
	want := []string{"front/image_raw", "front/image_raw/compressed", "front/camera_info", "rear/image_raw/compressed", "rear/camera_info"}
	if len(got) != len(want) {
		t.Fatalf("publishers %+v, want topics %v", got, want)
	}
	for i, p := range got {
		if p.Topic != want[i] || p.Default != qos.Default {
			t.Errorf("publisher %d = %+v, want %s with the system default", i, p, want[i])
		}
		for _, sub := range []qos.Profile{qos.Default, qos.SensorData} {
			if !qos.Compatible(p.Default, sub) {
				t.Errorf("%s: a subscriber with %+v does not match", p.Topic, sub)
			}
		}
	}
	if rosqos.ParamName("/front/image_raw", rosqos.PolicyReliability) != "qos_overrides./front/image_raw.publisher.reliability" {
		t.Error("parameter name")
	}
}
