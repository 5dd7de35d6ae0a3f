package wire

import (
	"fmt"
	"math"
)

// None marks an unused button in a Mapping.
const None = -1

// AxisChannel assigns one velocity to a gamepad axis.
type AxisChannel struct {
	// Axis is the axis index [0, 15].
	Axis int
	// Hold is a button that must be held for the axis to drive this channel
	// (the gamepad's mode switch), or None. A channel without Hold is
	// active while none of the Hold buttons of the channels sharing its
	// axis is pressed.
	Hold int
	// Reverse, if not None, makes the axis carry the magnitude only; the
	// button is held for a negative velocity (a trigger plus a bumper).
	Reverse int
	// Invert makes a positive velocity a negative axis value.
	Invert bool
}

// Mapping is the axis and button assignment of the emulated gamepad. It is
// configuration: correct it here for a real robot. The default is the
// assignment seen in a public client of the robot (see DefaultMapping).
type Mapping struct {
	Linear, Angular AxisChannel // the drive [m/s] and turn [rad/s] axes
	// Joints holds the axis channels of waist, shoulder, elbow, neck and
	// flippers (indexed by Joint; the Gripper entry is unused: the gripper
	// is driven by GripperOpen / GripperClose).
	Joints                    [NumJoints]AxisChannel
	GripperOpen, GripperClose int // buttons held to open / close the gripper
	Headlight                 int // button held while the headlight is on
}

// DefaultMapping returns the default assignment: drive axis 1, turn axis 0;
// waist on axis 0 and shoulder on axis 1 while button 9 is held; elbow on
// axis 3 while button 9 is held (assumed); neck on axis 4 while button 10
// is held; flippers on axis 5 with button 5 for the reverse direction;
// gripper open button 3, close button 0; headlight button 1.
func DefaultMapping() Mapping {
	return Mapping{
		Linear:  AxisChannel{Axis: 1, Hold: None, Reverse: None},
		Angular: AxisChannel{Axis: 0, Hold: None, Reverse: None},
		Joints: [NumJoints]AxisChannel{
			Waist:    {Axis: 0, Hold: 9, Reverse: None},
			Shoulder: {Axis: 1, Hold: 9, Reverse: None},
			Elbow:    {Axis: 3, Hold: 9, Reverse: None},
			Neck:     {Axis: 4, Hold: 10, Reverse: None},
			Flippers: {Axis: 5, Hold: None, Reverse: 5},
			Gripper:  {Axis: None, Hold: None, Reverse: None},
		},
		GripperOpen:  3,
		GripperClose: 0,
		Headlight:    1,
	}
}

// Channels are the protocol values of every logical channel (stick units,
// [-32768, 32767]); for the gripper only the sign counts.
type Channels struct {
	Linear, Angular int16            // drive and turn sticks
	Joints          [NumJoints]int16 // indexed by Joint
	Headlight       bool             // the headlight button is held
}

// channel indices in priority order: the chassis first, then the joints.
const (
	chLinear = iota
	chAngular
	chJoint0
	numAxisChannels = chJoint0 + int(Flippers) + 1
)

func (m *Mapping) axisChannel(i int) *AxisChannel {
	switch i {
	case chLinear:
		return &m.Linear
	case chAngular:
		return &m.Angular
	}
	return &m.Joints[i-chJoint0]
}

func (c *Channels) value(i int) int16 {
	switch i {
	case chLinear:
		return c.Linear
	case chAngular:
		return c.Angular
	}
	return c.Joints[i-chJoint0]
}

func (c *Channels) set(i int, v int16) {
	switch i {
	case chLinear:
		c.Linear = v
	case chAngular:
		c.Angular = v
	default:
		c.Joints[i-chJoint0] = v
	}
}

// Validate checks that every axis and button index is in range.
func (m *Mapping) Validate() error {
	btn := func(name string, b int) error {
		if b != None && (b < 0 || b >= NumButtons) {
			return fmt.Errorf("servosila: mapping: %s button %d out of [0, %d)", name, b, NumButtons)
		}
		return nil
	}
	for i := 0; i < numAxisChannels; i++ {
		c := m.axisChannel(i)
		if c.Axis < 0 || c.Axis >= NumAxes {
			return fmt.Errorf("servosila: mapping: channel %s axis %d out of [0, %d)", channelName(i), c.Axis, NumAxes)
		}
		if err := btn(channelName(i)+" hold", c.Hold); err != nil {
			return err
		}
		if err := btn(channelName(i)+" reverse", c.Reverse); err != nil {
			return err
		}
	}
	for _, b := range []struct {
		n string
		b int
	}{{"gripper open", m.GripperOpen}, {"gripper close", m.GripperClose}, {"headlight", m.Headlight}} {
		if err := btn(b.n, b.b); err != nil {
			return err
		}
	}
	return nil
}

func channelName(i int) string {
	switch i {
	case chLinear:
		return "linear"
	case chAngular:
		return "angular"
	}
	return Joint(i - chJoint0).String()
}

