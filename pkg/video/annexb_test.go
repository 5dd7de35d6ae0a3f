package video

import (
	"bytes"
	"encoding/hex"
	"testing"
)

func TestNextNAL(t *testing.T) {
	b := []byte{0, 0, 0, 1, 0x67, 1, 2, 0, 0, 1, 0x68, 3, 0, 0, 0, 0, 1, 0x65, 4, 5, 0}
	var types []int
	var sizes []int
	for nal, rest, ok := NextNAL(b); ok; nal, rest, ok = NextNAL(rest) {
		types = append(types, NALType(nal))
		sizes = append(sizes, len(nal))
	}
	if len(types) != 3 || types[0] != NALSPS || types[1] != NALPPS || types[2] != NALIDR {
		t.Errorf("types %v", types)
	}
	if sizes[0] != 3 || sizes[1] != 2 || sizes[2] != 3 {
		t.Errorf("sizes %v (trailing zeros trimmed)", sizes)
	}
	sps, pps := ParameterSets(b)
	if !bytes.Equal(sps, []byte{0x67, 1, 2}) || !bytes.Equal(pps, []byte{0x68, 3}) || !HasIDR(b) {
		t.Errorf("sps %x pps %x", sps, pps)
	}
	if _, _, ok := NextNAL([]byte{1, 2, 3}); ok {
		t.Error("NAL found in bytes without a start code")
	}
}

func TestAUSplitterAddsParameterSets(t *testing.T) {
	var s AUSplitter
	var aus [][]byte
	var keys []bool
	emit := func(au []byte, key bool) { aus, keys = append(aus, au), append(keys, key) }
	s.Push([]byte{0, 0, 0, 1, 0x41, 0x80}, emit) // P before any SPS: dropped
	s.Push([]byte{0, 0, 0, 1, 0x09, 0x10, 0, 0, 0, 1, 0x67, 7, 0, 0, 0, 1, 0x68, 8, 0, 0, 0, 1, 0x65, 0x80, 1}, emit)
	s.Push([]byte{0, 0, 1, 0x41, 0x80, 2, 0, 0, 1, 0x41, 0x80, 3}, emit) // two pictures in one buffer
	s.Push([]byte{0, 0, 1, 0x65, 0x80, 4, 0, 0, 1, 0x65, 0x00, 5}, emit) // IDR in two slices, no SPS/PPS
	if s.Dropped != 1 || len(aus) != 4 {
		t.Fatalf("dropped %d, %d access units: %x", s.Dropped, len(aus), aus)
	}
	if !keys[0] || keys[1] || keys[2] || !keys[3] {
		t.Errorf("keys %v", keys)
	}
	sps, pps := ParameterSets(aus[3])
	if !bytes.Equal(sps, []byte{0x67, 7}) || !bytes.Equal(pps, []byte{0x68, 8}) {
		t.Errorf("IDR without SPS/PPS not completed: %x", aus[3])
	}
	n := 0
	for _, rest, ok := NextNAL(aus[3]); ok; _, rest, ok = NextNAL(rest) {
		n++
	}
	if n != 4 {
		t.Errorf("%d NAL units in the second IDR, want SPS, PPS and two slices", n)
	}
}

// TestAUSplitterCompletesKeyframe: an IDR picture that carries only one
// of its parameter sets gets both of the latest, SPS first, before its
// own NAL units (fuzzing found an IDR with its SPS and no PPS passed on
// as a keyframe no decoder could start from).
func TestAUSplitterCompletesKeyframe(t *testing.T) {
	const (
		sps, pps, sps2, pps2, idr = "6701", "6802", "6703", "6804", "6580"
		nal                       = "00000001"
	)
	for _, c := range []struct {
		name, picture, want string
	}{
		{"both", nal + sps2 + nal + pps2 + nal + idr, nal + sps2 + nal + pps2 + nal + idr},
		{"neither", nal + idr, nal + sps + nal + pps + nal + idr},
		{"SPS only", nal + sps2 + nal + idr, nal + sps2 + nal + pps + nal + sps2 + nal + idr},
		{"PPS only", nal + pps2 + nal + idr, nal + sps + nal + pps2 + nal + pps2 + nal + idr},
	} {
		t.Run(c.name, func(t *testing.T) {
			var s AUSplitter
			var got []string
			emit := func(au []byte, key bool) {
				if !key {
					t.Errorf("%x not a key access unit", au)
				}
				got = append(got, hex.EncodeToString(au))
			}
			s.Push(unhex(t, nal+sps+nal+pps+nal+idr), emit) // the latest sets
			s.Push(unhex(t, c.picture), emit)
			if len(got) != 2 || got[1] != c.want {
				t.Fatalf("access units %v, want the second %s", got, c.want)
			}
		})
	}
}

func unhex(t *testing.T, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// FuzzAUSplitter: any byte stream (a camera's H.264 over the wire of a
// driver) never panics; every access unit is Annex-B, every key one holds
// SPS, PPS and an IDR slice.
func FuzzAUSplitter(f *testing.F) {
	f.Add([]byte{0, 0, 0, 1, 0x67, 7, 0, 0, 0, 1, 0x68, 8, 0, 0, 0, 1, 0x65, 0x80, 1, 0, 0, 1, 0x41, 0x80})
	f.Add([]byte{0, 0, 1, 0, 0, 1, 0, 0, 0})
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, b []byte) {
		var s AUSplitter
		half := len(b) / 2
		for _, buf := range [][]byte{b[:half], b[half:]} {
			s.Push(buf, func(au []byte, key bool) {
				if !bytes.HasPrefix(au, []byte{0, 0, 0, 1}) {
					t.Fatalf("access unit without a start code: %x", au)
				}
				if key {
					sps, pps := ParameterSets(au)
					if sps == nil || pps == nil || !HasIDR(au) {
						t.Fatalf("key access unit without SPS, PPS or IDR: %x", au)
					}
				}
			})
		}
	})
}
