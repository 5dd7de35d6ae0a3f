//go:build linux && cgo

package camera

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/telebridge/telebridge/pkg/camera/control"
	"github.com/telebridge/telebridge/pkg/camera/wire"
)

// A camera whose device is missing keeps retrying with backoff, reports
// why, and stops cleanly on cancel. (Runs on any Linux machine: no device.)
func TestCameraMissingDeviceRetries(t *testing.T) {
	cam, err := New(Config{Name: "ghost", Device: filepath.Join(t.TempDir(), "video7")}, func(*Frame) {})
	if err != nil {
		t.Fatal(err)
	}
	cam.backoff = control.Backoff{Min: time.Millisecond, Max: 4 * time.Millisecond}
	cam.SetSubscribers(1, 1)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- cam.Run(ctx) }()
	deadline := time.Now().Add(5 * time.Second)
	for cam.Stats().OpenFails < 5 {
		if time.Now().After(deadline) {
			t.Fatalf("open attempts: %+v", cam.Stats())
		}
		time.Sleep(time.Millisecond)
	}
	if err := cam.Err(); !errors.Is(err, wire.ErrNoDevice) {
		t.Errorf("Err() = %v, want ErrNoDevice", err)
	}
	if _, open := cam.Negotiated(); open {
		t.Error("reports open")
	}
	stopRun(t, cancel, done)
	if st := cam.Stats(); st.Starts != 0 || st.Frames != 0 || st.Reopens != 0 {
		t.Errorf("stats %+v", st)
	}
}

func TestNewValidates(t *testing.T) {
	if _, err := New(Config{Name: "x"}, nil); !errors.Is(err, ErrBadParam) {
		t.Errorf("nil consumer: %v", err)
	}
	if _, err := New(Config{Name: "x", PixelFormat: "H264"}, func(*Frame) {}); !errors.Is(err, wire.ErrUnsupportedFormat) {
		t.Errorf("H264: %v", err)
	}
	if _, err := Open(Config{Name: "x", Device: filepath.Join(t.TempDir(), "none")}); !errors.Is(err, wire.ErrNoDevice) {
		t.Errorf("Open missing: %v", err)
	}
	if _, err := Open(Config{Name: "x", Device: "/dev/null"}); !errors.Is(err, wire.ErrNoDevice) {
		t.Errorf("Open /dev/null: %v", err)
	}
}
