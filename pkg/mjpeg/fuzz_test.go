package mjpeg

import (
	"errors"
	"image/jpeg"
	"testing"
	"time"

	"github.com/telebridge/telebridge/pkg/camera"
)

// FuzzFeed feeds frames of random geometry, encoding and data, watched:
// a frame is either rejected with ErrBadFrame/ErrUnknownEncoding and
// counted, or converted and encoded; nothing panics, and the converter
// (run here on the fuzzing goroutine as well, so a panic is reported with
// its input) never reads outside the data.
func FuzzFeed(f *testing.F) {
	encs := Encodings()
	f.Add(uint8(0), false, uint16(4), uint16(2), uint16(8), uint16(0), []byte("0123456789abcdef"))
	f.Add(uint8(6), false, uint16(4), uint16(4), uint16(4), uint16(0), make([]byte, 16))
	f.Add(uint8(6), false, uint16(4), uint16(4), uint16(4), uint16(8), make([]byte, 15))
	f.Add(uint8(10), true, uint16(0), uint16(0), uint16(0), uint16(0), []byte{0xff, 0xd8, 0xff, 0xd9})
	f.Add(uint8(3), false, uint16(3), uint16(3), uint16(5), uint16(2), make([]byte, 16))
	f.Add(uint8(200), false, uint16(1), uint16(1), uint16(1), uint16(0), []byte{1})
	f.Fuzz(func(t *testing.T, encIdx uint8, compressed bool, w, h, step, maxW uint16, data []byte) {
		enc := "unknown"
		if int(encIdx) < len(encs) {
			enc = encs[encIdx]
		}
		// Keep images small: the point is geometry against data length.
		fr := &camera.Frame{Width: uint32(w % 128), Height: uint32(h % 128), Step: uint32(step % 512),
			Encoding: enc, Compressed: compressed, Data: data}
		p, n, cerr := checkFrame(fr.Encoding, fr.Compressed, int(fr.Width), int(fr.Height), int(fr.Step), len(fr.Data))
		if cerr != nil {
			if !errors.Is(cerr, ErrBadFrame) && !errors.Is(cerr, ErrUnknownEncoding) {
				t.Fatalf("unexpected error kind: %v", cerr)
			}
		} else if p.kind != kindJPEG {
			if n > len(data) {
				t.Fatalf("checkFrame accepted %d bytes of %d", n, len(data))
			}
			fa, ow, oh := outSize(p, int(fr.Width), int(fr.Height), int(maxW%256))
			if ow < 1 || oh < 1 {
				t.Fatalf("output %dx%d", ow, oh)
			}
			var c Converter
			img := c.convert(p, data[:n], int(fr.Width), int(fr.Height), int(fr.Step), fa, ow, oh)
			if err := jpeg.Encode(&jpegBuf{}, img, nil); err != nil {
				t.Fatal(err)
			}
		}

		s, err := NewStream("fuzz", Config{MaxWidth: int(maxW % 256)})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		v, _ := s.addViewer()
		defer s.removeViewer(v)
		s.Feed(fr)
		st := s.Stats()
		valid := cerr == nil && (p.kind != kindJPEG || isJPEG(data))
		if valid != (st.Bad == 0) {
			t.Fatalf("valid %v but bad %d (%v)", valid, st.Bad, st.LastErr)
		}
		if valid {
			waitFor(t, "the frame published", func() bool { return s.Stats().Encoded == 1 })
			if st := s.Stats(); st.Bad != 0 {
				t.Fatalf("encoder rejected a frame Feed accepted: %v", st.LastErr)
			}
		}
	})
}

// Feed keeps working after many bad frames and counts each.
func TestFeedManyBadFrames(t *testing.T) {
	s, clk := newTestStream(t, Config{})
	v, _ := s.addViewer()
	defer s.removeViewer(v)
	for i := 0; i < 100; i++ {
		s.Feed(&camera.Frame{Width: uint32(i), Height: 480, Step: 1280, Encoding: "yuv422_yuy2", Data: make([]byte, i)})
	}
	clk.add(time.Second)
	s.Feed(yuyvStripes(16, 8, 32, [][3]uint8{yuvRed}))
	waitFor(t, "a good frame after bad ones", func() bool { return s.Stats().Encoded == 1 })
	if st := s.Stats(); st.Bad != 100 {
		t.Fatalf("bad %d, want 100", st.Bad)
	}
}
