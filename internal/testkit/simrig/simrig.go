// Package simrig is the test rig the machine packages share: a simulator
// of a vendor protocol on loopback UDP, the seeded impairment proxy
// (pkg/impair) in front of it (left out with Config.Direct), and the
// machine's driver talking to the proxy, each run by its own goroutine
// until the test ends. The simulator
// can be killed and restarted on the same port (a reboot of the robot)
// while the proxy and driver keep running.
//
// The rig is generic over the machine: Config says how to make the
// simulator and the driver, so the Servosila and the Furbot tests share
// one rig and differ only in what they assert.
//
//	r := simrig.New(t, simrig.Config[*sim.Sim, *furbot.Bridge]{
//		Seed: 11, Up: link, Down: link,
//		NewSim:    func(listen string) (*sim.Sim, error) { ... },
//		NewDriver: func(at netip.AddrPort) (*furbot.Bridge, func(context.Context) error, error) { ... },
//	})
//	runtest.WaitFor(t, 30*time.Second, "2 m travelled", func() bool { return r.Sim().Truth().Distance > 2 })
package simrig

import (
	"context"
	"net/netip"
	"sync"
	"testing"

	"github.com/telebridge/telebridge/internal/testkit/runtest"
	"github.com/telebridge/telebridge/pkg/impair"
)

// Sim is what the rig needs of a simulator: the address it listens on and
// its run loop.
type Sim interface {
	// Addr is the simulator's UDP address.
	Addr() netip.AddrPort
	// Run serves until ctx is done.
	Run(ctx context.Context) error
}

// Config describes one machine's rig.
type Config[S Sim, D any] struct {
	// Seed seeds the proxy's impairments, so a run can be repeated.
	Seed uint64
	// Up and Down are the impairments of the two directions (driver to
	// simulator, and back). Zero values pass everything through.
	Up, Down impair.Impairment
	// Direct leaves the proxy out: the driver talks to the simulator
	// itself (the closed-loop tests that need no impairment). Rig.Proxy
	// is then nil, and Seed, Up and Down are ignored.
	Direct bool
	// NewSim makes a simulator listening on listen ("127.0.0.1:0" the
	// first time, the same address on a restart).
	NewSim func(listen string) (S, error)
	// NewDriver makes the driver that sends to at (the proxy) and returns
	// its run loop.
	NewDriver func(at netip.AddrPort) (D, func(context.Context) error, error)
}

// Rig is a running simulator, proxy and driver. Its methods may be called
// from any goroutine.
type Rig[S Sim, D any] struct {
	// Proxy is the impairment proxy between the driver and the simulator
	// (nil with Config.Direct).
	Proxy *impair.Proxy
	// Driver is the machine's driver, sending to Proxy.
	Driver D

	t      testing.TB
	newSim func(string) (S, error)

	stopDriver func()

	mu      sync.Mutex
	sim     S
	stopSim func()
}

// New starts the simulator, the proxy and the driver, in that order; they
// stop when the test ends (driver first). It fails the test if any of them
// cannot be made.
func New[S Sim, D any](t testing.TB, cfg Config[S, D]) *Rig[S, D] {
	t.Helper()
	r := &Rig[S, D]{t: t, newSim: cfg.NewSim}
	r.startSim("127.0.0.1:0")
	at := r.Sim().Addr()
	if !cfg.Direct {
		p, err := impair.New(impair.Config{Upstream: at, Seed: cfg.Seed, Up: cfg.Up, Down: cfg.Down})
		if err != nil {
			t.Fatalf("simrig: proxy: %v", err)
		}
		r.Proxy, at = p, p.Addr()
		runtest.Go(t, "proxy", p.Run)
	}
	drv, run, err := cfg.NewDriver(at)
	if err != nil {
		t.Fatalf("simrig: driver: %v", err)
	}
	r.Driver = drv
	r.stopDriver = runtest.Go(t, "driver", run)
	return r
}

// StopDriver stops the driver's run loop and waits for it to return, as
// the end of the test would; the simulator (and proxy) keep running. It
// may be called more than once.
func (r *Rig[S, D]) StopDriver() { r.stopDriver() }

// startSim runs a fresh simulator on listen.
func (r *Rig[S, D]) startSim(listen string) {
	r.t.Helper()
	sim, err := r.newSim(listen)
	if err != nil {
		r.t.Fatalf("simrig: simulator: %v", err)
	}
	stop := runtest.Go(r.t, "sim", sim.Run)
	r.mu.Lock()
	r.sim, r.stopSim = sim, stop
	r.mu.Unlock()
}

// Sim returns the simulator running now (a new one after Reboot).
func (r *Rig[S, D]) Sim() S {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.sim
}

// Reboot kills the simulator and starts a new one on the same address;
// before, if not nil, runs between the two (while no simulator runs).
// The proxy and the driver keep running.
func (r *Rig[S, D]) Reboot(before func()) {
	r.t.Helper()
	r.mu.Lock()
	addr, stop := r.sim.Addr(), r.stopSim
	r.mu.Unlock()
	stop()
	if before != nil {
		before()
	}
	r.startSim(addr.String())
}

// Blackout darkens (on) or restores (off) both directions of the link
// (not with Config.Direct).
func (r *Rig[S, D]) Blackout(on bool) {
	r.Proxy.SetBlackout(impair.Up, on)
	r.Proxy.SetBlackout(impair.Down, on)
}
