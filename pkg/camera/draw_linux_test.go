//go:build linux && cgo

package camera

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/telebridge/telebridge/pkg/camera/wire"
)

// A drawn source (Config.Draw) delivers what Draw painted, only while
// someone subscribes, and accepts a non-path label as its device.
func TestDrawnSource(t *testing.T) {
	var draws atomic.Int64
	draw := func(buf []byte, f wire.Format, step, height uint32) error {
		n := draws.Add(1)
		for i := range buf {
			buf[i] = byte(n)
		}
		return nil
	}
	if _, err := New(Config{Name: "w", Device: "world:front", PixelFormat: "MJPG", Draw: draw}, func(*Frame) {}); err != nil {
		t.Fatal(err) // New does not open; the open below refuses it
	}
	if _, err := openPattern(Config{Name: "w", Device: "world:front", PixelFormat: "MJPG", Draw: draw}, &counters{}); !errors.Is(err, ErrBadParam) {
		t.Errorf("compressed drawn source: %v, want ErrBadParam", err)
	}
	if _, err := New(Config{Name: "w", Device: "world:front"}, func(*Frame) {}); !errors.Is(err, ErrBadParam) {
		t.Errorf("label device without Draw: %v, want ErrBadParam", err)
	}
	got := make(chan byte, 64)
	c, err := New(Config{Name: "w", Device: "world:front", Width: 8, Height: 2, FrameRate: 100, Draw: draw}, func(f *Frame) {
		select {
		case got <- f.Data[len(f.Data)-1]:
		default:
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- c.Run(ctx) }()
	defer func() { cancel(); <-done }()
	time.Sleep(100 * time.Millisecond)
	if n := draws.Load(); n != 0 {
		t.Errorf("drawn %d pictures with nobody subscribed", n)
	}
	c.SetSubscribers(1, 0)
	for i := 0; i < 3; i++ {
		select {
		case b := <-got:
			if b == 0 {
				t.Errorf("frame %d: byte %d, want what Draw painted", i, b)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("no frame from the drawn source")
		}
	}
}
