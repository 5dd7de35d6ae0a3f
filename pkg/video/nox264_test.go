//go:build nox264

package video

import (
	"errors"
	"strings"
	"testing"
)

// TestBuiltWithoutH264: a nox264 build says how to get H.264, and a
// pass-through stream (a camera that encodes itself) still works.
func TestBuiltWithoutH264(t *testing.T) {
	if _, err := NewStream(Config{Name: "front"}); !errors.Is(err, ErrNoH264) || !strings.Contains(err.Error(), "apt-get install libx264-dev") {
		t.Errorf("NewStream: %v", err)
	}
	if _, err := NewEncoder(EncoderConfig{Width: 64, Height: 48}); !errors.Is(err, ErrNoH264) {
		t.Errorf("NewEncoder: %v", err)
	}
	if _, err := NewStream(Config{Name: "front", PassThrough: true}); err != nil {
		t.Errorf("pass-through stream: %v", err)
	}
}
