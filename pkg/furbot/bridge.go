package furbot

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"sync/atomic"
	"time"

	"github.com/telebridge/telebridge/pkg/mailbox"
	"github.com/telebridge/telebridge/pkg/odometry"
	"github.com/telebridge/telebridge/pkg/rate"
	"github.com/telebridge/telebridge/pkg/udplink"
)

// Snapshot is what the bridge publishes each period: the latest state of
// every subsystem, the odometry, and the control decision of this period.
type Snapshot struct {
	Seq      uint64        // published snapshots before this one
	Stamp    time.Time     // when the loop woke for this period
	Late     time.Duration // how late the loop woke after its deadline (jitter)
	Status   Status        // latest state of each subsystem (merged frames)
	StatusAt time.Time     // arrival of the latest status frame
	Frames   uint64        // status frames used so far (a new frame changes it)
	Odom     odometry.State
	Ready    bool          // link fresh and every subsystem working
	Output   ControlOutput // controller decision of this period
	Control  Control       // control frame sent this period
	Stats    BridgeStats
}

// BridgeStats are the bridge's counters.
type BridgeStats struct {
	Received    uint64 // datagrams read from the socket
	Accepted    uint64 // status frames used
	Foreign     uint64 // dropped: from a source other than StatusFrom
	Invalid     uint64 // dropped: not a valid status frame
	Dropped     uint64 // dropped: valid but older than or as old as the previous one
	ControlSent uint64 // control frames sent
	SendErrors  uint64 // control frames the socket refused
	MissedTicks uint64 // loop periods skipped because a step overran
	Gaps        uint64 // status intervals longer than the odometry's MaxGap
	Resyncs     uint64 // times the vehicle clock went back for good (restart) and was followed
	// GapsBridged gaps were covered by the traction odometer's delta;
	// GapsHeld held the pose (no reference, odometer reset, or a delta
	// the vehicle cannot have travelled). See Odometer.Update.
	GapsBridged, GapsHeld uint64
	// Implausible counts well-formed frames that were not used: a value
	// jumped further than the vehicle can move (ErrImplausible).
	Implausible uint64
	// Reanchors counts the times the plausibility checks took a frame as
	// their new reference after a run of implausible ones.
	Reanchors uint64
}

// rxState is what the receive goroutine hands to the loop.
type rxState struct {
	status Status
	odom   odometry.State
	frames uint64
}

// Bridge connects one vehicle: it owns the UDP socket, keeps the latest
// vehicle state, runs the controller at a fixed rate and publishes
// snapshots. Create it with NewBridge and run it with Run; SetCommand,
// SetEStop, Latest, Stats and Addr may be called from any goroutine.
type Bridge struct {
	cfg      BridgeConfig
	conn     *net.UDPConn
	period   time.Duration
	ctl      *Controller
	odo      *Odometer
	accept   func(netip.AddrPort) bool
	rx       mailbox.Latest[rxState]
	cmd      mailbox.Latest[Twist]
	ext      mailbox.Latest[Control] // External mode: latest control signals
	latest   mailbox.Latest[Snapshot]
	estop    atomic.Bool
	started  atomic.Bool
	startedC chan struct{} // closed when publishing starts
	doneC    chan struct{} // closed when Run returns
	running  atomic.Bool
	counters udplink.Counters
	dropped  atomic.Uint64
	sent     atomic.Uint64
	sendErrs atomic.Uint64
	missed   atomic.Uint64
	gaps     atomic.Uint64
	resyncs  atomic.Uint64
	bridged  atomic.Uint64
	held     atomic.Uint64
	implaus  atomic.Uint64
	reanchor atomic.Uint64
	steps    Lockstep // Manual mode
	// Owned by the goroutine in Run (the loop, then the stop frames).
	seq       uint32 // next control frame sequence number
	lastSteer int32  // steering of the last control frame [0.01 deg]
}

