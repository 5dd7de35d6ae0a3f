package jog

import (
	"time"

	"github.com/telebridge/telebridge/pkg/jog/control"
)

// Emitting targets: the point sent, its relative command, the lookahead.

func (c *Controller) emitBuf(now time.Time, d time.Duration, hold bool, pos, vel []float64) JointTarget {
	c.sent++
	c.out.Stamp, c.out.Positions, c.out.Velocities, c.out.TimeFromStart, c.out.Hold = now, pos, vel, d, hold
	c.out.Next, c.out.NextVelocities, c.out.NextTimeFromStart = nil, nil, 0
	c.out.Relative = c.relative(pos)
	return c.out
}

// relative returns the point pos as a relative command of the current
// incremental Cartesian move's type, or none; the caller holds the lock.
// The increment is taken from the measured tool, as a robot that takes
// relative commands applies it to where its tool is.
func (c *Controller) relative(pos []float64) control.RelativeCommand {
	if c.relType == "" || !c.haveState {
		return control.RelativeCommand{}
	}
	tool, err := c.chain.FK(c.measured)
	if err != nil {
		return control.RelativeCommand{}
	}
	target, err := c.chain.FK(pos)
	if err != nil {
		return control.RelativeCommand{}
	}
	rd := c.p.RobotData
	r := control.RelativeCommand{Type: c.relType, Frame: rd.FixedFrame}
	switch c.relType {
	case control.CommandRELW:
		r.Frame = rd.WorldFrame
		if w, err := c.lookup(rd.WorldFrame); err == nil {
			c.relWorld = w
		}
	case control.CommandRELT:
		r.Frame = rd.FlangeFrame
	}
	r.Delta, _ = control.RelativeDelta(c.relType, tool, target, c.relWorld) // the type is known
	return r
}

// emitCommanded sends the commanded state, due one period from now,
// and, until the motion has arrived, the profile's point one period
// later as Next.
func (c *Controller) emitCommanded(now time.Time) JointTarget {
	copy(c.target, c.qc)
	copy(c.velocity, c.vc)
	t := c.emitBuf(now, c.period, false, c.target, c.velocity)
	if !c.arrived {
		c.lookahead()
		t.Next, t.NextVelocities, t.NextTimeFromStart = c.next, c.nextVel, 2*c.period
	}
	return t
}

// lookahead writes into c.next and c.nextVel the point the current
// profile reaches one period after the commanded one, without changing
// the controller's state; the caller holds the lock.
func (c *Controller) lookahead() {
	dt := c.period.Seconds()
	if c.mode == CartesianLine {
		s, sv, _ := c.path.Advance(c.ps, c.pv, dt)
		c.path.Point(s, sv, c.pk, c.next, c.nextVel)
		return
	}
	control.TrackStep(c.qc, c.vc, c.next, c.nextVel, c.trk, c.tv, c.ta, c.lo, c.hi, dt)
}
