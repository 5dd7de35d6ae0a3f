package wire_test

import (
	"bytes"
	"testing"

	"github.com/telebridge/telebridge/pkg/furbot/wire"
)

// FuzzDecodeStatus: no panic on any input; a frame that decodes encodes to
// a frame that decodes to the same value (unknown blocks aside), and that
// encoding is stable. Blocks may come in any order, so the encoding need
// not equal the input (the golden tests pin exact bytes).
func FuzzDecodeStatus(f *testing.F) {
	for _, tc := range statusGolden {
		f.Add(unhex(f, tc.raw))
	}
	for _, tc := range statusMalformed {
		f.Add(unhex(f, tc.raw))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		var s wire.Status
		if err := wire.DecodeStatus(raw, &s); err != nil {
			return
		}
		if s.Present == 0 {
			return // only unknown blocks: nothing to encode (a 0-count frame is invalid)
		}
		enc := wire.AppendStatus(nil, &s)
		if len(enc) != wire.StatusSize(&s) {
			t.Fatalf("encoded %d bytes, StatusSize %d", len(enc), wire.StatusSize(&s))
		}
		var again wire.Status
		if err := wire.DecodeStatus(enc, &again); err != nil {
			t.Fatalf("re-decode of % x: %v", enc, err)
		}
		want := s
		want.Unknown = 0
		if again != want {
			t.Fatalf("round trip:\n got %+v\nwant %+v", again, want)
		}
		// The encoding is canonical (blocks in id order, reserved bytes
		// zero): encoding the re-decoded value gives the same bytes.
		if enc2 := wire.AppendStatus(nil, &again); !bytes.Equal(enc2, enc) {
			t.Fatalf("encoding not stable:\n got % x\nwant % x", enc2, enc)
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
		var c wire.Control
		if err := wire.DecodeControl(raw, &c); err != nil {
			return
		}
		if enc := wire.AppendControl(nil, &c); !bytes.Equal(enc, raw) {
			t.Fatalf("round trip:\n got % x\nwant % x", enc, raw)
		}
	})
}
