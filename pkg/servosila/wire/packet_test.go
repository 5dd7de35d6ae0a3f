package wire

import (
	"bytes"
	"encoding/hex"
	"errors"
	"strings"
	"testing"
)

// unhex turns hex text with spaces and line breaks into bytes.
func unhex(tb testing.TB, s string) []byte {
	tb.Helper()
	b, err := hex.DecodeString(strings.Join(strings.Fields(s), ""))
	if err != nil {
		tb.Fatalf("bad hex in test table: %v", err)
	}
	return b
}

// idleMotors is ten records with device ids 1..10 and nothing else.
func idleMotors() [NumMotors]Motor {
	var m [NumMotors]Motor
	for i := range m {
		m[i].DeviceID = uint8(i + 1)
	}
	return m
}

// Golden bytes, produced independently of this package (Python struct:
// '<B16h16Bd' for remote control, '<BQB' + 10 x '<BBBIhhhIhhBH' + 25 pad
// bytes for telemetry).
const (
	hexIdleMotors = `
		01 00 00 00000000 0000 0000 0000 00000000 0000 0000 00 0000
		02 00 00 00000000 0000 0000 0000 00000000 0000 0000 00 0000
		03 00 00 00000000 0000 0000 0000 00000000 0000 0000 00 0000`
	hexMotor4Busy = `
		04 02 01 00400000 50fb 0300 0101 ffffffff 0080 ff7f 01 efbe`
	hexMotor4Idle = `
		04 00 00 00000000 0000 0000 0000 00000000 0000 0000 00 0000`
	hexMotors5to10 = `
		05 00 00 00000000 0000 0000 0000 00000000 0000 0000 00 0000
		06 00 00 00000000 0000 0000 0000 00000000 0000 0000 00 0000
		07 00 00 00000000 0000 0000 0000 00000000 0000 0000 00 0000
		08 00 00 00000000 0000 0000 0000 00000000 0000 0000 00 0000
		09 00 00 00000000 0000 0000 0000 00000000 0000 0000 00 0000
		0a 00 00 00000000 0000 0000 0000 00000000 0000 0000 00 0000`
	hexUnused = `00000000000000000000000000000000000000000000000000`
)

var remoteControlCases = []struct {
	name    string
	decoded RemoteControl
	raw     string
}{
	{
		name:    "all zero",
		decoded: RemoteControl{FrameType: 1},
		raw: `01
			0000 0000 0000 0000 0000 0000 0000 0000 0000 0000 0000 0000 0000 0000 0000 0000
			00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00
			0000000000000000`,
	},
	{
		name:    "forward 0.3 m/s, left 0.5 rad/s",
		decoded: RemoteControl{FrameType: 1, Axes: [NumAxes]int16{0: 12586, 1: 21466}},
		raw: `01
			2a31 da53 0000 0000 0000 0000 0000 0000 0000 0000 0000 0000 0000 0000 0000 0000
			00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00
			0000000000000000`,
	},
	{
		name: "extremes, buttons, bit rate",
		decoded: RemoteControl{
			FrameType:    1,
			Axes:         [NumAxes]int16{-32768, 32767, -1, 1, 0, 256},
			Buttons:      [NumButtons]uint8{0: 1, 3: 1, 9: 1, 15: 255},
			VideoBitRate: 1.5e6,
		},
		raw: `01
			0080 ff7f ffff 0100 0000 0001 0000 0000 0000 0000 0000 0000 0000 0000 0000 0000
			01 00 00 01 00 00 00 00 00 01 00 00 00 00 00 ff
			0000000060e33641`,
	},
}

var telemetryCases = []struct {
	name    string
	decoded Telemetry
	raw     string
}{
	{
		name:    "idle",
		decoded: Telemetry{FrameType: 2, Tick: 1, MotorCount: 10, Motors: idleMotors()},
		raw:     `02 0100000000000000 0a` + hexIdleMotors + hexMotor4Idle + hexMotors5to10 + hexUnused,
	},
	{
		name: "motor 4 busy",
		decoded: func() Telemetry {
			t := Telemetry{FrameType: 2, Tick: 0x0102030405060708, MotorCount: 10, Motors: idleMotors()}
			t.Motors[3] = Motor{
				DeviceID: 4, State: 2, OperationMode: 1, Position: 16384, Speed: -1200,
				Current: 3, StatusBits: 0x0101, PositionCommand: 0xFFFFFFFF,
				SpeedCommand: -32768, CurrentCommand: 32767, FaultDetected: 1, FaultCounter: 0xBEEF,
			}
			return t
		}(),
		raw: `02 0807060504030201 0a` + hexIdleMotors + hexMotor4Busy + hexMotors5to10 + hexUnused,
	},
}

func TestLayoutSizes(t *testing.T) {
	for _, c := range []struct {
		l    Layout
		want int
	}{{RemoteControlLayout, 57}, {TelemetryLayout, 275}, {MotorLayout, 24}} {
		if c.l.Size != c.want {
			t.Errorf("%s layout: %d bytes, want %d", c.l.Name, c.l.Size, c.want)
		}
		end := 0
		for _, f := range c.l.Fields {
			if f.Offset != end {
				t.Errorf("%s.%s at %d, want packed at %d", c.l.Name, f.Name, f.Offset, end)
			}
			end += f.Size()
		}
	}
}

