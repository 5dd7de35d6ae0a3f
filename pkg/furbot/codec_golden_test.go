package furbot

import (
	"encoding/hex"
	"math"
	"strings"
	"testing"
)

// unhex turns a readable hex string (spaces, newlines and | allowed) into
// bytes.
func unhex(t testing.TB, s string) []byte {
	t.Helper()
	clean := strings.NewReplacer(" ", "", "\n", "", "\t", "", "|", "").Replace(s)
	b, err := hex.DecodeString(clean)
	if err != nil {
		t.Fatalf("bad hex in test table: %v", err)
	}
	return b
}

// goldenFull is a status frame with all 12 blocks, written by hand from
// docs/protocols/furbot.md (not produced by the encoder).
var goldenFull = Status{
	Timestamp: 123456,
	Present:   AllBlocks,
	Comm:      Comm{State: 2, Flags: 1, RxFrames: 1234, Rejected: 3},
	BMS:       BMS{State: 2, Charge: 87, Current: 300, Voltage: 4800, TempHi: 31, TempLo: 23},
	Motion:    Motion{State: 2, Mode: 1, Flags: 1, LastSeq: 12345},
	Traction: Traction{State: 2, Mode: 1, Speed: 1500, Left: 500, Right: 502, Throttle: 150,
		Brake: 0, Reverse: 0, Odometer: 12345},
	Steering:   Steering{State: 2, Angle: -500, Target: -500},
	Hydraulics: Hydraulics{State: 2, Pump: 1, Pressure: 1500, OilTemp: 45, OilLevel: 90, Valves: 3},
	Suspension: [4]Suspension{
		{State: 2, Height: -10, Target: 0, Pressure: 400},
		{State: 2, Height: 10, Target: 0, Pressure: 402},
		{State: 2, Height: 0, Target: 0, Pressure: 300},
		{State: 2, Height: 5, Target: 0, Pressure: 302},
	},
	Forks: [2]Fork{
		{State: 2, Lift: 100, Tilt: -200, Shift: 0, Load: 500, Flags: 1},
		{State: 3, Lift: 0, Tilt: 0, Shift: -5, Load: 0, Flags: 0},
	},
}

const goldenFullHex = `
41545346 0001e240 0c 000000
00 06 | 02 01 04d2 0003
01 08 | 02 57 012c 12c0 1f 17
02 07 | 02 01 01 00003039
03 11 | 02 01 05dc 01f4 01f6 0096 0000 00 00003039
04 05 | 02 fe0c fe0c
05 08 | 02 01 05dc 2d 5a 0003
06 07 | 02 fff6 0000 0190
07 07 | 02 000a 0000 0192
08 07 | 02 0000 0000 012c
09 07 | 02 0005 0000 012e
0a 0b | 02 0064 ff38 0000 01f4 0001
0b 0b | 03 0000 0000 fffb 0000 0000
`

// statusGolden drives both decode and encode. decodeOnly marks frames the
// encoder does not reproduce byte for byte (it drops unknown blocks).
var statusGolden = []struct {
	name       string
	decoded    Status
	raw        string
	decodeOnly bool
}{
	{name: "all 12 blocks", decoded: goldenFull, raw: goldenFullHex},
	{
		name: "traction and steering only, reversing and braking",
		decoded: Status{
			Timestamp: 100,
			Present:   1<<BlockTraction | 1<<BlockSteering,
			Traction: Traction{State: 1, Mode: 0, Speed: -300, Left: -100, Right: -100, Throttle: 0,
				Brake: 200, Reverse: 1, Odometer: -1},
			Steering: Steering{State: 1, Angle: 1234, Target: 2000},
		},
		raw: `41545346 00000064 02 000000
		      03 11 | 01 00 fed4 ff9c ff9c 0000 00c8 01 ffffffff
		      04 05 | 01 04d2 07d0`,
	},
	{
		name: "timestamp at wrap, BMS halted and cold",
		decoded: Status{
			Timestamp: 0xffffffff,
			Present:   1 << BlockBMS,
			BMS:       BMS{State: 3, Charge: 0, Current: 65535, Voltage: 0, TempHi: -20, TempLo: -128},
		},
		raw: `41545346 ffffffff 01 000000
		      01 08 | 03 00 ffff 0000 ec 80`,
	},
	{
		name: "unknown block skipped by its length",
		decoded: Status{
			Timestamp: 7,
			Present:   1 << BlockSteering,
			Unknown:   2,
			Steering:  Steering{State: 2, Angle: 1, Target: -1},
		},
		raw: `41545346 00000007 03 000000
		      20 03 | aabbcc
		      04 05 | 02 0001 ffff
		      ff 00 |`,
		decodeOnly: true,
	},
}

