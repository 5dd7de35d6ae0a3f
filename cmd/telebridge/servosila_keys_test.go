package main

import (
	"testing"
	"time"

	servosilawire "github.com/telebridge/telebridge/pkg/servosila/wire"
)

func TestKeyHoldRepeats(t *testing.T) {
	t0 := time.Unix(100, 0)
	at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }
	k := newKeyHold()
	k.press('W', at(0)) // upper case is the same key
	for _, c := range []struct {
		ms   int
		want bool
	}{{0, true}, {300, true}, {599, true}, {601, false}} {
		if got := k.held('w', at(c.ms)); got != c.want {
			t.Errorf("single press, at %d ms: held %v, want %v", c.ms, got, c.want)
		}
	}
	// Hold: the first repeat after 500 ms, then every 33 ms.
	k = newKeyHold()
	k.press('w', at(0))
	last := 500
	k.press('w', at(last))
	for ms := 533; ms <= 1500; ms += 33 {
		k.press('w', at(ms))
		last = ms
	}
	if !k.held('w', at(last+100)) {
		t.Error("released too early while repeating")
	}
	if k.held('w', at(last+151)) {
		t.Error("still held 151 ms after the repeats stopped")
	}
	if k.held('s', at(last)) {
		t.Error("a key never pressed is held")
	}
	k.press('w', at(2000))
	k.releaseAll()
	if k.held('w', at(2000)) {
		t.Error("held after releaseAll")
	}
}

func TestKeysCommand(t *testing.T) {
	t0 := time.Unix(100, 0)
	sp := teleopSpeeds{linear: 0.3, angular: 0.6, joint: 0.2}
	k := newKeyHold()
	for _, c := range "wdqyf" {
		k.press(byte(c), t0)
	}
	k.press('g', t0) // gripper close
	got := keysCommand(k, t0.Add(10*time.Millisecond), sp, true)
	want := servosilawire.Command{Linear: 0.3, Angular: -0.6, Headlight: true}
	want.Joints[servosilawire.Waist] = 0.2
	want.Joints[servosilawire.Shoulder] = 0.2
	want.Joints[servosilawire.Flippers] = 0.2
	want.Joints[servosilawire.Gripper] = -0.2
	if got != want {
		t.Errorf("got %+v\nwant %+v", got, want)
	}
	k.press('s', t0) // opposite keys cancel
	if c := keysCommand(k, t0, sp, false); c.Linear != 0 {
		t.Errorf("W+S gives %g m/s", c.Linear)
	}
	if c := keysCommand(k, t0.Add(time.Second), sp, false); !c.IsZero() {
		t.Errorf("keys released, command %+v", c)
	}
}
