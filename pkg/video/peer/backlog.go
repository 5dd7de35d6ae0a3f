package peer

import (
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
