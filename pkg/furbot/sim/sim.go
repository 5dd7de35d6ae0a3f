package sim

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net"
	"net/netip"
	"sync/atomic"
	"time"

	"github.com/telebridge/telebridge/pkg/furbot"
	"github.com/telebridge/telebridge/pkg/furbot/wire"
	"github.com/telebridge/telebridge/pkg/mailbox"
	"github.com/telebridge/telebridge/pkg/rate"
	"github.com/telebridge/telebridge/pkg/udplink"
)

// Config configures a Sim.
type Config struct {
	// Listen is the UDP address the simulated vehicle receives control
	// frames on (optional, default "127.0.0.1:0": any free loopback port;
	// a real vehicle uses port wire.ControlPort).
	Listen string
	// StatusTo is where status frames go (optional). When unset, they go
	// to the source address of the latest valid control frame, so a
	// bridge on any port is served as soon as it sends.
	StatusTo netip.AddrPort
	// Params are the vehicle's physical parameters (zero fields default).
	Params Params
	// Rate is the simulation and status rate [Hz] (optional, default 100).
	Rate float64
	// Clock is the time source for the watchdog (optional, default
	// time.Now); tests inject a virtual clock together with Manual.
	Clock func() time.Time
	// Manual replaces the fixed-rate timer: Run steps one period per call
	// to Step (lock-step tests).
	Manual bool
	// Watchdog is how long the vehicle applies a control frame without a
	// newer one before it brakes [s] (optional, default 250 ms).
	Watchdog time.Duration
}

// Sim is a simulated vehicle on a UDP socket. Create it with New, run it
// with Run; Addr, Truth, SetFault and Stats may be called from any
// goroutine at any time.
type Sim struct {
	cfg      Config
	conn     *net.UDPConn
	period   time.Duration
	veh      *Vehicle
	ctl      mailbox.Latest[received]
	truth    mailbox.Latest[Truth]
	faults   atomic.Uint32
	counters udplink.Counters
	sent     atomic.Uint64
	running  atomic.Bool
	steps    furbot.Lockstep // Manual mode
}

type received struct {
	c    wire.Control
	from netip.AddrPort
}

// New validates cfg, fills defaults and binds the socket.
func New(cfg Config) (*Sim, error) {
	if cfg.Listen == "" {
		cfg.Listen = "127.0.0.1:0"
	}
	if cfg.Rate == 0 {
		cfg.Rate = wire.FrameRate
	}
	if cfg.Watchdog == 0 {
		cfg.Watchdog = 250 * time.Millisecond
	}
	if cfg.Clock == nil {
		cfg.Clock = time.Now
	}
	if cfg.Watchdog < 0 {
		return nil, fmt.Errorf("%w: negative watchdog %v", ErrParams, cfg.Watchdog)
	}
	period, err := rate.Hz(cfg.Rate)
	if err != nil {
		return nil, fmt.Errorf("furbotsim: %w", err)
	}
	veh, err := NewVehicle(cfg.Params)
	if err != nil {
		return nil, err
	}
	conn, err := udplink.Listen(cfg.Listen)
	if err != nil {
		return nil, fmt.Errorf("furbotsim: %w", err)
	}
	s := &Sim{cfg: cfg, conn: conn, period: period, veh: veh, steps: furbot.NewLockstep()}
	s.truth.Store(veh.Truth(), cfg.Clock())
	return s, nil
}

// Addr returns the address the vehicle receives control frames on.
func (s *Sim) Addr() netip.AddrPort {
	a := s.conn.LocalAddr().(*net.UDPAddr).AddrPort()
	return netip.AddrPortFrom(a.Addr().Unmap(), a.Port())
}

// Truth returns the latest true state of the vehicle.
func (s *Sim) Truth() Truth {
	t, _, _ := s.truth.Load()
	return t
}

// Params returns the vehicle parameters in use (defaults filled).
func (s *Sim) Params() Params { return s.veh.Params() }

// SetFault forces subsystem id into its halted or fault state (on) or
// releases it (off). It takes effect at the next simulation step.
func (s *Sim) SetFault(id wire.BlockID, on bool) {
	if int(id) >= wire.NumBlocks {
		return
	}
	for {
		old := s.faults.Load()
		nv := old &^ (1 << id)
		if on {
			nv |= 1 << id
		}
		if s.faults.CompareAndSwap(old, nv) {
			return
		}
	}
}

// LastControl returns the latest valid control frame received, when it
// arrived, and false if none has.
func (s *Sim) LastControl() (wire.Control, time.Time, bool) {
	r, at, ok := s.ctl.Load()
	return r.c, at, ok
}

// Stats are the simulator's counters.
type Stats struct {
	Control    udplink.Stats // control frames received, accepted, malformed
	StatusSent uint64        // status frames sent
}

// Stats returns a copy of the counters.
func (s *Sim) Stats() Stats {
	return Stats{Control: s.counters.Stats(), StatusSent: s.sent.Load()}
}

