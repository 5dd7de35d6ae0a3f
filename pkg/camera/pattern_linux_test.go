//go:build linux && cgo

package camera

import (
	"errors"
	"testing"
	"time"
)

func TestPatternSourceControlsAndProbe(t *testing.T) {
	if _, err := New(Config{Name: "a", Device: "pattern:a", PixelFormat: "MJPG"}, func(*Frame) {}); err != nil {
		t.Fatal(err)
	}
	if _, err := openPattern(Config{Name: "a", Device: "pattern:a", Controls: map[string]int64{"brightness": 300}}, &counters{}); !errors.Is(err, ErrBadParam) {
		t.Errorf("brightness 300: %v", err)
	}
	ctls, err := ProbeControls(Config{Name: "a", Device: "pattern:a", Controls: map[string]int64{"gain": 1}})
	if err != nil || len(ctls) != 1 || ctls[0].Param != PatternBrightness || ctls[0].Value != 128 {
		t.Errorf("probe: %+v %v", ctls, err)
	}
}

// The test source's per-frame path allocates nothing, like the device's.
func TestPatternNextAllocs(t *testing.T) {
	p, err := openPattern(Config{Name: "a", Device: "pattern:a", Width: 32, Height: 4, FrameRate: 1000}, &counters{})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if err := p.Start(); err != nil {
		t.Fatal(err)
	}
	var img Image
	fn := func(f *Frame) { f.CopyTo(&img) }
	if a := testing.AllocsPerRun(20, func() {
		if _, err := p.Next(time.Second, fn); err != nil {
			t.Fatal(err)
		}
	}); a != 0 {
		t.Errorf("Next allocates %.0f times per frame", a)
	}
}
