package wire

import (
	"math"
	"testing"
)

// TestExpectEcho is the echo model as a table: the tracks mix the drive
// and turn sticks (saturated), the joints with a record echo their stick
// value, records without a command stay out of the mask.
func TestExpectEcho(t *testing.T) {
	slots := DefaultMotorSlots()
	noGripper := slots
	noGripper[Gripper] = None
	onTrack := slots
	onTrack[Flippers] = LeftTrackSlot
	all := uint16(1<<LeftTrackSlot | 1<<RightTrackSlot | 1<<2 | 1<<3 | 1<<4 | 1<<5 | 1<<6 | 1<<7)
	for _, c := range []struct {
		name  string
		ch    Channels
		slots *[NumJoints]int
		want  SpeedEcho
		mask  uint16
	}{
		{"still", Channels{}, &slots, SpeedEcho{}, all},
		{"forward", Channels{Linear: 21466}, &slots, SpeedEcho{21466, 21466}, all},
		{"turn left in place", Channels{Angular: 5034}, &slots, SpeedEcho{-5034, 5034}, all},
		{"arc", Channels{Linear: 14311, Angular: 5034}, &slots, SpeedEcho{9277, 19345}, all},
		{"saturated", Channels{Linear: 30000, Angular: 10000}, &slots, SpeedEcho{20000, math.MaxInt16}, all},
		{"saturated negative", Channels{Linear: -30000, Angular: 10000}, &slots, SpeedEcho{math.MinInt16, -20000}, all},
		{"joints", Channels{Joints: [NumJoints]int16{Waist: 100, Neck: -6553, Flippers: 7, Gripper: -32767}}, &slots,
			SpeedEcho{2: 7, 3: 100, 6: -6553, 7: -32767}, all},
		{"joint without a record", Channels{Joints: [NumJoints]int16{Gripper: 5}}, &noGripper, SpeedEcho{}, all &^ (1 << 7)},
		{"joint on a track record is ignored", Channels{Linear: 10, Joints: [NumJoints]int16{Flippers: 99}}, &onTrack, SpeedEcho{10, 10}, all &^ (1 << 2)},
	} {
		var got SpeedEcho
		got[9] = 123 // overwritten
		mask := ExpectEcho(&got, &c.ch, c.slots)
		if got != c.want || mask != c.mask {
			t.Errorf("%s: echo %v mask %b, want %v mask %b", c.name, got, mask, c.want, c.mask)
		}
	}
}

// TestEchoFromTelemetry: Echo and Speeds read the records of a packet.
func TestEchoFromTelemetry(t *testing.T) {
	var tel Telemetry
	for i := range tel.Motors {
		tel.Motors[i].SpeedCommand, tel.Motors[i].Speed = int16(i), int16(-i)
	}
	var e, s SpeedEcho
	e.Echo(&tel)
	s.Speeds(&tel)
	for i := range e {
		if e[i] != int16(i) || s[i] != int16(-i) {
			t.Fatalf("record %d: echo %d speed %d", i, e[i], s[i])
		}
	}
	cal := DefaultCalibration()
	if l, r := TrackSpeeds(0.3, -0.3, &cal); l != 21466 || r != -21466 {
		t.Errorf("track speeds %d %d for ±0.3 m/s", l, r)
	}
}
