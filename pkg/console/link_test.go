package console

import (
	"context"
	"net"
	"testing"
	"time"
)

// A healthy connection is not stalled; a context without a TCP
// connection (a test's pipe) never is.
func TestLinkStalled(t *testing.T) {
	if stalled, _ := linkStalled(context.Background()); stalled {
		t.Error("no connection: stalled")
	}
	a, b := net.Pipe()
	defer a.Close()
	defer b.Close()
	if stalled, _ := linkStalled(withConn(context.Background(), a)); stalled {
		t.Error("a pipe: stalled")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	c, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	s, err := ln.Accept()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.Write([]byte("ping")); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 4)
	if _, err := c.Read(buf); err != nil { // read, so acknowledged
		t.Fatal(err)
	}
	// The acknowledgement may be delayed (delayed ACK, a loaded machine):
	// wait for it, far longer than it takes.
	end := time.Now().Add(5 * time.Second)
	for {
		stalled, since := linkStalled(withConn(context.Background(), s))
		if !stalled {
			break
		}
		if time.Now().After(end) {
			t.Fatalf("a loopback connection whose bytes were read: stalled (last ack %v ago)", since)
		}
		time.Sleep(time.Millisecond)
	}
}
