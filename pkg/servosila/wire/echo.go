package wire

import "math"

// The telemetry records of the two track motors (assumed: the records
// before the joints' DefaultMotorSlots; check on a real robot).
const (
	LeftTrackSlot  = 0
	RightTrackSlot = 1
)

// SpeedEcho is the speed command of every motor record of a telemetry
// packet [raw protocol units], indexed by record: what each motor reports
// as the command it received (Motor.SpeedCommand).
type SpeedEcho [NumMotors]int16

// Echo copies the speed commands of t's motor records into e.
func (e *SpeedEcho) Echo(t *Telemetry) {
	for i := range e {
		e[i] = t.Motors[i].SpeedCommand
	}
}

// Speeds copies the speeds of t's motor records into e.
func (e *SpeedEcho) Speeds(t *Telemetry) {
	for i := range e {
		e[i] = t.Motors[i].Speed
	}
}

// ExpectEcho sets in e the speed command each motor should report once the
// robot executes the channels ch, and returns the mask of the records that
// carry one (bit i for record i). The model (an assumption, check it on a
// real robot): the tracks LeftTrackSlot and RightTrackSlot receive the
// drive and turn sticks mixed with one scale, left = linear - angular and
// right = linear + angular (saturated to int16); each joint with a record
// in slots (None: no record) receives its channel's stick value. Records
// not in the mask are set to 0. The simulator reports exactly this, so the
// driver and the simulator share one definition.
func ExpectEcho(e *SpeedEcho, ch *Channels, slots *[NumJoints]int) (mask uint16) {
	*e = SpeedEcho{}
	l, a := int32(ch.Linear), int32(ch.Angular)
	e[LeftTrackSlot], e[RightTrackSlot] = sat16(l-a), sat16(l+a)
	mask = 1<<LeftTrackSlot | 1<<RightTrackSlot
	for j, s := range slots {
		if s == None || s < 0 || s >= NumMotors || s == LeftTrackSlot || s == RightTrackSlot {
			continue
		}
		e[s] = ch.Joints[j]
		mask |= 1 << s
	}
	return mask
}

// TrackSpeeds returns the track speeds [raw protocol units] a record
// reports for the left and right track speeds [m/s], at cal.Linear units
// per m/s (the stick scale of the mixing in ExpectEcho).
func TrackSpeeds(left, right float64, cal *Calibration) (int16, int16) {
	return Saturate(left, cal.Linear), Saturate(right, cal.Linear)
}

func sat16(v int32) int16 {
	switch {
	case v > math.MaxInt16:
		return math.MaxInt16
	case v < math.MinInt16:
		return math.MinInt16
	}
	return int16(v)
}
