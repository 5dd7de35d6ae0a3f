package impair

import (
	"context"
	"encoding/binary"
	"net"
	"net/netip"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/telebridge/telebridge/internal/testkit/runtest"
)

// echo is an upstream server that records what it receives and answers
// each datagram with a copy.
type echo struct {
	conn *net.UDPConn
	mu   sync.Mutex
	got  []uint32 // packet numbers in arrival order
	lens []int
}

func newEcho(t *testing.T) *echo {
	t.Helper()
	c, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	e := &echo{conn: c}
	t.Cleanup(func() { _ = c.Close() })
	go func() {
		buf := make([]byte, 2048)
		for {
			n, from, err := c.ReadFromUDPAddrPort(buf)
			if err != nil {
				return
			}
			e.mu.Lock()
			if n >= 4 {
				e.got = append(e.got, binary.BigEndian.Uint32(buf))
			}
			e.lens = append(e.lens, n)
			e.mu.Unlock()
			_, _ = c.WriteToUDPAddrPort(buf[:n], from)
		}
	}()
	return e
}

func (e *echo) addr() netip.AddrPort { return e.conn.LocalAddr().(*net.UDPAddr).AddrPort() }

func (e *echo) received() ([]uint32, []int) {
	e.mu.Lock()
	defer e.mu.Unlock()
	return slices.Clone(e.got), slices.Clone(e.lens)
}

// startProxy runs a proxy to up until the test ends.
func startProxy(t *testing.T, cfg Config) *Proxy {
	t.Helper()
	p, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- p.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("proxy Run: %v", err)
		}
	})
	return p
}

func dialClient(t *testing.T) *net.UDPConn {
	t.Helper()
	c, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	return c
}

func send(t *testing.T, c *net.UDPConn, to netip.AddrPort, from, n int) {
	t.Helper()
	var b [57]byte
	for i := from; i < from+n; i++ {
		binary.BigEndian.PutUint32(b[:], uint32(i))
		if _, err := c.WriteToUDPAddrPort(b[:], to); err != nil {
			t.Fatal(err)
		}
	}
}

// waitFor waits for cond with a bound of 10 s, far beyond any loaded
// machine; the test passes as soon as the condition holds.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	runtest.WaitFor(t, 10*time.Second, what, cond)
}

// TestProxyLossIsTheSeededDecision checks over real UDP that the packets
// that reach the server are exactly those the seeded chain keeps.
func TestProxyLossIsTheSeededDecision(t *testing.T) {
	const n, seed = 300, 5
	im := Impairment{Loss: 0.3, Burst: &GilbertElliott{P: 0.05, R: 0.3, LossBad: 1}}
	e := newEcho(t)
	p := startProxy(t, Config{Upstream: e.addr(), Seed: seed, Up: im})
	c := dialClient(t)
	// Lock-step: one packet at a time, so that a loaded machine cannot
	// overflow the proxy's socket buffer (the kernel would drop packets the
	// chain never saw).
	for i := range n {
		send(t, c, p.Addr(), i, 1)
		waitFor(t, "the packet decided", func() bool {
			s := p.Stats(Up)
			return s.Received == uint64(i+1) && s.Sent+s.Lost() == uint64(i+1)
		})
	}
	sent := p.Stats(Up).Sent
	waitFor(t, "the server to receive what was sent", func() bool { got, _ := e.received(); return uint64(len(got)) == sent })

	ch, _ := NewChain(im, seed*2) // the Up stream
	var want []uint32
	for i := range n {
		if ch.Decide(57).Fate == Forward {
			want = append(want, uint32(i))
		}
	}
	got, _ := e.received()
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("server got %d packets %v\nwant %d %v", len(got), got, len(want), want)
	}
	s := p.Stats(Up)
	if s.LostRandom == 0 || s.LostBurst == 0 || s.Sent != uint64(len(want)) {
		t.Errorf("counters %+v, want both losses and %d sent", s, len(want))
	}
}

