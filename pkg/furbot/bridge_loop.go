package furbot

import (
	"fmt"
	"net/netip"
	"time"

	"github.com/telebridge/telebridge/pkg/furbot/control"
	"github.com/telebridge/telebridge/pkg/furbot/wire"
	"github.com/telebridge/telebridge/pkg/rate"
	"github.com/telebridge/telebridge/pkg/udplink"
)

// receiver returns the status frame handler; its state belongs to the
// receive goroutine.
func (b *Bridge) receiver() udplink.Handler {
	var (
		frame wire.Status
		st    rxState
		clock = NewVehicleClock(b.cfg.Odometry.MaxGap)
		plaus = control.NewPlausibility(b.cfg.Odometry.WheelRadius)
	)
	return func(pkt []byte, _ netip.AddrPort, _ time.Time) error {
		at := b.cfg.Clock()
		if err := wire.DecodeStatus(pkt, &frame); err != nil {
			return err
		}
		// A corrupted but well-formed frame is counted and not used; it is
		// not an error of the link (udplink's Malformed).
		if plaus.Clock(frame.Timestamp, at) != nil {
			b.implaus.Add(1)
			return nil
		}
		ms, v := clock.Next(frame.Timestamp)
		switch {
		case v.Old:
			b.dropped.Add(1) // repeated or reordered: older than what we have
			return nil
		case v.Resync:
			b.resyncs.Add(1)
			plaus.Restart()
			b.odo.Forget()
		}
		if plaus.Check(&frame, ms, at) != nil {
			b.implaus.Add(1)
			return nil
		}
		b.reanchor.Store(plaus.Reanchors())
		if v.Gap {
			b.gaps.Add(1)
		}
		st.status.Merge(&frame)
		st.odom = b.odo.Update(&frame, ms, at)
		g := b.odo.GapStats()
		b.bridged.Store(g.Bridged)
		b.held.Store(g.Held)
		st.frames++
		b.rx.Store(st, at)
		return nil
	}
}

// loop returns the fixed-rate step: controller, control frame, snapshot.
func (b *Bridge) loop() func(rate.Tick) error {
	var (
		snap      Snapshot
		buf       = make([]byte, 0, wire.ControlSize)
		prev      time.Time
		published uint64
		start     = b.cfg.Clock()
	)
	return func(t rate.Tick) error {
		if t.Missed > 0 {
			b.missed.Add(t.Missed)
		}
		rx, rxAt, haveRx := b.rx.Load()
		ready := haveRx && t.Now.Sub(rxAt) <= b.cfg.LinkTimeout && rx.status.AllWorking()
		cmd, cmdAt, _ := b.cmd.Load()
		dt := 0.0
		if !prev.IsZero() {
			dt = t.Now.Sub(prev).Seconds()
		}
		prev = t.Now
		var (
			out control.Output
			ctl wire.Control
		)
		if b.cfg.External {
			out, ctl = b.external(t.Now, ready)
		} else {
			out = b.ctl.Step(t.Now, dt, control.Input{
				Cmd: cmd, CmdAt: cmdAt, EStop: b.estop.Load(), Ready: ready,
				Speed: rx.status.Traction.SpeedMPS(), Reverse: rx.status.Traction.Reverse != 0,
			})
			ctl = out.Control()
		}
		ctl.Seq = b.seq
		ctl.Timestamp = uint32(t.Now.Sub(start).Milliseconds())
		b.seq++
		b.lastSteer = ctl.Steer
		buf = wire.AppendControl(buf[:0], &ctl)
		if _, err := b.conn.WriteToUDPAddrPort(buf, b.cfg.Vehicle); err != nil {
			b.sendErrs.Add(1)
		} else {
			b.sent.Add(1)
		}
		if ready && b.started.CompareAndSwap(false, true) {
			close(b.startedC)
		}
		if !b.started.Load() {
			return nil
		}
		snap = Snapshot{
			Seq: published, Stamp: t.Now, Late: t.Late(),
			Status: rx.status, StatusAt: rxAt, Frames: rx.frames, Odom: rx.odom,
			Ready: ready, Output: out, Control: ctl, Stats: b.Stats(),
		}
		published++
		b.latest.Store(snap, t.Now)
		if b.cfg.OnSnapshot != nil {
			b.cfg.OnSnapshot(&snap)
		}
		return nil
	}
}

// external returns the control of one period in External mode: the
// latest signals when they are fresh and the vehicle is ready, else full
// brake with the steering held (e-stop flag set while the e-stop is
// latched, enable clear when not ready or stale). The output describes
// the frame in SI units for the snapshot.
func (b *Bridge) external(now time.Time, ready bool) (control.Output, wire.Control) {
	sig, at, ok := b.ext.Load()
	stale := !ok || now.Sub(at) > b.cfg.ControlTimeout
	var c wire.Control
	switch {
	case b.estop.Load():
		c = wire.Control{Steer: b.lastSteer, Brake: wire.PedalMax, Flags: wire.FlagEStop}
	case !ready || stale:
		c = wire.Control{Steer: b.lastSteer, Brake: wire.PedalMax}
	default:
		c = sig
	}
	out := control.Output{
		Steer: float64(c.Steer) * wire.AngleScale, Throttle: float64(c.Throttle) * wire.PedalScale, Brake: float64(c.Brake) * wire.PedalScale,
		Reverse: c.Flags&wire.FlagReverse != 0, Enable: c.Flags&wire.FlagEnable != 0, EStop: c.Flags&wire.FlagEStop != 0, Stale: stale,
	}
	switch {
	case out.EStop:
		out.Mode = control.ModeEStop
	case !out.Enable:
		out.Mode = control.ModeDisabled
	default:
		out.Mode = control.ModeDrive
	}
	return out, c
}

// sendStop tells the vehicle to stop: full brake, throttle zero, enable
// clear, steering held.
func (b *Bridge) sendStop() error {
	c := wire.Control{Steer: b.lastSteer, Brake: wire.PedalMax, Seq: b.seq}
	buf := wire.AppendControl(make([]byte, 0, wire.ControlSize), &c)
	var err error
	for i := 0; i < b.cfg.StopFrames; i++ {
		if _, werr := b.conn.WriteToUDPAddrPort(buf, b.cfg.Vehicle); werr != nil {
			err = fmt.Errorf("furbot: bridge: send stop frame: %w", werr)
		}
		c.Seq++
		b.seq++
		buf = wire.AppendControl(buf[:0], &c)
	}
	return err
}
