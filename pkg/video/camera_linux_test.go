//go:build linux && cgo

package video

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"
)

// TestPatternCameraEncodes runs pkg/camera's test pattern into x264 and
// checks that capture follows the viewers: frames are encoded only while
// someone watches, and the access units carry increasing capture times.
func TestPatternCameraEncodes(t *testing.T) {
	var mu sync.Mutex
	var demand []int
	c, err := OpenCamera(CameraConfig{Name: "front", Device: "pattern:front", Stream: Config{FrameCode: true,
		OnViewers: func(n int) { mu.Lock(); demand = append(demand, n); mu.Unlock() }}})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- c.Run(ctx) }()
	time.Sleep(200 * time.Millisecond)
	if st := c.Stats(); st.FramesIn != 0 || st.Encoded != 0 {
		t.Errorf("nobody watching: %+v", st)
	}
	v, err := c.Subscribe(64)
	if err != nil {
		t.Fatal(err)
	}
	var last time.Time
	for i := 0; i < 20; i++ {
		au := recv(t, v)
		if i == 0 && !au.Key {
			t.Error("first access unit not a keyframe")
		}
		if !au.Capture.After(last) {
			t.Errorf("access unit %d: capture %v not after %v", i, au.Capture, last)
		}
		last = au.Capture
	}
	v.Close()
	time.Sleep(300 * time.Millisecond)
	n := c.Stats().Encoded
	time.Sleep(300 * time.Millisecond)
	if st := c.Stats(); st.Encoded != n {
		t.Errorf("still encoding after the last viewer left: %d then %d", n, st.Encoded)
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("run: %v", err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(demand) < 2 || demand[0] != 1 || demand[len(demand)-1] != 0 {
		t.Errorf("OnViewers calls %v, want 1 first and 0 last", demand)
	}
}

func TestOpenCameraRejectsAbsurdSizes(t *testing.T) {
	for _, sz := range [][2]int{{1, 1}, {641, 480}, {640, 8}, {10000, 480}} {
		if _, err := OpenCamera(CameraConfig{Name: "front", Device: "pattern:front", Width: sz[0], Height: sz[1]}); err == nil {
			t.Errorf("%dx%d accepted", sz[0], sz[1])
		}
	}
	if _, err := OpenCamera(CameraConfig{Name: "front", Device: "pattern:front", FrameRate: 5000}); err == nil {
		t.Error("5000 Hz accepted")
	}
	if _, err := OpenCamera(CameraConfig{Name: "front", Device: "pattern:front", Stream: Config{MaxBitrate: 500_000_000}}); !errors.Is(err, ErrBadConfig) {
		t.Errorf("500 Mbit/s cap: %v", err)
	}
}
