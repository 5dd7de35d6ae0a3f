package udplink

import (
	"context"
	"errors"
	"net"
	"net/netip"
	"sync"
	"testing"
	"time"
)

func listen(t *testing.T) *net.UDPConn {
	t.Helper()
	c, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func addrOf(c *net.UDPConn) netip.AddrPort {
	return c.LocalAddr().(*net.UDPAddr).AddrPort()
}

// waitFor polls cond; the receive loop is asynchronous by nature.
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition not met within 5 s")
		}
		time.Sleep(time.Millisecond)
	}
}

func TestReceiverFiltersAndCounts(t *testing.T) {
	server, peer, stranger := listen(t), listen(t), listen(t)
	var (
		mu  sync.Mutex
		got []string
	)
	var c Counters
	r := &Receiver{
		Conn:       server,
		Accept:     From(addrOf(peer)),
		Counters:   &c,
		BufferSize: 16,
		Handle: func(pkt []byte, from netip.AddrPort, at time.Time) error {
			if from != addrOf(peer) {
				t.Errorf("handler saw source %v", from)
			}
			if at.IsZero() {
				t.Error("zero receive time")
			}
			if string(pkt) == "bad" {
				return errors.New("bad packet")
			}
			mu.Lock()
			got = append(got, string(pkt))
			mu.Unlock()
			return nil
		},
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- r.Run(ctx) }()

	to := addrOf(server)
	send := func(c *net.UDPConn, s string) {
		if _, err := c.WriteToUDPAddrPort([]byte(s), to); err != nil {
			t.Fatal(err)
		}
	}
	send(peer, "one")
	send(stranger, "intruder")
	send(peer, "bad")
	send(peer, "0123456789abcdefXYZ") // fills the 16-byte buffer: oversize
	send(peer, "two")
	waitFor(t, func() bool { return c.Received.Load() == 5 })
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("Run returned %v", err)
	}
	want := Stats{Received: 5, Accepted: 2, Foreign: 1, Malformed: 2}
	if s := c.Stats(); s != want {
		t.Fatalf("stats %+v, want %+v", s, want)
	}
	if len(got) != 2 || got[0] != "one" || got[1] != "two" {
		t.Fatalf("handled %q", got)
	}
	// The socket still works for sending after the loop stopped.
	if _, err := server.WriteToUDPAddrPort([]byte("stop"), addrOf(peer)); err != nil {
		t.Fatalf("socket unusable after Run: %v", err)
	}
}

func TestReceiverReturnsSocketError(t *testing.T) {
	c := listen(t)
	r := &Receiver{Conn: c, Handle: func([]byte, netip.AddrPort, time.Time) error { return nil }}
	done := make(chan error, 1)
	go func() { done <- r.Run(context.Background()) }()
	c.Close()
	if err := <-done; err == nil || errors.Is(err, context.Canceled) {
		t.Fatalf("Run returned %v after the socket closed", err)
	}
}

func TestFrom(t *testing.T) {
	p := netip.MustParseAddrPort
	tests := []struct {
		allow, from string
		ok          bool
	}{
		{"10.42.0.1:10000", "10.42.0.1:10000", true},
		{"10.42.0.1:10000", "10.42.0.1:10001", false},
		{"10.42.0.1:10000", "10.42.0.2:10000", false},
		{"10.42.0.1:0", "10.42.0.1:4242", true},
		{"0.0.0.0:0", "192.168.1.1:1", true},
		{"[::ffff:127.0.0.1]:5", "127.0.0.1:5", true},
	}
	for _, tc := range tests {
		if got := From(p(tc.allow))(p(tc.from)); got != tc.ok {
			t.Errorf("From(%s)(%s) = %v, want %v", tc.allow, tc.from, got, tc.ok)
		}
	}
}
