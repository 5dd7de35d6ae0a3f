package servosila

import (
	"errors"
	"fmt"
	"net/netip"
	"time"

	"github.com/telebridge/telebridge/pkg/servosila/wire"
)

// handle processes one datagram from the robot's address (receive
// goroutine).
func (d *Driver) handle(pkt []byte, _ netip.AddrPort, at time.Time) error {
	if len(pkt) > 0 && pkt[0] == d.cfg.Frames.Video && d.cfg.Frames.Video != d.cfg.Frames.Telemetry {
		d.drops.Video.Add(1)
		return nil
	}
	if err := wire.DecodeTelemetry(&d.rxTel, pkt, d.cfg.Frames.Telemetry); err != nil {
		switch {
		case errors.Is(err, wire.ErrLength):
			d.drops.Length.Add(1)
		case errors.Is(err, wire.ErrFrameType):
			d.drops.FrameType.Add(1)
		case errors.Is(err, wire.ErrMotorCount):
			d.drops.MotorCount.Add(1)
		}
		return err
	}
	if n := d.cfg.MinMotors(); int(d.rxTel.MotorCount) < n {
		d.drops.MotorCount.Add(1)
		return fmt.Errorf("servosila: decode telemetry: %w: %d motors, need %d", wire.ErrMotorCount, d.rxTel.MotorCount, n)
	}
	ok, resync := d.order.accept(d.rxTel.Tick, at, time.Duration(d.lostAfter.Load()))
	if !ok {
		d.oldTel.Add(1) // duplicated or reordered: older than what we have
		return nil
	}
	if resync {
		d.resyncs.Add(1)
	}
	d.mu.Lock()
	d.checkCommandsLocked(&d.rxTel, at, resync)
	d.mu.Unlock()
	d.tel.Store(d.rxTel, at)
	return nil
}
