package control

import (
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/telebridge/telebridge/pkg/furbot/wire"
)

// ErrImplausible is wrapped by the reason a well-formed status frame was
// not used: its values jump further than the vehicle can move between two
// frames. The Furbot protocol has no checksum, so a corrupted frame (bit
// flips on a radio link, a faulty sender) decodes fine; these checks catch
// the corruption that matters for driving and odometry.
var ErrImplausible = errors.New("furbot: implausible status frame")

// Plausibility limits: physical bounds of a small freight vehicle with a
// wide margin (the simulated one accelerates at 2 m/s², brakes at 6 m/s²
// and steers at 0.8 rad/s), plus slack for the quantisation of the frame.
const (
	plausibleAccel      = 10.0 // speed change [m/s²]
	plausibleSpeedSlack = 0.2  // speed change always allowed [m/s]
	plausibleSteerRate  = 2.0  // road-wheel angle rate [rad/s]
	plausibleSteerSlack = 0.02 // angle change always allowed [rad]
	plausibleOdoSlack   = 0.05 // odometer advance always allowed [m]
	plausibleWheelSlack = 0.3  // wheel speed vs traction speed, plus 10 % [m/s]
	plausibleClockLead  = 2 * time.Second
	// reanchorAfter consecutive implausible frames make the checks take the
	// latest frame as the new reference, so that one corrupted reference
	// (or a sudden real change the limits did not foresee) cannot block the
	// vehicle's telemetry for good.
	reanchorAfter = 20
)

// Plausibility checks each status frame against the previous one it
// accepted. It is a plain value owned by the bridge's receive goroutine;
// create it with NewPlausibility.
type Plausibility struct {
	radius  float64 // rear wheel radius [m]
	have    bool
	ms      uint64 // vehicle time of the reference [ms]
	tr      wire.Traction
	hasTr   bool
	st      wire.Steering
	hasSt   bool
	ts      uint32    // raw timestamp of the reference
	at      time.Time // arrival of the reference
	bad     int       // consecutive implausible frames
	reanchd uint64
}

// NewPlausibility returns checks with no reference yet, for rear wheels
// of radius [m].
func NewPlausibility(radius float64) Plausibility { return Plausibility{radius: radius} }

// Reanchors returns how many times a run of implausible frames made the
// checks take the latest frame as their new reference.
func (p *Plausibility) Reanchors() uint64 { return p.reanchd }

// Clock checks the raw timestamp before it reaches the vehicle clock: a
// timestamp that leads the reference by more than the arrival interval
// plus plausibleClockLead is a corrupted one (a real clock does not run
// ahead of the frames' arrival); left alone it would make every true frame
// look old until the clock resynchronises.
func (p *Plausibility) Clock(ts uint32, at time.Time) error {
	if !p.have {
		return nil
	}
	d := ts - p.ts
	if d == 0 || d >= 1<<31 {
		return nil // older or repeated: the vehicle clock decides
	}
	lead := time.Duration(d)*time.Millisecond - at.Sub(p.at)
	if lead > plausibleClockLead {
		return fmt.Errorf("%w: timestamp %d ms leads the previous %d ms by %v more than the arrival interval", ErrImplausible, ts, p.ts, lead)
	}
	return nil
}

// Check returns nil when s (at vehicle time ms) is a plausible successor
// of the reference, and then makes it the reference.
func (p *Plausibility) Check(s *wire.Status, ms uint64, at time.Time) error {
	err := p.compare(s, ms)
	if err != nil {
		p.bad++
		if p.bad < reanchorAfter {
			return err
		}
		p.reanchd++
	}
	p.bad = 0
	p.have, p.ms, p.ts, p.at = true, ms, s.Timestamp, at
	if s.Has(wire.BlockTraction) {
		p.tr, p.hasTr = s.Traction, true
	}
	if s.Has(wire.BlockSteering) {
		p.st, p.hasSt = s.Steering, true
	}
	return nil
}

func (p *Plausibility) compare(s *wire.Status, ms uint64) error {
	if s.Has(wire.BlockTraction) {
		// Within a frame: the rear wheels and the traction speed agree.
		l, r := s.Traction.WheelRates()
		wheel := (l + r) / 2 * p.radius
		v := s.Traction.SpeedMPS()
		if math.Abs(wheel-v) > plausibleWheelSlack+0.1*math.Abs(v) {
			return fmt.Errorf("%w: wheel speed %.2f m/s against traction speed %.2f m/s", ErrImplausible, wheel, v)
		}
	}
	if !p.have || ms < p.ms {
		return nil
	}
	dt := float64(ms-p.ms) / 1000
	if s.Has(wire.BlockTraction) && p.hasTr {
		v0, v1 := p.tr.SpeedMPS(), s.Traction.SpeedMPS()
		if dv := math.Abs(v1 - v0); dv > plausibleAccel*dt+plausibleSpeedSlack {
			return fmt.Errorf("%w: speed jumped %.2f m/s in %.3f s", ErrImplausible, dv, dt)
		}
		d, ok := OdometerDelta(p.tr.Odometer, s.Traction.Odometer)
		limit := math.Max(math.Abs(v0), math.Abs(v1))*dt + plausibleAccel*dt*dt/2 + plausibleOdoSlack
		// A reset (the odometer went back) is left to the odometry, which
		// holds the pose across it; only a forward jump is impossible.
		if ok && float64(d)*wire.OdometerScale > limit {
			return fmt.Errorf("%w: odometer jumped %.2f m in %.3f s", ErrImplausible, float64(d)*wire.OdometerScale, dt)
		}
	}
	if s.Has(wire.BlockSteering) && p.hasSt {
		if da := math.Abs(s.Steering.AngleRad() - p.st.AngleRad()); da > plausibleSteerRate*dt+plausibleSteerSlack {
			return fmt.Errorf("%w: steering angle jumped %.3f rad in %.3f s", ErrImplausible, da, dt)
		}
	}
	return nil
}

// Restart forgets the reference (the vehicle clock restarted).
func (p *Plausibility) Restart() { p.have, p.hasTr, p.hasSt, p.bad = false, false, false, 0 }
