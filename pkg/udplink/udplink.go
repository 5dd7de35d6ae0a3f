// Package udplink runs the receive side of a UDP socket: one goroutine
// reads datagrams into a reused buffer, drops those from foreign sources,
// hands the rest to a handler, and counts everything it sees.
//
// The socket stays owned by the caller: Receiver never closes it, so the
// caller can still send its last packets (zero commands to a robot) after
// the receive loop has stopped.
package udplink

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"sync/atomic"
	"time"
)

// ErrOversize is the error for a datagram that filled the whole receive
// buffer and may have been truncated.
var ErrOversize = errors.New("udplink: datagram larger than the receive buffer")

// Counters are the statistics of one socket. Fields are updated by the
// receive goroutine and may be read concurrently.
type Counters struct {
	Received  atomic.Uint64 // datagrams read from the socket
	Accepted  atomic.Uint64 // handled without error
	Foreign   atomic.Uint64 // dropped: source address not accepted
	Malformed atomic.Uint64 // dropped: the handler returned an error, or oversize
}

// Stats is a copy of Counters at one instant, for display and diagnostics.
type Stats struct {
	Received, Accepted, Foreign, Malformed uint64 // as in Counters
}

// Stats returns a copy of the counters.
func (c *Counters) Stats() Stats {
	return Stats{
		Received:  c.Received.Load(),
		Accepted:  c.Accepted.Load(),
		Foreign:   c.Foreign.Load(),
		Malformed: c.Malformed.Load(),
	}
}

// Handler processes one datagram received at at. pkt is only valid during
// the call (the buffer is reused). A non-nil error counts the datagram as
// malformed; the loop goes on.
type Handler func(pkt []byte, from netip.AddrPort, at time.Time) error

// Receiver is the configuration of a receive loop.
type Receiver struct {
	// Conn is the socket to read (required). Only Run reads it.
	Conn *net.UDPConn
	// Handle is called for every accepted datagram (required).
	Handle Handler
	// Accept decides whether a source is allowed; nil accepts every source.
	// See From.
	Accept func(from netip.AddrPort) bool
	// Counters receives the statistics; nil keeps them private.
	Counters *Counters
	// OnDrop, if set, is told why a datagram was dropped (foreign source,
	// oversize, or the handler's error). It runs on the receive goroutine
	// and must not block.
	OnDrop func(from netip.AddrPort, reason error)
	// BufferSize is the receive buffer size in bytes (optional, default
	// 65536). A datagram that fills it entirely is dropped as oversize.
	BufferSize int
}

// ErrForeign is the drop reason given to OnDrop for a source that Accept
// refused.
var ErrForeign = errors.New("udplink: datagram from a foreign address")

// Run reads datagrams until ctx is cancelled (it then returns ctx.Err()) or
// the socket fails (it returns that error wrapped). It does not close Conn.
// Run allocates its buffer once; per datagram it allocates nothing itself.
func (r *Receiver) Run(ctx context.Context) error {
	if r.Conn == nil || r.Handle == nil {
		return errors.New("udplink: Receiver needs Conn and Handle")
	}
	counters := r.Counters
	if counters == nil {
		counters = new(Counters)
	}
	size := r.BufferSize
	if size <= 0 {
		size = 65536
	}
	buf := make([]byte, size)
	// Unblock the pending read when ctx ends, without closing the socket.
	stop := context.AfterFunc(ctx, func() { _ = r.Conn.SetReadDeadline(time.Unix(1, 0)) })
	defer stop()
	for {
		n, from, err := r.Conn.ReadFromUDPAddrPort(buf)
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if err != nil {
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				continue // a deadline set by the caller, not ours
			}
			return fmt.Errorf("udplink: read: %w", err)
		}
		at := time.Now()
		from = netip.AddrPortFrom(from.Addr().Unmap(), from.Port())
		counters.Received.Add(1)
		if r.Accept != nil && !r.Accept(from) {
			counters.Foreign.Add(1)
			r.drop(from, ErrForeign)
			continue
		}
		if n == len(buf) {
			counters.Malformed.Add(1)
			r.drop(from, ErrOversize)
			continue
		}
		if err := r.Handle(buf[:n], from, at); err != nil {
			counters.Malformed.Add(1)
			r.drop(from, err)
			continue
		}
		counters.Accepted.Add(1)
	}
}

func (r *Receiver) drop(from netip.AddrPort, reason error) {
	if r.OnDrop != nil {
		r.OnDrop(from, reason)
	}
}

// From returns an Accept function that admits only datagrams from addr. A
// zero port in addr admits any source port of that address; an unspecified
// address (0.0.0.0 or ::) admits every address.
func From(addr netip.AddrPort) func(netip.AddrPort) bool {
	want := addr.Addr().Unmap()
	port := addr.Port()
	return func(from netip.AddrPort) bool {
		if want.IsValid() && !want.IsUnspecified() && from.Addr() != want {
			return false
		}
		return port == 0 || from.Port() == port
	}
}
