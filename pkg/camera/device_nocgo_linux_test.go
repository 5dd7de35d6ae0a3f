//go:build linux && !cgo

package camera

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

// TestNoCgoPatternRunsDeviceSaysWhy: built without cgo, a pattern camera
// delivers frames and a V4L2 device fails to open saying it needs a cgo
// build (CGO_ENABLED=0 go test -run NoCgo ./pkg/camera, in check.sh).
func TestNoCgoPatternRunsDeviceSaysWhy(t *testing.T) {
	got := make(chan struct{}, 1)
	c, err := New(Config{Name: "p", Device: PatternPrefix + "p", Width: 64, Height: 48, FrameRate: 30}, func(*Frame) {
		select {
		case got <- struct{}{}:
		default:
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- c.Run(ctx) }()
	c.SetSubscribers(1, 0)
	select {
	case <-got:
	case <-time.After(20 * time.Second):
		t.Error("no pattern frame in 20 s")
	}
	cancel()
	if err := <-done; err != nil {
		t.Error(err)
	}
	if _, err := openDevice(Config{Name: "d", Device: "/dev/video0"}, &counters{}); !errors.Is(err, ErrNoDevice) || !strings.Contains(err.Error(), "cgo build") {
		t.Errorf("V4L2 device without cgo: %v", err)
	}
}
