package simrig_test

import (
	"context"
	"errors"
	"net"
	"net/netip"
	"sync/atomic"
	"testing"
	"time"

	"github.com/telebridge/telebridge/internal/testkit/runtest"
	"github.com/telebridge/telebridge/internal/testkit/simrig"
	"github.com/telebridge/telebridge/pkg/impair"
	"github.com/telebridge/telebridge/pkg/udplink"
)

// echo is a simulator that answers every datagram with the same bytes.
type echo struct{ conn *net.UDPConn }

func newEcho(listen string) (*echo, error) {
	c, err := udplink.Listen(listen)
	if err != nil {
		return nil, err
	}
	return &echo{conn: c}, nil
}

func (e *echo) Addr() netip.AddrPort { return e.conn.LocalAddr().(*net.UDPAddr).AddrPort() }

func (e *echo) Run(ctx context.Context) error {
	go func() { <-ctx.Done(); e.conn.Close() }()
	buf := make([]byte, 64)
	for {
		n, from, err := e.conn.ReadFromUDPAddrPort(buf)
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return err
		}
		if _, err := e.conn.WriteToUDPAddrPort(buf[:n], from); err != nil && ctx.Err() == nil {
			return err
		}
	}
}

// pinger is a driver that sends every 5 ms and counts the answers.
type pinger struct {
	conn    *net.UDPConn
	to      netip.AddrPort
	answers atomic.Int64
}

func (p *pinger) Run(ctx context.Context) error {
	go func() { <-ctx.Done(); p.conn.Close() }()
	go func() {
		tk := time.NewTicker(5 * time.Millisecond)
		defer tk.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tk.C:
				_, _ = p.conn.WriteToUDPAddrPort([]byte("ping"), p.to)
			}
		}
	}()
	buf := make([]byte, 64)
	for {
		if _, _, err := p.conn.ReadFromUDPAddrPort(buf); err != nil {
			if ctx.Err() != nil || errors.Is(err, net.ErrClosed) {
				return nil
			}
			continue // an ICMP refusal while the simulator reboots
		}
		p.answers.Add(1)
	}
}

// TestRigRebootAndBlackout: the driver's packets reach the simulator
// through the proxy and back; a blackout stops them; after a reboot the
// new simulator, on the same port, answers.
func TestRigRebootAndBlackout(t *testing.T) {
	r := simrig.New(t, simrig.Config[*echo, *pinger]{
		Seed:   1,
		NewSim: newEcho,
		NewDriver: func(at netip.AddrPort) (*pinger, func(context.Context) error, error) {
			c, err := udplink.Listen("127.0.0.1:0")
			if err != nil {
				return nil, nil, err
			}
			p := &pinger{conn: c, to: at}
			return p, p.Run, nil
		},
	})
	answers := func() int64 { return r.Driver.answers.Load() }
	runtest.WaitFor(t, 20*time.Second, "10 answers", func() bool { return answers() >= 10 })

	r.Blackout(true)
	n := r.Proxy.Stats(impair.Up).Received
	runtest.WaitFor(t, 20*time.Second, "10 packets into the blackout", func() bool {
		return r.Proxy.Stats(impair.Up).Received >= n+10
	})
	a := answers()
	m := r.Proxy.Stats(impair.Up).Received
	runtest.WaitFor(t, 20*time.Second, "10 more packets into the blackout", func() bool {
		return r.Proxy.Stats(impair.Up).Received >= m+10
	})
	if got := answers(); got > a+1 { // one answer may have been in flight
		t.Errorf("%d answers during the blackout", got-a)
	}
	r.Blackout(false)

	first := r.Sim()
	addr := first.Addr()
	ran := false
	r.Reboot(func() { ran = true })
	if !ran {
		t.Error("Reboot did not call before")
	}
	if r.Sim() == first || r.Sim().Addr() != addr {
		t.Errorf("after the reboot: simulator %p at %v, want a new one at %v", r.Sim(), r.Sim().Addr(), addr)
	}
	a = answers()
	runtest.WaitFor(t, 20*time.Second, "10 answers from the rebooted simulator", func() bool { return answers() >= a+10 })
}

// TestRigDirect: without the proxy the driver talks to the simulator
// itself; StopDriver ends the driver and leaves the simulator running.
func TestRigDirect(t *testing.T) {
	r := simrig.New(t, simrig.Config[*echo, *pinger]{
		Direct: true,
		NewSim: newEcho,
		NewDriver: func(at netip.AddrPort) (*pinger, func(context.Context) error, error) {
			c, err := udplink.Listen("127.0.0.1:0")
			if err != nil {
				return nil, nil, err
			}
			p := &pinger{conn: c, to: at}
			return p, p.Run, nil
		},
	})
	if r.Proxy != nil {
		t.Error("a proxy with Direct")
	}
	if r.Driver.to != r.Sim().Addr() {
		t.Errorf("driver sends to %v, simulator at %v", r.Driver.to, r.Sim().Addr())
	}
	runtest.WaitFor(t, 20*time.Second, "10 answers", func() bool { return r.Driver.answers.Load() >= 10 })
	r.StopDriver()
	r.StopDriver() // idempotent
	// The driver's Run has returned and closed its socket: no answer can
	// be counted any more, while the simulator still answers others.
	if _, err := r.Driver.conn.WriteToUDPAddrPort([]byte("x"), r.Sim().Addr()); err == nil {
		t.Error("the driver's socket is still open after StopDriver")
	}
	c, err := udplink.Listen("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.WriteToUDPAddrPort([]byte("ping"), r.Sim().Addr()); err != nil {
		t.Fatal(err)
	}
	_ = c.SetReadDeadline(time.Now().Add(20 * time.Second))
	buf := make([]byte, 8)
	if _, _, err := c.ReadFromUDPAddrPort(buf); err != nil {
		t.Errorf("the simulator does not answer after StopDriver: %v", err)
	}
}
