package furbot

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/telebridge/telebridge/pkg/furbot/control"
	"github.com/telebridge/telebridge/pkg/furbot/wire"
)

// SetCommand sets the velocity command (cmd_vel), received now. A command
// that is not refreshed within the controller's CommandTimeout goes stale
// and the vehicle brakes to a stop. A non-finite command is rejected and
// leaves the previous one in place (which then times out).
func (b *Bridge) SetCommand(t control.Twist) error { return b.SetCommandAt(t, b.cfg.Clock()) }

// SetCommandAt is SetCommand with an explicit receive time.
func (b *Bridge) SetCommandAt(t control.Twist, at time.Time) error {
	if !t.Finite() {
		return fmt.Errorf("furbot: set command v=%v w=%v: %w", t.V, t.W, control.ErrNotFinite)
	}
	b.cmd.Store(t, at)
	return nil
}

// ErrNotExternal is returned by SetControl when the bridge runs its own
// controller.
var ErrNotExternal = errors.New("furbot: SetControl needs External mode")

// SetControl hands the bridge the control signals to send (External mode),
// received at; Seq and Timestamp are the bridge's own and ignored. Signals
// out of the frame's ranges or with undefined flag bits are refused
// (ErrRange, ErrFlags) and leave the previous ones in place, which then go
// stale after ControlTimeout. Safe for concurrent use.
func (b *Bridge) SetControl(c wire.Control, at time.Time) error {
	if !b.cfg.External {
		return ErrNotExternal
	}
	if err := c.Validate(); err != nil {
		return fmt.Errorf("furbot: set control: %w", err)
	}
	c.Seq, c.Timestamp = 0, 0
	b.ext.Store(c, at)
	return nil
}

// SetEStop latches (true) or releases (false) the emergency stop. While it
// is latched every control frame carries the e-stop flag and full brake.
func (b *Bridge) SetEStop(on bool) { b.estop.Store(on) }

// Started reports whether publishing has started (every subsystem has
// reported a working state at least once).
func (b *Bridge) Started() bool { return b.started.Load() }

// ErrBridgeStopped is returned by WaitStarted when Run returned before
// publishing started.
var ErrBridgeStopped = errors.New("furbot: bridge stopped before every subsystem worked")

// WaitStarted blocks until publishing starts (every subsystem has reported
// a working state), Run returns (ErrBridgeStopped), or ctx ends; the error
// then says how many status frames came, so that a wrong address is told
// from a vehicle that is not ready. Safe for concurrent use.
func (b *Bridge) WaitStarted(ctx context.Context) error {
	select {
	case <-b.startedC:
		return nil
	case <-b.doneC:
		return ErrBridgeStopped
	case <-ctx.Done():
		st := b.Stats()
		return fmt.Errorf("furbot: wait for every subsystem working: %w (%d status frames, %d invalid, %d foreign)",
			ctx.Err(), st.Accepted, st.Invalid, st.Foreign)
	}
}

// Latest returns the latest published snapshot, and false before
// publishing starts.
func (b *Bridge) Latest() (Snapshot, bool) {
	s, _, ok := b.latest.Load()
	return s, ok
}

// Stats returns a copy of the counters.
func (b *Bridge) Stats() BridgeStats {
	u := b.counters.Stats()
	d := b.dropped.Load() + b.implaus.Load()
	return BridgeStats{
		Received: u.Received, Accepted: u.Accepted - min(d, u.Accepted), Foreign: u.Foreign, Invalid: u.Malformed,
		Dropped: b.dropped.Load(), ControlSent: b.sent.Load(), SendErrors: b.sendErrs.Load(), MissedTicks: b.missed.Load(),
		Gaps: b.gaps.Load(), Resyncs: b.resyncs.Load(), GapsBridged: b.bridged.Load(), GapsHeld: b.held.Load(),
		Implausible: b.implaus.Load(), Reanchors: b.reanchor.Load(),
	}
}

// ErrBridgeRunning is returned by Run when the bridge already runs.
var ErrBridgeRunning = errors.New("furbot: bridge already running")

// Close releases the socket of a bridge that was never run. After Run it
// is not needed (Run closes the socket) and does nothing harmful.
func (b *Bridge) Close() error {
	if b.running.Load() {
		return nil
	}
	return b.conn.Close()
}
