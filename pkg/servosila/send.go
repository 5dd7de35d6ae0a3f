package servosila

import (
	"context"
	"time"

	"github.com/telebridge/telebridge/pkg/odometry"
	"github.com/telebridge/telebridge/pkg/servosila/wire"
)

// sendLoop sends a packet whenever nextSend says one is due, until ctx
// ends. It sleeps on a timer and on the setters' wake-ups, never polls.
func (d *Driver) sendLoop(ctx context.Context, period, gap time.Duration) error {
	timer := time.NewTimer(period)
	defer timer.Stop()
	for {
		d.mu.Lock()
		due := nextSend(d.last.At, d.dirty, period, gap)
		d.mu.Unlock()
		now := time.Now()
		if !now.Before(due) {
			d.tick(now)
			continue
		}
		timer.Reset(due.Sub(now)) // Go >= 1.23: no stale value after Reset
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-timer.C:
		case <-d.wake: // recompute the deadline
		}
	}
}

// nextSend is when the next packet is due, given the time of the last one:
// a changed command 1/MaxSendRate (gap) after it, otherwise the keep-alive
// 1/SendRate (period) after it.
func nextSend(last time.Time, changed bool, period, gap time.Duration) time.Time {
	if changed && gap < period {
		return last.Add(gap)
	}
	return last.Add(period)
}

// tick is one step of the send loop at time now.
func (d *Driver) tick(now time.Time) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.feedArm()
	_, telAt, haveTel := d.tel.Load()
	lost := d.ls.observe(now, d.tel.Seq(), telAt, haveTel, d.odo.State(), d.cfg.TelemetryTimeout)
	d.lostAfter.Store(int64(d.ls.state.LostAfter))
	var cmd wire.Command
	stale := true
	if !d.estop && !lost {
		if c, ok := d.twist.Fresh(now, d.cfg.CommandTimeout); ok && c.gen == d.gen {
			cmd.Linear, cmd.Angular, stale = c.linear, c.angular, false
		}
		if c, ok := d.joints.Fresh(now, d.cfg.CommandTimeout); ok && c.gen == d.gen {
			cmd.Joints, stale = c.v, false
		}
		d.arm.Step(now, d.cfg.TelemetryTimeout, &cmd.Joints)
		for _, j := range wire.ArmJoints {
			cmd.Joints[j] = d.arm.Limit(j, cmd.Joints[j])
		}
	}
	cmd.Headlight = d.headlight
	d.sendLocked(now, cmd, stale)
}

// feedArm hands new telemetry positions to the position controller.
func (d *Driver) feedArm() {
	seq := d.tel.Seq()
	if seq == d.telSeq {
		return
	}
	d.telSeq = seq
	t, at, ok := d.tel.Load()
	if !ok {
		return
	}
	for _, j := range wire.ArmJoints {
		if s := d.cfg.MotorSlots[j]; s != wire.None && s < int(t.MotorCount) {
			d.arm.Measure(j, wire.CountsToRad(t.Motors[s].Position, d.cfg.JointZero[j]), at)
		}
	}
}

// sendLocked converts, encodes and sends cmd, and advances the odometry
// with the twist that was in force until now. d.mu must be held.
func (d *Driver) sendLocked(now time.Time, cmd wire.Command, stale bool) {
	ch := d.cfg.Convert(&cmd)
	dropped := d.cfg.Mapping.Encode(&d.rc, &ch)
	// What the robot will execute: the packet read back as the robot does.
	var out wire.Channels
	d.cfg.Mapping.Decode(&out, &d.rc)
	exec := d.cfg.Calibration.Velocities(&out)
	if d.dirty && !d.last.At.IsZero() && now.Sub(d.last.At) < time.Duration(float64(time.Second)/d.cfg.SendRate) {
		d.chgs.Add(1) // sent before the keep-alive was due
	}
	d.dirty = false
	_ = d.odo.Update(d.inForce, now) // finite by construction
	d.inForce = odometry.Twist2D{V: exec.Linear, W: exec.Angular}
	d.last = Sent{At: now, Command: exec, Packet: d.rc, Dropped: dropped, Stale: stale}
	pkt, _ := wire.EncodeRemoteControl(d.buf[:], &d.rc) // buffer has the right size
	if _, err := d.conn.WriteToUDPAddrPort(pkt, d.robot); err != nil {
		d.sendE.Add(1)
		return
	}
	d.sent.Add(1)
	d.recordSentLocked(now, &out)
}
