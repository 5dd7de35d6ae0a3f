package main

import (
	"time"

	servosilawire "github.com/telebridge/telebridge/pkg/servosila/wire"
)

// keyHold turns a terminal's key presses into "held" keys. A terminal
// reports no key releases, only repeats while a key stays down: after the
// first press the repeat starts after a delay (typically 250-600 ms), then
// comes about 30 times a second. So a key counts as held for firstHold
// after a single press, and for repeatHold after each repeat; when the
// repeats stop, the key is released. All times are injected.
type keyHold struct {
	firstHold, repeatHold time.Duration
	last                  [256]time.Time
	repeating             [256]bool
}

func newKeyHold() *keyHold {
	return &keyHold{firstHold: 600 * time.Millisecond, repeatHold: 150 * time.Millisecond}
}

// press records key c at now.
func (k *keyHold) press(c byte, now time.Time) {
	c = lower(c)
	k.repeating[c] = !k.last[c].IsZero() && now.Sub(k.last[c]) <= k.firstHold
	k.last[c] = now
}

// held reports whether key c still counts as held at now.
func (k *keyHold) held(c byte, now time.Time) bool {
	if k.last[c].IsZero() {
		return false
	}
	limit := k.firstHold
	if k.repeating[c] {
		limit = k.repeatHold
	}
	return now.Sub(k.last[c]) <= limit
}

// releaseAll forgets every key (after an emergency stop).
func (k *keyHold) releaseAll() {
	k.last = [256]time.Time{}
	k.repeating = [256]bool{}
}

func lower(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

type teleopSpeeds struct{ linear, angular, joint float64 }

// teleopKeys is the keyboard layout of the papers (plus I/K for the neck,
// which the papers leave to a slider): key, channel, direction.
var teleopKeys = []struct {
	key   byte
	joint int // -1 linear, -2 angular, else a servosilawire.Joint
	sign  float64
}{
	{'w', -1, +1}, {'s', -1, -1}, // drive forward / reverse
	{'a', -2, +1}, {'d', -2, -1}, // rotate left / right
	{'q', int(servosilawire.Waist), +1}, {'e', int(servosilawire.Waist), -1},
	{'y', int(servosilawire.Shoulder), +1}, {'h', int(servosilawire.Shoulder), -1},
	{'u', int(servosilawire.Elbow), +1}, {'j', int(servosilawire.Elbow), -1},
	{'i', int(servosilawire.Neck), +1}, {'k', int(servosilawire.Neck), -1},
	{'f', int(servosilawire.Flippers), +1}, {'r', int(servosilawire.Flippers), -1},
	{'t', int(servosilawire.Gripper), +1}, {'g', int(servosilawire.Gripper), -1}, // open / close
}

// keysCommand is the command of the keys held at now. Opposite keys held
// together cancel.
func keysCommand(k *keyHold, now time.Time, sp teleopSpeeds, headlight bool) servosilawire.Command {
	cmd := servosilawire.Command{Headlight: headlight}
	for _, m := range teleopKeys {
		if !k.held(m.key, now) {
			continue
		}
		switch m.joint {
		case -1:
			cmd.Linear += m.sign * sp.linear
		case -2:
			cmd.Angular += m.sign * sp.angular
		default:
			cmd.Joints[m.joint] += m.sign * sp.joint
		}
	}
	return cmd
}
