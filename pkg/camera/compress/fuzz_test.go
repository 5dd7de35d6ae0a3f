package compress

import (
	"bytes"
	"image/jpeg"
	"testing"

	"github.com/telebridge/telebridge/pkg/camera"
)

// FuzzEncode: any geometry and bytes of any encoding either are refused
// with an error or give a JPEG that decodes to the frame's size; nothing
// panics or reads out of bounds.
func FuzzEncode(f *testing.F) {
	src := source(8, 4)
	for i, enc := range Encodings() {
		if enc == FormatJPEG {
			f.Add(uint8(i), uint16(8), uint16(4), uint16(0), []byte{0xff, 0xd8, 0xff, 0xd9})
			continue
		}
		fr := frameOf(f, src, enc, 0, false)
		f.Add(uint8(i), uint16(fr.Width), uint16(fr.Height), uint16(fr.Step), fr.Data)
	}
	f.Add(uint8(0), uint16(2), uint16(1), uint16(4), []byte{1, 2, 3, 4})
	f.Add(uint8(6), uint16(4), uint16(2), uint16(3), make([]byte, 8))
	f.Fuzz(func(t *testing.T, k uint8, w, h, step uint16, data []byte) {
		encs := Encodings()
		fr := &camera.Frame{Encoding: encs[int(k)%len(encs)], Width: uint32(w), Height: uint32(h), Step: uint32(step), Data: data}
		fr.Compressed = fr.Encoding == FormatJPEG
		e, _ := New(50)
		out, err := e.Encode(fr)
		if err != nil || fr.Compressed {
			return
		}
		img, err := jpeg.Decode(bytes.NewReader(out))
		if err != nil {
			t.Fatalf("%s %dx%d step %d: output does not decode: %v", fr.Encoding, w, h, step, err)
		}
		if b := img.Bounds(); b.Dx() != int(w) || b.Dy() != int(h) {
			t.Fatalf("%s: decoded %v, want %dx%d", fr.Encoding, b, w, h)
		}
	})
}
