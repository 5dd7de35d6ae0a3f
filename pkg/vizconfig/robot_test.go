package vizconfig_test

import (
	"strings"
	"testing"

	"github.com/telebridge/telebridge/pkg/camera"
	"github.com/telebridge/telebridge/pkg/qos"
	"github.com/telebridge/telebridge/pkg/vizconfig"
)

func TestResolve(t *testing.T) {
	r, err := vizconfig.Furbot()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ ns, name, want string }{
		{"", "odom", "/odom"},
		{"", "/tf", "/tf"},
		{"f1", "odom", "/f1/odom"},
		{"/f1/", "odom", "/f1/odom"},
		{"f1", "/diagnostics", "/diagnostics"},
	} {
		if got := r.Namespaced(c.ns, "").Resolve(vizconfig.Topic{Name: c.name}); got != c.want {
			t.Errorf("%q in %q: %q, want %q", c.name, c.ns, got, c.want)
		}
	}
	if got := r.Namespaced("", "f1/").Frame("odom"); got != "f1/odom" {
		t.Errorf("Frame %q", got)
	}
}

// Check refuses a robot no file could show, or a subscriber that would
// receive nothing.
func TestCheck(t *testing.T) {
	good, err := vizconfig.Servosila([]camera.Config{{Name: "front", PixelFormat: "YUYV"}})
	if err != nil {
		t.Fatal(err)
	}
	for name, mod := range map[string]func(*vizconfig.Robot){
		"no fixed frame":   func(r *vizconfig.Robot) { r.FixedFrame = "" },
		"no view distance": func(r *vizconfig.Robot) { r.ViewDistance = 0 },
		"untyped topic":    func(r *vizconfig.Robot) { r.Odometry.Type = "" },
		"reliable subscriber of best-effort images": func(r *vizconfig.Robot) {
			r.Cameras[0].Image.Publisher, r.Cameras[0].Image.Subscriber = qos.SensorData, qos.Default
		},
		"volatile publisher of a latched subscriber": func(r *vizconfig.Robot) {
			r.Description.Publisher = qos.Default
		},
	} {
		r := good
		r.Cameras = append([]vizconfig.Camera(nil), good.Cameras...)
		mod(&r)
		if err := r.Check(); err == nil {
			t.Errorf("%s: accepted", name)
		}
		if _, err := vizconfig.RViz(r); err == nil {
			t.Errorf("%s: RViz wrote it", name)
		}
		if _, err := vizconfig.Foxglove(r); err == nil {
			t.Errorf("%s: Foxglove wrote it", name)
		}
	}
}

// A compressed camera is shown from its CompressedImage topic; an unknown
// pixel format is refused.
func TestCameraTopics(t *testing.T) {
	r, err := vizconfig.Servosila([]camera.Config{{Name: "a", PixelFormat: "MJPG"}, {Name: "b", PixelFormat: "GRBG", FrameID: "b_frame"}})
	if err != nil {
		t.Fatal(err)
	}
	if c := r.Cameras[0]; c.Image.Name != "a/image_raw/compressed" || !strings.HasSuffix(c.Image.Type, "CompressedImage") || c.Frame != "a_optical_frame" {
		t.Errorf("MJPG camera %+v", c)
	}
	if c := r.Cameras[1]; c.Image.Name != "b/image_raw" || c.Image.Type != "sensor_msgs/msg/Image" || c.Frame != "b_frame" {
		t.Errorf("GRBG camera %+v", c)
	}
	if _, err := vizconfig.Servosila([]camera.Config{{Name: "x", PixelFormat: "NOPE"}}); err == nil {
		t.Error("unknown pixel format accepted")
	}
}