func TestRemoteControlGolden(t *testing.T) {
	for _, c := range remoteControlCases {
		t.Run(c.name, func(t *testing.T) {
			raw := unhex(t, c.raw)
			var got RemoteControl
			if err := DecodeRemoteControl(&got, raw, 1); err != nil {
				t.Fatal(err)
			}
			if got != c.decoded {
				t.Errorf("decode:\n got %+v\nwant %+v", got, c.decoded)
			}
			enc, err := EncodeRemoteControl(make([]byte, 64), &c.decoded)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(enc, raw) {
				t.Errorf("encode:\n got %x\nwant %x", enc, raw)
			}
		})
	}
}

func TestTelemetryGolden(t *testing.T) {
	for _, c := range telemetryCases {
		t.Run(c.name, func(t *testing.T) {
			raw := unhex(t, c.raw)
			var got Telemetry
			if err := DecodeTelemetry(&got, raw, 2); err != nil {
				t.Fatal(err)
			}
			if got != c.decoded {
				t.Errorf("decode:\n got %+v\nwant %+v", got, c.decoded)
			}
			enc, err := EncodeTelemetry(make([]byte, TelemetrySize), &c.decoded)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(enc, raw) {
				t.Errorf("encode:\n got %x\nwant %x", enc, raw)
			}
		})
	}
}

func TestMalformed(t *testing.T) {
	rc := unhex(t, remoteControlCases[1].raw)
	tel := unhex(t, telemetryCases[1].raw)
	with := func(b []byte, i int, v byte) []byte {
		c := bytes.Clone(b)
		c[i] = v
		return c
	}
	cases := []struct {
		name   string
		decode func([]byte) error
		raw    []byte
		want   error
	}{
		{"rc empty", decodeRC, nil, ErrLength},
		{"rc short", decodeRC, rc[:56], ErrLength},
		{"rc long", decodeRC, append(bytes.Clone(rc), 0), ErrLength},
		{"rc telemetry frame type", decodeRC, with(rc, 0, 2), ErrFrameType},
		{"rc telemetry packet", decodeRC, tel, ErrLength},
		{"tel empty", decodeTel, nil, ErrLength},
		{"tel short", decodeTel, tel[:274], ErrLength},
		{"tel long", decodeTel, append(bytes.Clone(tel), 0), ErrLength},
		{"tel remote-control frame type", decodeTel, with(tel, 0, 1), ErrFrameType},
		{"tel video frame type", decodeTel, with(tel, 0, 4), ErrFrameType},
		{"tel 11 motors", decodeTel, with(tel, 9, 11), ErrMotorCount},
		{"tel 255 motors", decodeTel, with(tel, 9, 255), ErrMotorCount},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := c.decode(c.raw)
			if !errors.Is(err, c.want) {
				t.Fatalf("error %v, want %v", err, c.want)
			}
			if !strings.HasPrefix(err.Error(), "servosila: decode ") {
				t.Errorf("error %q lacks its operation prefix", err)
			}
		})
	}
	if _, err := EncodeRemoteControl(make([]byte, 10), &RemoteControl{}); !errors.Is(err, ErrLength) {
		t.Errorf("encode into a short buffer: %v", err)
	}
	if _, err := EncodeTelemetry(make([]byte, 10), &Telemetry{}); !errors.Is(err, ErrLength) {
		t.Errorf("encode into a short buffer: %v", err)
	}
}

func decodeRC(b []byte) error  { var rc RemoteControl; return DecodeRemoteControl(&rc, b, 1) }
func decodeTel(b []byte) error { var t Telemetry; return DecodeTelemetry(&t, b, 2) }

func TestCodecAllocs(t *testing.T) {
	rcRaw := unhex(t, remoteControlCases[2].raw)
	telRaw := unhex(t, telemetryCases[1].raw)
	buf := make([]byte, TelemetrySize)
	var rc RemoteControl
	var tel Telemetry
	for name, f := range map[string]func(){
		"decode remote control": func() { _ = DecodeRemoteControl(&rc, rcRaw, 1) },
		"encode remote control": func() { _, _ = EncodeRemoteControl(buf, &rc) },
		"decode telemetry":      func() { _ = DecodeTelemetry(&tel, telRaw, 2) },
		"encode telemetry":      func() { _, _ = EncodeTelemetry(buf, &tel) },
	} {
		if n := testing.AllocsPerRun(100, f); n != 0 {
			t.Errorf("%s: %v allocs per run, want 0", name, n)
		}
	}
}

func BenchmarkDecodeRemoteControl(b *testing.B) {
	raw := unhex(b, remoteControlCases[2].raw)
	var rc RemoteControl
	b.ReportAllocs()
	b.SetBytes(int64(len(raw)))
	for b.Loop() {
		if err := DecodeRemoteControl(&rc, raw, 1); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkEncodeRemoteControl(b *testing.B) {
	rc := remoteControlCases[2].decoded
	buf := make([]byte, RemoteControlSize)
	b.ReportAllocs()
	b.SetBytes(int64(RemoteControlSize))
	for b.Loop() {
		if _, err := EncodeRemoteControl(buf, &rc); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDecodeTelemetry(b *testing.B) {
	raw := unhex(b, telemetryCases[1].raw)
	var t Telemetry
	b.ReportAllocs()
	b.SetBytes(int64(len(raw)))
	for b.Loop() {
		if err := DecodeTelemetry(&t, raw, 2); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkEncodeTelemetry(b *testing.B) {
	t := telemetryCases[1].decoded
	buf := make([]byte, TelemetrySize)
	b.ReportAllocs()
	b.SetBytes(int64(TelemetrySize))
	for b.Loop() {
		if _, err := EncodeTelemetry(buf, &t); err != nil {
			b.Fatal(err)
		}
	}
}
