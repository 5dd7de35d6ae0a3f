package wire

import (
	"testing"
)

func TestMappingEncode(t *testing.T) {
	m := DefaultMapping()
	for _, c := range []struct {
		name    string
		ch      Channels
		axes    map[int]int16
		buttons []int
		dropped uint32
	}{
		{"drive and turn", Channels{Linear: 1000, Angular: -500}, map[int]int16{1: 1000, 0: -500}, nil, 0},
		{"waist and shoulder hold button 9", Channels{Joints: [NumJoints]int16{Waist: 300, Shoulder: -200}}, map[int]int16{0: 300, 1: -200}, []int{9}, 0},
		{"waist dropped while driving", Channels{Linear: 1000, Joints: [NumJoints]int16{Waist: 300}}, map[int]int16{1: 1000}, nil, 1 << (chJoint0 + int(Waist))},
		{"elbow dropped while turning (shares button 9)", Channels{Angular: 100, Joints: [NumJoints]int16{Elbow: 300}}, map[int]int16{0: 100}, nil, 1 << (chJoint0 + int(Elbow))},
		{"neck while driving", Channels{Linear: 1000, Joints: [NumJoints]int16{Neck: -7}}, map[int]int16{1: 1000, 4: -7}, []int{10}, 0},
		{"flippers down use the reverse button", Channels{Joints: [NumJoints]int16{Flippers: -32768}}, map[int]int16{5: 32767}, []int{5}, 0},
		{"flippers up", Channels{Joints: [NumJoints]int16{Flippers: 40}}, map[int]int16{5: 40}, nil, 0},
		{"gripper open, headlight", Channels{Joints: [NumJoints]int16{Gripper: 1}, Headlight: true}, nil, []int{1, 3}, 0},
		{"gripper close", Channels{Joints: [NumJoints]int16{Gripper: -1}}, nil, []int{0}, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			var rc RemoteControl
			rc.Axes[7], rc.Buttons[7] = 99, 1 // stale values must be cleared
			dropped := m.Encode(&rc, &c.ch)
			var wantAxes [NumAxes]int16
			for a, v := range c.axes {
				wantAxes[a] = v
			}
			var wantButtons [NumButtons]uint8
			for _, b := range c.buttons {
				wantButtons[b] = 1
			}
			if rc.Axes != wantAxes || rc.Buttons != wantButtons || dropped != c.dropped {
				t.Errorf("got axes %v buttons %v dropped %b\nwant axes %v buttons %v dropped %b", rc.Axes, rc.Buttons, dropped, wantAxes, wantButtons, c.dropped)
			}
			// The robot side reads back what was sent (minus the dropped
			// channels; the gripper at full scale).
			var back Channels
			m.Decode(&back, &rc)
			want := c.ch
			for i := 0; i < numAxisChannels; i++ {
				if dropped&(1<<i) != 0 {
					want.set(i, 0)
				}
			}
			if g := want.Joints[Gripper]; g != 0 {
				want.Joints[Gripper] = 32767 * (g / abs16(g))
			}
			if f := want.Joints[Flippers]; f == -32768 {
				want.Joints[Flippers] = -32767 // one unit lost to the reverse button
			}
			if back != want {
				t.Errorf("decode: got %+v, want %+v", back, want)
			}
		})
	}
}

func TestMappingEncodeAllocs(t *testing.T) {
	m := DefaultMapping()
	ch := Channels{Linear: 1000, Joints: [NumJoints]int16{Waist: 3, Neck: 5, Flippers: -9, Gripper: 1}}
	var rc RemoteControl
	if n := testing.AllocsPerRun(100, func() { m.Encode(&rc, &ch); m.Decode(&ch, &rc) }); n != 0 {
		t.Errorf("%v allocs per run", n)
	}
}