var controlGolden = []struct {
	name    string
	decoded Control
	raw     string
}{
	{
		name:    "enabled, 15 deg left, 25 % throttle",
		decoded: Control{Seq: 1, Timestamp: 1000, Steer: 1500, Throttle: 250, Brake: 0, Flags: FlagEnable},
		raw:     "41544346 00000001 000003e8 000005dc 000000fa 0000 01 00",
	},
	{
		name:    "emergency stop, full brake, 25 deg right",
		decoded: Control{Seq: 0xfffffffe, Timestamp: 0, Steer: -2500, Throttle: 0, Brake: 1000, Flags: FlagEnable | FlagEStop},
		raw:     "41544346 fffffffe 00000000 fffff63c 00000000 03e8 03 00",
	},
	{
		name:    "reverse gear, 10 % throttle",
		decoded: Control{Seq: 7, Timestamp: 70, Steer: 0, Throttle: 100, Brake: 0, Flags: FlagEnable | FlagReverse},
		raw:     "41544346 00000007 00000046 00000000 00000064 0000 05 00",
	},
	{
		name:    "disabled, limits of the ranges",
		decoded: Control{Seq: 0, Timestamp: 0xffffffff, Steer: SteerMax, Throttle: PedalMax, Brake: PedalMax, Flags: 0},
		raw:     "41544346 00000000 ffffffff 00002328 000003e8 03e8 00 00",
	},
}

func TestStatusGoldenDecode(t *testing.T) {
	for _, tc := range statusGolden {
		t.Run(tc.name, func(t *testing.T) {
			var got Status
			if err := DecodeStatus(unhex(t, tc.raw), &got); err != nil {
				t.Fatalf("decode: %v", err)
			}
			if got != tc.decoded {
				t.Errorf("decode:\n got %+v\nwant %+v", got, tc.decoded)
			}
		})
	}
}

func TestStatusGoldenEncode(t *testing.T) {
	for _, tc := range statusGolden {
		if tc.decodeOnly {
			continue
		}
		t.Run(tc.name, func(t *testing.T) {
			want := unhex(t, tc.raw)
			got := AppendStatus(nil, &tc.decoded)
			if hex.EncodeToString(got) != hex.EncodeToString(want) {
				t.Errorf("encode:\n got %x\nwant %x", got, want)
			}
			if n := StatusSize(&tc.decoded); n != len(want) {
				t.Errorf("StatusSize = %d, want %d", n, len(want))
			}
		})
	}
}

func TestControlGolden(t *testing.T) {
	for _, tc := range controlGolden {
		t.Run(tc.name, func(t *testing.T) {
			raw := unhex(t, tc.raw)
			var got Control
			if err := DecodeControl(raw, &got); err != nil {
				t.Fatalf("decode: %v", err)
			}
			if got != tc.decoded {
				t.Errorf("decode: got %+v, want %+v", got, tc.decoded)
			}
			enc := AppendControl(nil, &tc.decoded)
			if hex.EncodeToString(enc) != hex.EncodeToString(raw) {
				t.Errorf("encode:\n got %x\nwant %x", enc, raw)
			}
		})
	}
}

func TestGoldenFullAllWorking(t *testing.T) {
	s := goldenFull
	if !s.AllWorking() {
		t.Fatalf("golden frame: working mask %012b, want all", s.WorkingMask())
	}
	if got := s.Traction.SpeedMPS(); got != 1.5 {
		t.Errorf("speed = %v m/s, want 1.5", got)
	}
	if l, r := s.Traction.WheelRates(); math.Abs(l-5) > 1e-12 || math.Abs(r-5.02) > 1e-12 {
		t.Errorf("wheel rates = %v, %v rad/s, want 5, 5.02", l, r)
	}
	s.Hydraulics.State = HydPriming
	if s.AllWorking() {
		t.Error("priming hydraulics counted as working")
	}
	s = goldenFull
	s.Present &^= 1 << BlockFrontFork
	if s.AllWorking() {
		t.Error("missing front fork counted as working")
	}
}

func TestBMSUnits(t *testing.T) {
	b := goldenFull.BMS
	if math.Abs(b.VoltageV()-48) > 1e-9 || math.Abs(b.CurrentA()-30) > 1e-9 || math.Abs(b.Percentage()-0.87) > 1e-9 {
		t.Errorf("BMS %v V %v A %v", b.VoltageV(), b.CurrentA(), b.Percentage())
	}
	if a := goldenFull.Steering.AngleRad(); math.Abs(a-(-5*math.Pi/180)) > 1e-12 {
		t.Errorf("steering %v rad, want -5 deg", a)
	}
}