// maxCatchUp is how many missed periods one step may make up for.
const maxCatchUp = 4

// ErrRunning is returned by Run when the Sim is already running.
var ErrRunning = errors.New("furbotsim: already running")

// Run simulates until ctx is cancelled, then closes the socket and returns
// nil; it returns an error if the socket fails. Run may be called once.
func (s *Sim) Run(ctx context.Context) error {
	if !s.running.CompareAndSwap(false, true) {
		return ErrRunning
	}
	defer s.conn.Close()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	rx := udplink.Receiver{
		Conn:       s.conn,
		Counters:   &s.counters,
		BufferSize: 256,
		Handle: func(pkt []byte, from netip.AddrPort, _ time.Time) error {
			at := s.cfg.Clock()
			var r received
			if err := wire.DecodeControl(pkt, &r.c); err != nil {
				return err
			}
			r.from = from
			s.ctl.Store(r, at)
			return nil
		},
	}
	rxErr := make(chan error, 1)
	go func() { rxErr <- rx.Run(ctx) }()

	var (
		status wire.Status
		buf    = make([]byte, 0, 256)
		dt     = s.period.Seconds()
		link   Link
	)
	step := func(tick rate.Tick) error {
		faults := s.faults.Load()
		for id := wire.BlockID(0); id < wire.NumBlocks; id++ {
			s.veh.SetFault(id, faults&(1<<id) != 0)
		}
		in, peer := s.inputs(tick.Now, &link)
		// After a stall, catch up at most maxCatchUp periods: the simulated
		// clock slows down rather than jumping, so status timestamps never
		// show a gap a real vehicle would not have.
		s.veh.Step(dt*float64(1+min(tick.Missed, maxCatchUp)), in)
		truth := s.veh.Truth()
		s.truth.Store(truth, tick.Now)
		if s.cfg.StatusTo.IsValid() {
			peer = s.cfg.StatusTo
		}
		if !peer.IsValid() {
			return nil
		}
		st := s.counters.Stats()
		link.Comm.RxFrames = uint16(st.Accepted)
		link.Comm.Rejected = uint16(st.Malformed)
		s.veh.Status(&status, uint32(int64(math.Round(truth.T*1000))), link)
		buf = wire.AppendStatus(buf[:0], &status)
		if _, err := s.conn.WriteToUDPAddrPort(buf, peer); err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return fmt.Errorf("furbotsim: send status: %w", err)
		}
		s.sent.Add(1)
		return nil
	}
	var loopErr error
	if s.cfg.Manual {
		loopErr = s.steps.Run(ctx, s.cfg.Clock, step)
	} else {
		loopErr = rate.Run(ctx, s.period, step)
	}
	cancel()
	err := <-rxErr
	if loopErr != nil && !isDone(loopErr) {
		return loopErr
	}
	if err != nil && !isDone(err) {
		return err
	}
	return nil
}

// inputs applies the vehicle's control logic to the latest control frame:
// watchdog, enable, emergency stop. It updates link and returns the
// actuator inputs and the frame's source.
func (s *Sim) inputs(now time.Time, link *Link) (Inputs, netip.AddrPort) {
	r, at, ok := s.ctl.Load()
	hold := Inputs{Steer: link.SteerTarget, Brake: 1}
	if !ok {
		link.MotionFlags = wire.MotionWatchdog
		link.Comm.Flags = 0
		return hold, netip.AddrPort{}
	}
	steer := float64(r.c.Steer) * wire.AngleScale
	link.LastSeq = r.c.Seq
	switch {
	case now.Sub(at) > s.cfg.Watchdog:
		link.MotionFlags = wire.MotionWatchdog
		link.Comm.Flags = 0
		return hold, r.from
	case r.c.Flags&wire.FlagEStop != 0:
		link.MotionFlags = wire.MotionEStop
	case r.c.Flags&wire.FlagEnable == 0:
		link.MotionFlags = 0
	default:
		link.MotionFlags = wire.MotionEnabled
		link.Comm.Flags = wire.CommLinkUp
		link.SteerTarget = steer
		return Inputs{
			Steer:    steer,
			Throttle: float64(r.c.Throttle) * wire.PedalScale,
			Brake:    float64(r.c.Brake) * wire.PedalScale,
			Reverse:  r.c.Flags&wire.FlagReverse != 0,
		}, r.from
	}
	link.Comm.Flags = wire.CommLinkUp
	return hold, r.from
}

// isDone reports whether err only says that the context ended.
func isDone(err error) bool {
	return errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)
}

// ErrNotManual is returned by Step when the simulator is not in Manual
// mode.
var ErrNotManual = errors.New("furbotsim: Step needs Manual mode")

// Step runs one period of a Manual simulator (apply the latest control
// frame, step the vehicle, send a status frame) and returns when it is
// done. Run must be running; one call at a time.
func (s *Sim) Step(ctx context.Context) error {
	if !s.cfg.Manual {
		return ErrNotManual
	}
	return s.steps.Step(ctx)
}
