package furbot

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"sync/atomic"
	"time"

	"github.com/telebridge/telebridge/pkg/furbot/control"
	"github.com/telebridge/telebridge/pkg/furbot/wire"
	"github.com/telebridge/telebridge/pkg/mailbox"
	"github.com/telebridge/telebridge/pkg/rate"
	"github.com/telebridge/telebridge/pkg/udplink"
)

// Bridge connects one vehicle: it owns the UDP socket, keeps the latest
// vehicle state, runs the controller at a fixed rate and publishes
// snapshots. Create it with NewBridge and run it with Run; SetCommand,
// SetEStop, Latest, Stats and Addr may be called from any goroutine.
type Bridge struct {
	cfg      BridgeConfig
	conn     *net.UDPConn
	period   time.Duration
	ctl      *control.Controller
	odo      *control.Odometer
	accept   func(netip.AddrPort) bool
	rx       mailbox.Latest[rxState]
	cmd      mailbox.Latest[control.Twist]
	ext      mailbox.Latest[wire.Control] // External mode: latest control signals
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
	cfg, err := cfg.WithDefaults()
	if err != nil {
		return nil, fmt.Errorf("furbot: bridge: %w", err)
	}
	ctl, err := control.NewController(cfg.Controller)
	if err != nil {
		return nil, fmt.Errorf("furbot: bridge: %w", err)
	}
	odo, err := control.NewOdometer(cfg.Odometry)
	if err != nil {
		return nil, fmt.Errorf("furbot: bridge: %w", err)
	}
	period, err := rate.Hz(cfg.Rate)
	if err != nil {
		return nil, fmt.Errorf("furbot: bridge: %w", err)
	}
	conn, err := udplink.Listen(cfg.Listen)
	if err != nil {
		return nil, fmt.Errorf("furbot: bridge: %w", err)
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
