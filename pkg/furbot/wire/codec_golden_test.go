package wire_test

import (
	"encoding/hex"
	"math"
	"strings"
	"testing"

	"github.com/telebridge/telebridge/pkg/furbot/wire"
	"github.com/telebridge/telebridge/pkg/furbot/wire/wiretest"
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

// statusGolden drives both decode and encode. decodeOnly marks frames the
// encoder does not reproduce byte for byte (it drops unknown blocks).
var statusGolden = []struct {
	name       string
	decoded    wire.Status
	raw        string
	decodeOnly bool
}{
	{name: "all 12 blocks", decoded: wiretest.Full, raw: wiretest.FullHex},
	{
		name: "traction and steering only, reversing and braking",
		decoded: wire.Status{
			Timestamp: 100,
			Present:   1<<wire.BlockTraction | 1<<wire.BlockSteering,
			Traction: wire.Traction{State: 1, Mode: 0, Speed: -300, Left: -100, Right: -100, Throttle: 0,
				Brake: 200, Reverse: 1, Odometer: -1},
			Steering: wire.Steering{State: 1, Angle: 1234, Target: 2000},
		},
		raw: `41545346 00000064 02 000000
		      03 11 | 01 00 fed4 ff9c ff9c 0000 00c8 01 ffffffff
		      04 05 | 01 04d2 07d0`,
	},
	{
		name: "timestamp at wrap, BMS halted and cold",
		decoded: wire.Status{
			Timestamp: 0xffffffff,
			Present:   1 << wire.BlockBMS,
			BMS:       wire.BMS{State: 3, Charge: 0, Current: 65535, Voltage: 0, TempHi: -20, TempLo: -128},
		},
		raw: `41545346 ffffffff 01 000000
		      01 08 | 03 00 ffff 0000 ec 80`,
	},
	{
		name: "unknown block skipped by its length",
		decoded: wire.Status{
			Timestamp: 7,
			Present:   1 << wire.BlockSteering,
			Unknown:   2,
			Steering:  wire.Steering{State: 2, Angle: 1, Target: -1},
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
	decoded wire.Control
	raw     string
}{
	{
		name:    "enabled, 15 deg left, 25 % throttle",
		decoded: wire.Control{Seq: 1, Timestamp: 1000, Steer: 1500, Throttle: 250, Brake: 0, Flags: wire.FlagEnable},
		raw:     "41544346 00000001 000003e8 000005dc 000000fa 0000 01 00",
	},
	{
		name:    "emergency stop, full brake, 25 deg right",
		decoded: wire.Control{Seq: 0xfffffffe, Timestamp: 0, Steer: -2500, Throttle: 0, Brake: 1000, Flags: wire.FlagEnable | wire.FlagEStop},
		raw:     "41544346 fffffffe 00000000 fffff63c 00000000 03e8 03 00",
	},
	{
		name:    "reverse gear, 10 % throttle",
		decoded: wire.Control{Seq: 7, Timestamp: 70, Steer: 0, Throttle: 100, Brake: 0, Flags: wire.FlagEnable | wire.FlagReverse},
		raw:     "41544346 00000007 00000046 00000000 00000064 0000 05 00",
	},
	{
		name:    "disabled, limits of the ranges",
		decoded: wire.Control{Seq: 0, Timestamp: 0xffffffff, Steer: wire.SteerMax, Throttle: wire.PedalMax, Brake: wire.PedalMax, Flags: 0},
		raw:     "41544346 00000000 ffffffff 00002328 000003e8 03e8 00 00",
	},
}

func TestStatusGoldenDecode(t *testing.T) {
	for _, tc := range statusGolden {
		t.Run(tc.name, func(t *testing.T) {
			var got wire.Status
			if err := wire.DecodeStatus(unhex(t, tc.raw), &got); err != nil {
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
			got := wire.AppendStatus(nil, &tc.decoded)
			if hex.EncodeToString(got) != hex.EncodeToString(want) {
				t.Errorf("encode:\n got %x\nwant %x", got, want)
			}
			if n := wire.StatusSize(&tc.decoded); n != len(want) {
				t.Errorf("StatusSize = %d, want %d", n, len(want))
			}
		})
	}
}

func TestControlGolden(t *testing.T) {
	for _, tc := range controlGolden {
		t.Run(tc.name, func(t *testing.T) {
			raw := unhex(t, tc.raw)
			var got wire.Control
			if err := wire.DecodeControl(raw, &got); err != nil {
				t.Fatalf("decode: %v", err)
			}
			if got != tc.decoded {
				t.Errorf("decode: got %+v, want %+v", got, tc.decoded)
			}
			enc := wire.AppendControl(nil, &tc.decoded)
			if hex.EncodeToString(enc) != hex.EncodeToString(raw) {
				t.Errorf("encode:\n got %x\nwant %x", enc, raw)
			}
		})
	}
}

func TestGoldenFullAllWorking(t *testing.T) {
	s := wiretest.Full
	if !s.AllWorking() {
		t.Fatalf("golden frame: working mask %012b, want all", s.WorkingMask())
	}
	if got := s.Traction.SpeedMPS(); got != 1.5 {
		t.Errorf("speed = %v m/s, want 1.5", got)
	}
	if l, r := s.Traction.WheelRates(); math.Abs(l-5) > 1e-12 || math.Abs(r-5.02) > 1e-12 {
		t.Errorf("wheel rates = %v, %v rad/s, want 5, 5.02", l, r)
	}
	s.Hydraulics.State = wire.HydPriming
	if s.AllWorking() {
		t.Error("priming hydraulics counted as working")
	}
	s = wiretest.Full
	s.Present &^= 1 << wire.BlockFrontFork
	if s.AllWorking() {
		t.Error("missing front fork counted as working")
	}
}

func TestBMSUnits(t *testing.T) {
	b := wiretest.Full.BMS
	if math.Abs(b.VoltageV()-48) > 1e-9 || math.Abs(b.CurrentA()-30) > 1e-9 || math.Abs(b.Percentage()-0.87) > 1e-9 {
		t.Errorf("BMS %v V %v A %v", b.VoltageV(), b.CurrentA(), b.Percentage())
	}
	if a := wiretest.Full.Steering.AngleRad(); math.Abs(a-(-5*math.Pi/180)) > 1e-12 {
		t.Errorf("steering %v rad, want -5 deg", a)
	}
}
