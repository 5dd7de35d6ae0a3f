package peer

import (
	"sync/atomic"

	"github.com/pion/interceptor"
	"github.com/pion/rtp"
)

// sentCounter is the innermost interceptor: it counts, per stream, the
// RTP packets and payload bytes that left the pacer for the network
// (retransmissions included). One per session.
type sentCounter struct {
	interceptor.NoOp
	streams streams[sentStream]
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
	c.streams.put(info.SSRC, s)
	return interceptor.RTPWriterFunc(func(h *rtp.Header, payload []byte, a interceptor.Attributes) (int, error) {
		n, err := w.Write(h, payload, a)
		if err == nil {
			s.packets.Add(1)
			s.bytes.Add(uint64(len(payload)))
		}
		return n, err
	})
}

// UnbindLocalStream implements interceptor.Interceptor.
func (c *sentCounter) UnbindLocalStream(info *interceptor.StreamInfo) {
	c.streams.remove(info.SSRC)
}

// counts returns the stream ssrc's packets and payload bytes sent.
func (c *sentCounter) counts(ssrc uint32) (packets, bytes uint64) {
	s := c.streams.get(ssrc)
	if s == nil {
		return 0, 0
	}
	return s.packets.Load(), s.bytes.Load()
}
