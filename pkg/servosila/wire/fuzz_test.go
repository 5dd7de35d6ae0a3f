package wire

import (
	"bytes"
	"errors"
	"testing"
)

// The fuzz targets check every input twice: as given (any error is fine,
// no panic), and fitted to the packet size (padded with zeros or cut), so
// that short inputs still exercise the full decoder and the fuzzer's
// minimisation does not stall on the length check.

// FuzzDecodeRemoteControl: decode never panics; what decodes encodes back
// to the same bytes and decodes again to the same value.
func FuzzDecodeRemoteControl(f *testing.F) {
	for _, c := range remoteControlCases {
		f.Add(unhex(f, c.raw))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var rc RemoteControl
		if err := DecodeRemoteControl(&rc, b, 1); err == nil {
			roundTripRC(t, b)
		}
		fitted := make([]byte, RemoteControlSize)
		copy(fitted, b)
		roundTripRC(t, fitted)
	})
}

func roundTripRC(t *testing.T, b []byte) {
	var rc RemoteControl
	if err := DecodeRemoteControl(&rc, b, 0); err != nil {
		t.Fatalf("%d-byte packet refused: %v", len(b), err)
	}
	enc, err := EncodeRemoteControl(make([]byte, RemoteControlSize), &rc)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(enc, b) {
		t.Fatalf("round trip:\n got %x\nwant %x", enc, b)
	}
	var again RemoteControl
	if err := DecodeRemoteControl(&again, enc, rc.FrameType); err != nil {
		t.Fatal(err)
	}
	if again.Axes != rc.Axes || again.Buttons != rc.Buttons {
		t.Fatal("decode -> encode -> decode differs")
	}
}

// FuzzDecodeTelemetry: same property for telemetry packets; a motor count
// above NumMotors is the only reason a full-size packet may be refused.
func FuzzDecodeTelemetry(f *testing.F) {
	for _, c := range telemetryCases {
		f.Add(unhex(f, c.raw))
	}
	f.Add(make([]byte, TelemetrySize))
	f.Fuzz(func(t *testing.T, b []byte) {
		var tel Telemetry
		if err := DecodeTelemetry(&tel, b, 2); err == nil {
			roundTripTelemetry(t, b)
		}
		fitted := make([]byte, TelemetrySize)
		copy(fitted, b)
		roundTripTelemetry(t, fitted)
	})
}

func roundTripTelemetry(t *testing.T, b []byte) {
	var tel Telemetry
	if err := DecodeTelemetry(&tel, b, 0); err != nil {
		if errors.Is(err, ErrMotorCount) && b[offTMotorCount] > NumMotors {
			return
		}
		t.Fatalf("%d-byte packet refused: %v", len(b), err)
	}
	if tel.MotorCount > NumMotors {
		t.Fatalf("accepted %d motors", tel.MotorCount)
	}
	enc, err := EncodeTelemetry(make([]byte, TelemetrySize), &tel)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(enc, b) {
		t.Fatalf("round trip:\n got %x\nwant %x", enc, b)
	}
	var again Telemetry
	if err := DecodeTelemetry(&again, enc, tel.FrameType); err != nil {
		t.Fatal(err)
	}
	if again != tel {
		t.Fatal("decode -> encode -> decode differs")
	}
}
