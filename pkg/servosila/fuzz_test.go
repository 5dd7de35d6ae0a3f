package servosila

import (
	"bytes"
	"testing"
)

// FuzzDecodeRemoteControl: any input either fails with an error or decodes
// to a value that encodes back to the same bytes.
func FuzzDecodeRemoteControl(f *testing.F) {
	for _, c := range remoteControlCases {
		f.Add(unhex(f, c.raw))
	}
	f.Add([]byte{1})
	f.Fuzz(func(t *testing.T, b []byte) {
		var rc RemoteControl
		if err := DecodeRemoteControl(&rc, b, 0); err != nil {
			return
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
	})
}

// FuzzDecodeTelemetry: same property for telemetry packets.
func FuzzDecodeTelemetry(f *testing.F) {
	for _, c := range telemetryCases {
		f.Add(unhex(f, c.raw))
	}
	f.Add(make([]byte, TelemetrySize))
	f.Fuzz(func(t *testing.T, b []byte) {
		var tel Telemetry
		if err := DecodeTelemetry(&tel, b, 0); err != nil {
			return
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
			t.Fatalf("decode -> encode -> decode differs")
		}
	})
}
