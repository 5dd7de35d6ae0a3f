package camera

import (
	"testing"

	"github.com/telebridge/telebridge/pkg/camera/wire"
)

func TestFillPattern(t *testing.T) {
	yuyv, _ := wire.ParsePixelFormat("YUYV")
	buf := make([]byte, 8*2*3)
	FillPattern(buf, yuyv, 16, 3, 0, 128)
	for i := 1; i < len(buf); i += 2 {
		if buf[i] != 128 {
			t.Fatalf("chroma byte %d = %d, want 128", i, buf[i])
		}
	}
	if buf[0] != 64 || buf[2] != 65 || buf[16] != 64 {
		t.Errorf("luma %v", buf[:18])
	}
	next := make([]byte, len(buf))
	FillPattern(next, yuyv, 16, 3, 1, 128)
	if next[0] != 72 {
		t.Errorf("next image luma[0] = %d, want 72 (bars moved by 8 px)", next[0])
	}
	FillPattern(buf, yuyv, 16, 3, 0, 255)
	if buf[0] != 191 {
		t.Errorf("brightness 255: luma[0] = %d, want 191", buf[0])
	}
	grey, _ := wire.ParsePixelFormat("GRBG")
	g := make([]byte, 4*2)
	FillPattern(g, grey, 4, 2, 0, 0)
	if g[0] != 0 || g[3] != 0 {
		t.Errorf("dark bayer %v (clamped at 0)", g)
	}
}

// The planned table behaves in a parameter store as the node needs: the
// parameters file's values are declared, a read-only parameter is refused,
// a control within range is accepted and reaches OnChange as a
// ControlChange, one out of range is refused.