// NewBridge validates cfg, fills defaults and binds the socket. The socket
// is closed by Run when it returns, or by Close if Run is never called.
func NewBridge(cfg BridgeConfig) (*Bridge, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, fmt.Errorf("furbot: bridge: %w", err)
	}
	ctl, err := NewController(cfg.Controller)
	if err != nil {
		return nil, fmt.Errorf("furbot: bridge: %w", err)
	}
	odo, err := NewOdometer(cfg.Odometry)
	if err != nil {
		return nil, fmt.Errorf("furbot: bridge: %w", err)
	}
	period, err := rate.Hz(cfg.Rate)
	if err != nil {
		return nil, fmt.Errorf("furbot: bridge: %w", err)
	}
	laddr, err := net.ResolveUDPAddr("udp", cfg.Listen)
	if err != nil {
		return nil, fmt.Errorf("furbot: bridge: listen address %q: %w", cfg.Listen, err)
	}
	conn, err := net.ListenUDP("udp", laddr)
	if err != nil {
		return nil, fmt.Errorf("furbot: bridge: listen: %w", err)
	}
	cfg.Controller, cfg.Odometry = ctl.Config(), odo.Config()
	return &Bridge{cfg: cfg, conn: conn, period: period, ctl: ctl, odo: odo, accept: udplink.From(cfg.StatusFrom),
		steps: NewLockstep(), startedC: make(chan struct{}), doneC: make(chan struct{})}, nil
}

// Config returns the configuration in use, defaults filled.
func (b *Bridge) Config() BridgeConfig { return b.cfg }

// Addr returns the local address of the bridge's socket.
func (b *Bridge) Addr() netip.AddrPort {
	a := b.conn.LocalAddr().(*net.UDPAddr).AddrPort()
	return netip.AddrPortFrom(a.Addr().Unmap(), a.Port())
}

// ErrNotFinite is returned by SetCommand for a NaN or infinite command.
var ErrNotFinite = errors.New("furbot: command is not finite")

// SetCommand sets the velocity command (cmd_vel), received now. A command
// that is not refreshed within the controller's CommandTimeout goes stale
// and the vehicle brakes to a stop. A non-finite command is rejected and
// leaves the previous one in place (which then times out).
func (b *Bridge) SetCommand(t Twist) error { return b.SetCommandAt(t, b.cfg.Clock()) }

