package impairedlink

import (
	"context"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/telebridge/telebridge/internal/testkit/netns"
)

// forwarder carries the page's TCP (HTTP, the WebSocket) from a listener
// on the operator's loopback to the console, its far side made in the
// link namespace so that the bytes cross the rate-capped veth (and its
// blackouts, which TCP rides out by retransmitting).
type forwarder struct {
	ln     net.Listener
	linkNS string
	to     string
	wg     sync.WaitGroup
}

func startForwarder(t *testing.T, ctx context.Context, linkNS, to string) *forwarder {
	t.Helper()
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	f := &forwarder{ln: ln, linkNS: linkNS, to: to}
	f.wg.Add(1)
	go f.accept(t)
	t.Cleanup(func() {
		_ = ln.Close()
		f.wg.Wait()
	})
	go func() {
		<-ctx.Done()
		_ = ln.Close()
	}()
	return f
}

func (f *forwarder) accept(t *testing.T) {
	defer f.wg.Done()
	for {
		c, err := f.ln.Accept()
		if err != nil {
			return
		}
		var up net.Conn
		err = netns.Do(f.linkNS, func() error {
			var derr error
			up, derr = net.DialTimeout("tcp4", f.to, 5*time.Second)
			return derr
		})
		if err != nil {
			t.Errorf("forwarder: dial the console: %v", err)
			_ = c.Close()
			continue
		}
		f.wg.Add(2)
		go f.pipe(c, up)
		go f.pipe(up, c)
	}
}

// pipe copies src to dst until either ends, then closes both.
func (f *forwarder) pipe(dst, src net.Conn) {
	defer f.wg.Done()
	defer dst.Close()
	defer src.Close()
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		if n > 0 {
			if _, werr := dst.Write(buf[:n]); werr != nil {
				return
			}
		}
		if err != nil { // EOF or closed: the other pipe ends on the closed conns
			return
		}
	}
}
