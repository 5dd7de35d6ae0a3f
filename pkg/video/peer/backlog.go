package peer

import (
	"sync"
	"sync/atomic"

	"github.com/pion/interceptor"
	"github.com/pion/rtp"
)

// backlog measures the bytes waiting in the congestion controller's pacer
// (pion's queue is unbounded and not observable): one counter interceptor
// sits just outside the pacer, one just inside; the difference is the
// queue. A camera whose Source overshoots its budget (a passthrough
// camera cannot follow WantBitrate) would otherwise build latency without
// bound.
type backlog struct {
	in, out atomic.Int64 // RTP payload bytes into and out of the pacer [bytes]
}

// bytes returns the bytes queued in the pacer.
func (b *backlog) bytes() int64 { return max(b.in.Load()-b.out.Load(), 0) }

// drainTime is how long the queue takes at rate [bit/s] [s].
func (b *backlog) drainSeconds(rate int) float64 {
	if rate <= 0 {
		return 0
	}
	return float64(b.bytes()) * 8 / float64(rate)
}

// counter is a factory and interceptor adding every written RTP payload's
// size to n.
type counter struct {
	interceptor.NoOp
	n *atomic.Int64
}

// NewInterceptor implements interceptor.Factory.
func (c *counter) NewInterceptor(string) (interceptor.Interceptor, error) { return c, nil }

// BindLocalStream implements interceptor.Interceptor.
func (c *counter) BindLocalStream(_ *interceptor.StreamInfo, w interceptor.RTPWriter) interceptor.RTPWriter {
	return interceptor.RTPWriterFunc(func(h *rtp.Header, payload []byte, a interceptor.Attributes) (int, error) {
		n, err := w.Write(h, payload, a)
		if err == nil {
			c.n.Add(int64(len(payload)))
		}
		return n, err
	})
}

// sentCounter is the innermost interceptor: it counts, per stream, the
// RTP packets and payload bytes that left the pacer for the network
// (retransmissions included), and adds the bytes to out (the backlog's
// outward counter). One per session.
type sentCounter struct {
	interceptor.NoOp
	out *atomic.Int64

	mu      sync.Mutex
	streams map[uint32]*sentStream
}

// sentStream is one stream's count.
type sentStream struct {
	packets, bytes atomic.Uint64 // [1], payload [bytes]
}

// NewInterceptor implements interceptor.Factory.
func (c *sentCounter) NewInterceptor(string) (interceptor.Interceptor, error) { return c, nil }

// BindLocalStream implements interceptor.Interceptor.
func (c *sentCounter) BindLocalStream(info *interceptor.StreamInfo, w interceptor.RTPWriter) interceptor.RTPWriter {
	s := &sentStream{}
	c.mu.Lock()
	if c.streams == nil {
		c.streams = make(map[uint32]*sentStream)
	}
	c.streams[info.SSRC] = s
	c.mu.Unlock()
	return interceptor.RTPWriterFunc(func(h *rtp.Header, payload []byte, a interceptor.Attributes) (int, error) {
		n, err := w.Write(h, payload, a)
		if err == nil {
			c.out.Add(int64(len(payload)))
			s.packets.Add(1)
			s.bytes.Add(uint64(len(payload)))
		}
		return n, err
	})
}

// UnbindLocalStream implements interceptor.Interceptor.
func (c *sentCounter) UnbindLocalStream(info *interceptor.StreamInfo) {
	c.mu.Lock()
	delete(c.streams, info.SSRC)
	c.mu.Unlock()
}

// counts returns the stream ssrc's packets and payload bytes sent.
func (c *sentCounter) counts(ssrc uint32) (packets, bytes uint64) {
	c.mu.Lock()
	s := c.streams[ssrc]
	c.mu.Unlock()
	if s == nil {
		return 0, 0
	}
	return s.packets.Load(), s.bytes.Load()
}