func TestProxyDownDuplicatesAndTruncates(t *testing.T) {
	e := newEcho(t)
	p := startProxy(t, Config{Upstream: e.addr(), Seed: 1, Down: Impairment{Duplicate: 1, Truncate: 1}})
	c := dialClient(t)
	send(t, c, p.Addr(), 0, 5)
	buf := make([]byte, 100)
	_ = c.SetReadDeadline(time.Now().Add(10 * time.Second))
	for i := range 10 {
		n, _, err := c.ReadFromUDPAddrPort(buf)
		if err != nil {
			t.Fatalf("reply %d: %v", i, err)
		}
		if n >= 57 {
			t.Errorf("reply %d: %d bytes, want truncated", i, n)
		}
	}
	// The counter follows the write the client has already read.
	waitFor(t, "10 sent counted", func() bool { return p.Stats(Down).Sent == 10 })
	if s := p.Stats(Down); s.Duplicated != 5 || s.Truncated != 5 || s.Sent != 10 {
		t.Errorf("down counters %+v, want 5 duplicated, 5 truncated, 10 sent", s)
	}
	if _, lens := e.received(); len(lens) != 5 || lens[0] != 57 {
		t.Errorf("server saw lengths %v, want 5 whole packets (up unimpaired)", lens)
	}
}

func TestProxyReorders(t *testing.T) {
	e := newEcho(t)
	// Every other packet (by the seeded draw) is held back half a second,
	// far longer than sending the whole burst takes.
	p := startProxy(t, Config{Upstream: e.addr(), Seed: 3, Up: Impairment{Reorder: 0.5, ReorderDelay: 500 * time.Millisecond}})
	c := dialClient(t)
	send(t, c, p.Addr(), 0, 40)
	waitFor(t, "all 40 packets", func() bool { got, _ := e.received(); return len(got) == 40 })
	got, _ := e.received()
	if slices.IsSorted(got) {
		t.Errorf("arrival order %v is sorted, want reordered", got)
	}
	if r := p.Stats(Up).Reordered; r < 5 || r > 35 {
		t.Errorf("reordered %d of 40", r)
	}
}

func TestProxyBlackoutSwitch(t *testing.T) {
	e := newEcho(t)
	p := startProxy(t, Config{Upstream: e.addr(), Seed: 1})
	c := dialClient(t)
	p.SetBlackout(Up, true)
	send(t, c, p.Addr(), 0, 10)
	waitFor(t, "10 blacked out", func() bool { return p.Stats(Up).Blackout == 10 })
	p.SetBlackout(Up, false)
	send(t, c, p.Addr(), 10, 1)
	waitFor(t, "the packet after the blackout", func() bool { got, _ := e.received(); return len(got) == 1 })
	if got, _ := e.received(); got[0] != 10 {
		t.Errorf("server got %v, want only packet 10", got)
	}
}

func TestProxyScheduledBlackout(t *testing.T) {
	e := newEcho(t)
	p := startProxy(t, Config{Upstream: e.addr(), Seed: 1, Down: Impairment{Blackouts: []Window{{0, time.Hour}}}})
	c := dialClient(t)
	send(t, c, p.Addr(), 0, 3)
	waitFor(t, "3 answers blacked out", func() bool { return p.Stats(Down).Blackout == 3 })
	if s := p.Stats(Down); s.Sent != 0 {
		t.Errorf("down sent %d in a blackout", s.Sent)
	}
}

func TestNewRejects(t *testing.T) {
	if _, err := New(Config{}); err == nil {
		t.Error("no upstream accepted")
	}
	if _, err := New(Config{Upstream: netip.MustParseAddrPort("127.0.0.1:9"), Up: Impairment{Loss: 2}}); err == nil {
		t.Error("loss 2 accepted")
	}
}

// A wandering jitter delays packets by up to Jitter and keeps them in
// order (packets sent back to back at 1 per ms).
func TestProxyWanderKeepsOrder(t *testing.T) {
	e := newEcho(t)
	p := startProxy(t, Config{Upstream: e.addr(), Seed: 9,
		Up: Impairment{Delay: 5 * time.Millisecond, Jitter: 40 * time.Millisecond, Wander: 100 * time.Millisecond}})
	c := dialClient(t)
	for i := range 300 {
		send(t, c, p.Addr(), i, 1)
		time.Sleep(time.Millisecond) // spacing, so the wander moves between packets
	}
	waitFor(t, "all 300 packets", func() bool { got, _ := e.received(); return len(got) == 300 })
	if got, _ := e.received(); !slices.IsSorted(got) {
		t.Errorf("arrival order not kept: %v", got)
	}
}
