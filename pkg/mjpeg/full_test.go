package mjpeg

import (
	"errors"
	"image"
	"testing"
)

// TestFull: the full-size conversion keeps the frame's size (a Bayer
// mosaic too, each cell's colour on its four pixels, green rounded),
// reads mono16 in the frame's byte order, refuses what it cannot convert,
// and allocates nothing once its image has the size.
func TestFull(t *testing.T) {
	var c Converter
	// grbg: G R / B G per cell; greens 10 and 13 -> 12 (rounded).
	bayer := []byte{10, 200, 10, 200, 30, 13, 30, 13}
	img, err := c.Full("bayer_grbg8", false, bayer, 4, 2, 4)
	if err != nil {
		t.Fatal(err)
	}
	m := img.(*image.RGBA)
	if b := m.Bounds(); b.Dx() != 4 || b.Dy() != 2 {
		t.Fatalf("bayer size %v, want 4x2", b.Size())
	}
	for y := 0; y < 2; y++ {
		for x := 0; x < 4; x++ {
			if got := m.RGBAAt(x, y); got.R != 200 || got.G != 12 || got.B != 30 || got.A != 0xff {
				t.Fatalf("bayer pixel %d,%d = %v, want 200 12 30", x, y, got)
			}
		}
	}
	mono16 := []byte{0x12, 0x34, 0x56, 0x78}
	for _, tc := range []struct {
		bigEndian bool
		want      [2]uint8
	}{{false, [2]uint8{0x34, 0x78}}, {true, [2]uint8{0x12, 0x56}}} {
		img, err := c.Full("mono16", tc.bigEndian, mono16, 2, 1, 4)
		if err != nil {
			t.Fatal(err)
		}
		if g := img.(*image.Gray).Pix; g[0] != tc.want[0] || g[1] != tc.want[1] {
			t.Errorf("mono16 big-endian %v: %x, want %x", tc.bigEndian, g[:2], tc.want)
		}
	}
	for _, tc := range []struct {
		enc  string
		w, h int
		want error
	}{
		{"bayer_rggb8", 4, 3, ErrBadFrame},
		{"jpeg", 4, 2, ErrBadFrame},
		{"nv21", 4, 2, ErrUnknownEncoding},
	} {
		if _, err := c.Full(tc.enc, false, make([]byte, 64), tc.w, tc.h, 8); !errors.Is(err, tc.want) {
			t.Errorf("%s %dx%d: %v, want %v", tc.enc, tc.w, tc.h, err, tc.want)
		}
	}
	frame := make([]byte, 64*48*3)
	if _, err := c.Full("rgb8", false, frame, 64, 48, 64*3); err != nil {
		t.Fatal(err)
	}
	if n := testing.AllocsPerRun(10, func() { _, _ = c.Full("rgb8", false, frame, 64, 48, 64*3) }); n != 0 {
		t.Errorf("Full: %.0f allocs per frame, want 0", n)
	}
}