// SetCommandAt is SetCommand with an explicit receive time.
func (b *Bridge) SetCommandAt(t Twist, at time.Time) error {
	if !t.Finite() {
		return fmt.Errorf("furbot: set command v=%v w=%v: %w", t.V, t.W, ErrNotFinite)
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
func (b *Bridge) SetControl(c Control, at time.Time) error {
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

// Run receives status frames, runs the control loop and publishes until
// ctx is cancelled. On the way out it sends StopFrames full-brake frames
// with the enable flag clear, then closes the socket and returns nil; it
// returns an error if the socket fails. Run may be called once.
func (b *Bridge) Run(ctx context.Context) error {
	if !b.running.CompareAndSwap(false, true) {
		return ErrBridgeRunning
	}
	defer close(b.doneC)
	defer b.conn.Close()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	rx := udplink.Receiver{
		Conn:       b.conn,
		Accept:     b.accept,
		Counters:   &b.counters,
		BufferSize: 2048,
		Handle:     b.receiver(),
	}
	rxErr := make(chan error, 1)
	go func() { rxErr <- rx.Run(ctx) }()
	var loopErr error
	if b.cfg.Manual {
		loopErr = b.steps.Run(ctx, b.cfg.Clock, b.loop())
	} else {
		loopErr = rate.Run(ctx, b.period, b.loop())
	}
	cancel()
	err := <-rxErr
	stopErr := b.sendStop()
	switch {
	case loopErr != nil && !isDone(loopErr):
		return loopErr
	case err != nil && !isDone(err):
		return err
	}
	return stopErr
}

// receiver returns the status frame handler; its state belongs to the
// receive goroutine.
func (b *Bridge) receiver() udplink.Handler {
	var (
		frame Status
		st    rxState
		clock = vehicleClock{maxGap: b.cfg.Odometry.MaxGap}
		plaus = plausibility{radius: b.cfg.Odometry.WheelRadius}
	)
	return func(pkt []byte, _ netip.AddrPort, _ time.Time) error {
		at := b.cfg.Clock()
		if err := DecodeStatus(pkt, &frame); err != nil {
			return err
		}
		// A corrupted but well-formed frame is counted and not used; it is
		// not an error of the link (udplink's Malformed).
		if plaus.clock(frame.Timestamp, at) != nil {
			b.implaus.Add(1)
			return nil
		}
		ms, v := clock.next(frame.Timestamp)
		switch {
		case v.Old:
			b.dropped.Add(1) // repeated or reordered: older than what we have
			return nil
		case v.Resync:
			b.resyncs.Add(1)
			plaus.restart()
			b.odo.Forget()
		}
		if plaus.check(&frame, ms, at) != nil {
			b.implaus.Add(1)
			return nil
		}
		b.reanchor.Store(plaus.reanchd)
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
		buf       = make([]byte, 0, ControlSize)
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
			out ControlOutput
			ctl Control
		)
		if b.cfg.External {
			out, ctl = b.external(t.Now, ready)
		} else {
			out = b.ctl.Step(t.Now, dt, ControlInput{
				Cmd: cmd, CmdAt: cmdAt, EStop: b.estop.Load(), Ready: ready,
				Speed: rx.status.Traction.SpeedMPS(), Reverse: rx.status.Traction.Reverse != 0,
			})
			ctl = out.Control()
		}
		ctl.Seq = b.seq
		ctl.Timestamp = uint32(t.Now.Sub(start).Milliseconds())
		b.seq++
		b.lastSteer = ctl.Steer
		buf = AppendControl(buf[:0], &ctl)
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
func (b *Bridge) external(now time.Time, ready bool) (ControlOutput, Control) {
	sig, at, ok := b.ext.Load()
	stale := !ok || now.Sub(at) > b.cfg.ControlTimeout
	var c Control
	switch {
	case b.estop.Load():
		c = Control{Steer: b.lastSteer, Brake: PedalMax, Flags: FlagEStop}
	case !ready || stale:
		c = Control{Steer: b.lastSteer, Brake: PedalMax}
	default:
		c = sig
	}
	out := ControlOutput{
		Steer: float64(c.Steer) * AngleScale, Throttle: float64(c.Throttle) * PedalScale, Brake: float64(c.Brake) * PedalScale,
		Reverse: c.Flags&FlagReverse != 0, Enable: c.Flags&FlagEnable != 0, EStop: c.Flags&FlagEStop != 0, Stale: stale,
	}
	switch {
	case out.EStop:
		out.Mode = ModeEStop
	case !out.Enable:
		out.Mode = ModeDisabled
	default:
		out.Mode = ModeDrive
	}
	return out, c
}

// sendStop tells the vehicle to stop: full brake, throttle zero, enable
// clear, steering held.
func (b *Bridge) sendStop() error {
	c := Control{Steer: b.lastSteer, Brake: PedalMax, Seq: b.seq}
	buf := AppendControl(make([]byte, 0, ControlSize), &c)
	var err error
	for i := 0; i < b.cfg.StopFrames; i++ {
		if _, werr := b.conn.WriteToUDPAddrPort(buf, b.cfg.Vehicle); werr != nil {
			err = fmt.Errorf("furbot: bridge: send stop frame: %w", werr)
		}
		c.Seq++
		b.seq++
		buf = AppendControl(buf[:0], &c)
	}
	return err
}

// Age returns how old the snapshot's latest status frame was when the
// snapshot was taken: the receive-to-publish latency [s].
func (s *Snapshot) Age() time.Duration { return s.Stamp.Sub(s.StatusAt) }

// isDone reports whether err only says that the context ended.
func isDone(err error) bool {
	return errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)
}

// ErrNotManual is returned by Step when the bridge is not in Manual mode.
var ErrNotManual = errors.New("furbot: Step needs Manual mode")

// Step runs one period of a Manual bridge (controller, control frame,
// snapshot) at the Clock's time and returns when it is done. Run must be
// running; Step may be called from any goroutine, one call at a time.
func (b *Bridge) Step(ctx context.Context) error {
	if !b.cfg.Manual {
		return ErrNotManual
	}
	return b.steps.Step(ctx)
}
