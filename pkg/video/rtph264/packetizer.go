package rtph264

import (
	"fmt"
	"time"

	"github.com/pion/rtp"
	"github.com/pion/rtp/codecs"

	"github.com/telebridge/telebridge/pkg/video"
)

// ClockRate is the RTP clock of H.264 video [Hz] (RFC 6184).
const ClockRate = 90000

// Defaults of the packetization.
const (
	DefaultPayloadType = 96   // first dynamic payload type
	DefaultMTU         = 1200 // RTP packet size limit [bytes], header included
)

// Packetizer turns access units into RTP packets. Not safe for concurrent
// use: one goroutine owns it.
type Packetizer struct {
	PayloadType uint8  // RTP payload type (the SDP's rtpmap number)
	SSRC        uint32 // RTP synchronisation source of the stream
	MTU         int    // [bytes], RTP header included

	seq     uint16
	ts0     uint32    // timestamp of origin
	origin  time.Time // capture time of the first access unit
	started bool
	pay     codecs.H264Payloader
	pkt     rtp.Packet
	buf     []byte
}

// NewPacketizer returns a packetizer with random initial sequence number
// and timestamp origin (RFC 3550 5.1).
func NewPacketizer(pt uint8, ssrc uint32, mtu int, seq uint16, ts0 uint32) *Packetizer {
	return &Packetizer{PayloadType: pt, SSRC: ssrc, MTU: mtu, seq: seq, ts0: ts0}
}

// Timestamp is the RTP timestamp of capture time t [1/90000 s].
func (p *Packetizer) Timestamp(t time.Time) uint32 {
	if !p.started {
		p.origin, p.started = t, true
	}
	d := t.Sub(p.origin)
	return p.ts0 + uint32(d.Nanoseconds()*ClockRate/int64(time.Second))
}

// Packetize calls send with each RTP packet of au, in order; the packet
// bytes are valid only during the call. It stops at send's first error.
func (p *Packetizer) Packetize(au video.AccessUnit, send func(pkt []byte) error) error {
	ts := p.Timestamp(au.Capture)
	payloads := p.pay.Payload(uint16(p.MTU-12), au.Data)
	for i, pl := range payloads {
		p.pkt.Header = rtp.Header{Version: 2, Marker: i == len(payloads)-1, PayloadType: p.PayloadType,
			SequenceNumber: p.seq, Timestamp: ts, SSRC: p.SSRC}
		p.pkt.Payload = pl
		n := p.pkt.MarshalSize()
		if cap(p.buf) < n {
			p.buf = make([]byte, n)
		}
		b := p.buf[:n]
		if _, err := p.pkt.MarshalTo(b); err != nil {
			return fmt.Errorf("rtph264: marshal: %w", err)
		}
		p.seq++
		if err := send(b); err != nil {
			return err
		}
	}
	return nil
}
