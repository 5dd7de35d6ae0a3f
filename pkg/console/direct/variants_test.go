package direct_test

import (
	"context"
	"testing"
	"time"

	"github.com/telebridge/telebridge/pkg/console/direct"
	"github.com/telebridge/telebridge/pkg/mjpeg"
	"github.com/telebridge/telebridge/pkg/video"
	"github.com/telebridge/telebridge/pkg/video/peer"
)

// TestOpenVideoCaps: a page's resolution and frame-rate caps get an
// encoder of their own, shared by pages that ask for the same; caps the
// camera meets share the camera's encoder; the pictures really are the
// asked size; a camera makes at most MaxVariants settings.
func TestOpenVideoCaps(t *testing.T) {
	if !video.H264Available() {
		t.Skipf("%v", video.H264Unavailable())
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	be, err := direct.Start(ctx, direct.Config{Servosila: "off", Furbot: "off", NoJog: true, Cameras: []string{"pattern:front"},
		CameraWidth: 640, CameraHeight: 480, CameraRate: 30, Stream: mjpeg.Config{Rate: 10}})
	if err != nil {
		t.Fatal(err)
	}
	defer be.Close()
	own, err := be.OpenVideo("front", peer.Caps{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []peer.Caps{{MaxBitrate: 300_000}, {Width: 1280, Height: 720}, {FrameRate: 60}} {
		if s, err := be.OpenVideo("front", c); err != nil || s != own {
			t.Errorf("caps %+v: got a different source (%v), want the camera's own", c, err)
		}
	}
	half, err := be.OpenVideo("front", peer.Caps{Width: 320, Height: 240, FrameRate: 10})
	if err != nil || half == own {
		t.Fatalf("320x240 at 10 fps: %v, same as own %v", err, half == own)
	}
	if again, _ := be.OpenVideo("front", peer.Caps{Width: 330, Height: 240, FrameRate: 10}); again != half {
		t.Error("caps of the same setting got another encoder")
	}
	v, err := half.Subscribe(16)
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	select {
	case au := <-v.AccessUnits():
		if len(au.Data) == 0 {
			t.Fatal("empty access unit")
		}
	case <-time.After(20 * time.Second):
		t.Fatalf("no access unit from the 320x240 encoder; stats %+v", half.(*video.Stream).Stats())
	}
	st := half.(*video.Stream).Stats()
	if st.Width != 320 || st.Height != 240 {
		t.Fatalf("encoded %dx%d, want 320x240", st.Width, st.Height)
	}
	for i, c := range []peer.Caps{{Width: 160, Height: 120}, {FrameRate: 5}, {FrameRate: 7}} {
		if _, err := be.OpenVideo("front", c); err != nil {
			t.Fatalf("variant %d (%+v): %v", i+2, c, err)
		}
	}
	if _, err := be.OpenVideo("front", peer.Caps{FrameRate: 3}); err == nil {
		t.Fatalf("a %dth setting accepted", direct.MaxVariants+1)
	}
	if _, err := be.OpenVideo("nope", peer.Caps{}); err == nil {
		t.Fatal("an unknown camera opened")
	}
}
