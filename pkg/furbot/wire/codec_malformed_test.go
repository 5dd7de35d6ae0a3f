package wire_test

import (
	"errors"
	"testing"

	"github.com/telebridge/telebridge/pkg/furbot/wire"
)

var statusMalformed = []struct {
	name string
	raw  string
	want error
}{
	{"empty", "", wire.ErrShort},
	{"header cut at 11 bytes", "41545346 00000001 01 0000", wire.ErrShort},
	{"control magic in a status frame", "41544346 00000001 01 000000 04 05 02 0000 0000", wire.ErrMagic},
	{"zero system count", "41545346 00000001 00 000000", wire.ErrCount},
	{"count 2 with one block", "41545346 00000001 02 000000 04 05 02 0000 0000", wire.ErrTruncated},
	{"block header cut", "41545346 00000001 01 000000 04", wire.ErrTruncated},
	{"block data cut", "41545346 00000001 01 000000 04 05 02 0000 00", wire.ErrTruncated},
	{"unknown block longer than the frame", "41545346 00000001 01 000000 20 0a aabbcc", wire.ErrTruncated},
	{"BMS with length 7", "41545346 00000001 01 000000 01 07 02 57 012c 12c0 1f", wire.ErrBlockLength},
	{"steering with length 6", "41545346 00000001 01 000000 04 06 02 0000 0000 00", wire.ErrBlockLength},
	{"steering twice", "41545346 00000001 02 000000 04 05 02 0000 0000 04 05 02 0000 0000", wire.ErrDuplicate},
	{"trailing byte after the last block", "41545346 00000001 01 000000 04 05 02 0000 0000 00", wire.ErrTrailing},
}

var controlMalformed = []struct {
	name string
	raw  string
	want error
}{
	{"empty", "", wire.ErrShort},
	{"23 bytes", "41544346 00000001 000003e8 000005dc 000000fa 0000 01", wire.ErrShort},
	{"25 bytes", "41544346 00000001 000003e8 000005dc 000000fa 0000 01 00 00", wire.ErrTrailing},
	{"status magic", "41545346 00000001 000003e8 000005dc 000000fa 0000 01 00", wire.ErrMagic},
	{"reserved byte set", "41544346 00000001 000003e8 000005dc 000000fa 0000 01 01", wire.ErrFlags},
	{"undefined flag bit 3", "41544346 00000001 000003e8 000005dc 000000fa 0000 09 00", wire.ErrFlags},
	{"throttle 1001", "41544346 00000001 000003e8 000005dc 000003e9 0000 01 00", wire.ErrRange},
	{"throttle -1", "41544346 00000001 000003e8 000005dc ffffffff 0000 01 00", wire.ErrRange},
	{"brake 1001", "41544346 00000001 000003e8 000005dc 00000000 03e9 01 00", wire.ErrRange},
	{"brake -1", "41544346 00000001 000003e8 000005dc 00000000 ffff 01 00", wire.ErrRange},
	{"steer 90.01 deg", "41544346 00000001 000003e8 00002329 00000000 0000 01 00", wire.ErrRange},
	{"steer -90.01 deg", "41544346 00000001 000003e8 ffffdcd7 00000000 0000 01 00", wire.ErrRange},
}

func TestStatusMalformed(t *testing.T) {
	for _, tc := range statusMalformed {
		t.Run(tc.name, func(t *testing.T) {
			var s wire.Status
			err := wire.DecodeStatus(unhex(t, tc.raw), &s)
			if !errors.Is(err, tc.want) {
				t.Fatalf("error = %v, want %v", err, tc.want)
			}
			t.Logf("%v", err)
		})
	}
}

func TestControlMalformed(t *testing.T) {
	for _, tc := range controlMalformed {
		t.Run(tc.name, func(t *testing.T) {
			var c wire.Control
			err := wire.DecodeControl(unhex(t, tc.raw), &c)
			if !errors.Is(err, tc.want) {
				t.Fatalf("error = %v, want %v", err, tc.want)
			}
		})
	}
}
