package camera

import (
	"bytes"
	"testing"
	"time"
)

func TestFrameCopy(t *testing.T) {
	src := []byte{1, 2, 3, 4, 5, 6, 7, 8}
	var copies countersForTest
	f := Frame{Header: Header{Stamp: time.Unix(5, 0), FrameID: "cam"}, Height: 2, Width: 2,
		Encoding: "yuv422_yuy2", Step: 4, Data: src, copies: &copies.c}
	var img Image
	img.Data = make([]byte, 0, 64)
	f.CopyTo(&img)
	if !bytes.Equal(img.Data, src) || img.Step != 4 || img.Encoding != "yuv422_yuy2" || img.Header != f.Header || img.Width != 2 {
		t.Fatalf("copy %+v", img)
	}
	if &img.Data[0] == &src[0] {
		t.Fatal("CopyTo aliases the driver buffer")
	}
	src[0] = 99 // the driver reuses its buffer
	if img.Data[0] != 1 {
		t.Error("message changed with the driver buffer")
	}
	jf := Frame{Encoding: "jpeg", Compressed: true, Data: []byte{0xff, 0xd8}, copies: &copies.c}
	var ci CompressedImage
	jf.CopyToCompressed(&ci)
	if ci.Format != "jpeg" || !bytes.Equal(ci.Data, []byte{0xff, 0xd8}) {
		t.Errorf("compressed copy %+v", ci)
	}
	if n := copies.c.Load(); n != 2 {
		t.Errorf("copy counter %d, want 2", n)
	}
	if a := testing.AllocsPerRun(100, func() { f.CopyTo(&img) }); a != 0 {
		t.Errorf("CopyTo into a preallocated message allocates %.0f times", a)
	}
}
