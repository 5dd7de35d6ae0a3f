package main

import (
	"context"
	"net"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/telebridge/telebridge/internal/testkit/syncbuf"
)

// TestSoakRuns runs a 3.5 s soak (three reports) with a blackout: both stacks come up
// through the proxies and the report has its lines.
func TestSoakRuns(t *testing.T) {
	var out strings.Builder
	err := runSoak(context.Background(), []string{"--duration", "3500ms", "--every", "1s", "--blackout-every", "1500ms", "--blackout", "300ms",
		"--max-missed", "1", "--max-gap", "10s"}, stdio{out: &out, err: &out})
	t.Log(out.String())
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(out.String(), "\n  "); n < 3 {
		t.Errorf("%d report lines, want at least 3", n)
	}
}

// TestImpairCommand runs `telebridge impair` in front of an echo server:
// a datagram sent to the address it prints comes back through it, and
// bad flags are usage errors.
func TestImpairCommand(t *testing.T) {
	if code, _, _ := call(t, "", "impair"); code != 2 {
		t.Errorf("no --upstream: exit %d, want 2", code)
	}
	if code, _, _ := call(t, "", "impair", "--upstream", "127.0.0.1:9", "--loss", "2"); code != 2 {
		t.Errorf("loss 2: exit %d, want 2", code)
	}
	echo, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	defer echo.Close()
	go func() {
		buf := make([]byte, 64)
		for {
			n, from, err := echo.ReadFromUDPAddrPort(buf)
			if err != nil {
				return
			}
			_, _ = echo.WriteToUDPAddrPort(buf[:n], from)
		}
	}()
	var out syncbuf.Buffer
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, []string{"impair", "--upstream", echo.LocalAddr().String(), "--every", "1h"}, stdio{out: &out, err: &out})
	}()
	var to netip.AddrPort
	deadline := time.Now().Add(10 * time.Second)
	for !to.IsValid() {
		if time.Now().After(deadline) {
			t.Fatalf("no address printed: %q", out.String())
		}
		if f := strings.Fields(out.String()); len(f) > 3 && f[1] == "send" {
			to, _ = netip.ParseAddrPort(f[3])
		}
		time.Sleep(5 * time.Millisecond)
	}
	c, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.WriteToUDPAddrPort([]byte("ping"), to); err != nil {
		t.Fatal(err)
	}
	_ = c.SetReadDeadline(time.Now().Add(10 * time.Second))
	buf := make([]byte, 64)
	n, _, err := c.ReadFromUDPAddrPort(buf)
	if err != nil || string(buf[:n]) != "ping" {
		t.Errorf("echo through the proxy: %q, %v", buf[:n], err)
	}
	cancel()
	if code := <-done; code != 0 {
		t.Errorf("exit %d: %s", code, out.String())
	}
}