// held reports whether button b is pressed in rc (None is never pressed).
func held(rc *RemoteControl, b int) bool { return b != None && rc.Buttons[b] != 0 }

// active reports whether channel i is driven by its axis given the buttons.
func (m *Mapping) active(i int, rc *RemoteControl) bool {
	c := m.axisChannel(i)
	if c.Hold != None {
		return held(rc, c.Hold)
	}
	for j := 0; j < numAxisChannels; j++ {
		o := m.axisChannel(j)
		if j != i && o.Axis == c.Axis && held(rc, o.Hold) {
			return false
		}
	}
	return true
}

// Encode writes ch into the axes and buttons of rc (frame type and bit
// rate untouched) and returns a bit mask of the channels it had to drop
// because they share an axis or a mode button with a channel of higher
// priority (the chassis first, then waist, shoulder, elbow, neck,
// flippers): bit 0 linear, bit 1 angular, bit 2+j joint j. This is the
// protocol's "waist cannot rotate while the chassis moves". It allocates
// nothing.
func (m *Mapping) Encode(rc *RemoteControl, ch *Channels) (dropped uint32) {
	const unset = -1
	var btn [NumButtons]int8
	for i := range btn {
		btn[i] = unset
	}
	var claimed [NumAxes]bool
	rc.Axes = [NumAxes]int16{}
	// can reports whether button b may take state s; None always may.
	can := func(b int, s int8) bool { return b == None || btn[b] == unset || btn[b] == s }
	put := func(b int, s int8) {
		if b != None {
			btn[b] = s
		}
	}
	for i := 0; i < numAxisChannels; i++ {
		u := ch.value(i)
		if u == 0 {
			continue
		}
		c := m.axisChannel(i)
		ok := !claimed[c.Axis]
		if c.Hold != None {
			ok = ok && can(c.Hold, 1)
		}
		// Every other mode button on this axis must stay released.
		for j := 0; j < numAxisChannels && ok; j++ {
			o := m.axisChannel(j)
			if j != i && o.Axis == c.Axis && o.Hold != c.Hold {
				ok = can(o.Hold, 0)
			}
		}
		rev := int8(0)
		if c.Reverse != None && u < 0 {
			rev = 1
		}
		ok = ok && can(c.Reverse, rev)
		if !ok {
			dropped |= 1 << i
			continue
		}
		if c.Hold != None {
			put(c.Hold, 1)
		}
		for j := 0; j < numAxisChannels; j++ {
			o := m.axisChannel(j)
			if j != i && o.Axis == c.Axis && o.Hold != c.Hold {
				put(o.Hold, 0)
			}
		}
		put(c.Reverse, rev)
		if c.Reverse != None {
			u = abs16(u)
		}
		if c.Invert {
			u = neg16(u)
		}
		rc.Axes[c.Axis] = u
		claimed[c.Axis] = true
	}
	for i := range rc.Buttons {
		rc.Buttons[i] = 0
		if btn[i] == 1 {
			rc.Buttons[i] = 1
		}
	}
	g := ch.Joints[Gripper]
	switch {
	case g > 0 && m.GripperOpen != None:
		rc.Buttons[m.GripperOpen] = 1
	case g < 0 && m.GripperClose != None:
		rc.Buttons[m.GripperClose] = 1
	}
	if ch.Headlight && m.Headlight != None {
		rc.Buttons[m.Headlight] = 1
	}
	return dropped
}

// Decode is the robot side of Encode: it reads the channels that rc drives.
// The gripper gets full scale (±32767) in the direction of the pressed
// button; both buttons at once cancel.
func (m *Mapping) Decode(ch *Channels, rc *RemoteControl) {
	*ch = Channels{}
	for i := 0; i < numAxisChannels; i++ {
		if !m.active(i, rc) {
			continue
		}
		c := m.axisChannel(i)
		u := rc.Axes[c.Axis]
		if c.Invert {
			u = neg16(u)
		}
		if c.Reverse != None {
			u = abs16(u)
			if held(rc, c.Reverse) {
				u = -u
			}
		}
		ch.set(i, u)
	}
	if held(rc, m.GripperOpen) {
		ch.Joints[Gripper] += math.MaxInt16
	}
	if held(rc, m.GripperClose) {
		ch.Joints[Gripper] -= math.MaxInt16
	}
	ch.Headlight = held(rc, m.Headlight)
}

func neg16(u int16) int16 {
	if u == math.MinInt16 {
		return math.MaxInt16
	}
	return -u
}

func abs16(u int16) int16 {
	if u < 0 {
		return neg16(u)
	}
	return u
}

// DroppedNames returns the names of the channels in a Mapping.Encode mask,
// comma-separated ("" for none).
func DroppedNames(mask uint32) string {
	s := ""
	for i := 0; i < numAxisChannels; i++ {
		if mask&(1<<i) != 0 {
			if s != "" {
				s += ", "
			}
			s += channelName(i)
		}
	}
	return s
}
