package furbot

import (
	"bytes"
	"testing"
)

// FuzzDecodeStatus: no panic on any input; a frame that decodes encodes to
// a frame that decodes to the same value (unknown blocks aside), and that
// encoding is stable.
func FuzzDecodeStatus(f *testing.F) {
	for _, tc := range statusGolden {
		f.Add(unhex(f, tc.raw))
	}
	for _, tc := range statusMalformed {
		f.Add(unhex(f, tc.raw))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		var s Status
		if err := DecodeStatus(raw, &s); err != nil {
			return
		}
		if s.Present == 0 {
			return // only unknown blocks: nothing to encode (a 0-count frame is invalid)
		}
		enc := AppendStatus(nil, &s)
		if len(enc) != StatusSize(&s) {
			t.Fatalf("encoded %d bytes, StatusSize %d", len(enc), StatusSize(&s))
		}
		var again Status
		if err := DecodeStatus(enc, &again); err != nil {
			t.Fatalf("re-decode of % x: %v", enc, err)
		}
		want := s
		want.Unknown = 0
		if again != want {
			t.Fatalf("round trip:\n got %+v\nwant %+v", again, want)
		}
		if s.Unknown == 0 && !bytes.Equal(enc[12:], raw[12:]) {
			t.Fatalf("blocks not reproduced:\n got % x\nwant % x", enc, raw)
		}
	})
}

// FuzzDecodeControl: no panic; a frame that decodes encodes back to the
// same bytes (the control frame has one canonical encoding).
func FuzzDecodeControl(f *testing.F) {
	for _, tc := range controlGolden {
		f.Add(unhex(f, tc.raw))
	}
	for _, tc := range controlMalformed {
		f.Add(unhex(f, tc.raw))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		var c Control
		if err := DecodeControl(raw, &c); err != nil {
			return
		}
		if enc := AppendControl(nil, &c); !bytes.Equal(enc, raw) {
			t.Fatalf("round trip:\n got % x\nwant % x", enc, raw)
		}
	})
}
