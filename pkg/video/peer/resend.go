package peer

import (
	"sync"
	"sync/atomic"

	"github.com/pion/interceptor"
	"github.com/pion/rtcp"
	"github.com/pion/rtp"
)

// resendSlots is how many of a stream's latest packets are held for
// retransmission: at ~100 packets a second (1 Mbit/s) about 10 s, far
// beyond any receiver's patience (a browser asks for a packet for about
// a second). A power of two, so that a slot is the sequence number's low
// bits and the slots stay in step across the 16-bit wrap.
const resendSlots = 1024

// resender is a session's NACK responder (RFC 4585 generic NACK): it
// holds each stream's latest packets and sends the ones a receiver asks
// for again, with their sequence numbers, through the rest of the chain
// (MID, transport-wide sequence number, the pacer: a retransmission
// respects the estimate like any packet).
//
// It holds no copy of a packet: the header's fields and the payload
// slice. This package's tracks are written only by stamper, whose
// payloads are shared by every session and never written after
// packetization (payloads.go), so ten viewers hold one copy of the
// recent video, not ten. pion's responder copies every packet of every
// session into a buffer of its own (1.2 kB and three allocations a
// packet), which was most of a session's allocations.
//
// One per session (the factory is the interceptor); registered outermost,
// so that it sees the packets before any other interceptor.
type resender struct {
	interceptor.NoOp

	mu      sync.Mutex
	streams map[uint32]*heldStream
}

// heldStream is one stream's recent packets.
type heldStream struct {
	w     interceptor.RTPWriter // the chain inward of the resender
	ssrc  uint32
	mu    sync.Mutex
	slots [resendSlots]heldPacket

	resent, missed atomic.Uint64 // packets sent again; asked for but no longer held
}

// heldPacket is what resending a packet takes: its header's fields, and
// its payload (shared, read-only).
type heldPacket struct {
	payload     []byte
	timestamp   uint32
	seq         uint16
	payloadType uint8
	marker      bool
	held        bool
}

// NewInterceptor implements interceptor.Factory.
func (r *resender) NewInterceptor(string) (interceptor.Interceptor, error) { return r, nil }

// BindLocalStream implements interceptor.Interceptor: every packet
// written is held in its sequence number's slot.
func (r *resender) BindLocalStream(info *interceptor.StreamInfo, w interceptor.RTPWriter) interceptor.RTPWriter {
	hs := &heldStream{w: w, ssrc: info.SSRC}
	r.mu.Lock()
	if r.streams == nil {
		r.streams = make(map[uint32]*heldStream)
	}
	r.streams[info.SSRC] = hs
	r.mu.Unlock()
	return interceptor.RTPWriterFunc(func(h *rtp.Header, payload []byte, a interceptor.Attributes) (int, error) {
		hs.hold(h, payload)
		return w.Write(h, payload, a)
	})
}

// UnbindLocalStream implements interceptor.Interceptor.
func (r *resender) UnbindLocalStream(info *interceptor.StreamInfo) {
	r.mu.Lock()
	delete(r.streams, info.SSRC)
	r.mu.Unlock()
}

// BindRTCPReader implements interceptor.Interceptor: NACKs from the
// receiver are answered as they are read. A datagram that does not parse
// is Read's error, as in pion's own responder.
func (r *resender) BindRTCPReader(reader interceptor.RTCPReader) interceptor.RTCPReader {
	return interceptor.RTCPReaderFunc(func(b []byte, a interceptor.Attributes) (int, interceptor.Attributes, error) {
		n, a, err := reader.Read(b, a)
		if err != nil {
			return 0, nil, err
		}
		if a == nil {
			a = make(interceptor.Attributes)
		}
		pkts, err := a.GetRTCPPackets(b[:n])
		if err != nil {
			return 0, nil, err
		}
		for _, p := range pkts {
			if nack, ok := p.(*rtcp.TransportLayerNack); ok {
				r.answer(nack)
			}
		}
		return n, a, nil
	})
}

// stream returns the held stream ssrc, nil if none.
func (r *resender) stream(ssrc uint32) *heldStream {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.streams[ssrc]
}

// answer sends again every packet nack asks for that is still held.
func (r *resender) answer(nack *rtcp.TransportLayerNack) {
	hs := r.stream(nack.MediaSSRC)
	if hs == nil {
		return
	}
	for i := range nack.Nacks {
		nack.Nacks[i].Range(func(seq uint16) bool {
			hs.resend(seq)
			return true
		})
	}
}

// hold keeps the packet in its slot, replacing the one 1024 sequence
// numbers older.
func (hs *heldStream) hold(h *rtp.Header, payload []byte) {
	hs.mu.Lock()
	hs.slots[h.SequenceNumber%resendSlots] = heldPacket{payload: payload, timestamp: h.Timestamp,
		seq: h.SequenceNumber, payloadType: h.PayloadType, marker: h.Marker, held: true}
	hs.mu.Unlock()
}

// resend writes packet seq again if it is still held.
func (hs *heldStream) resend(seq uint16) {
	hs.mu.Lock()
	p := hs.slots[seq%resendSlots]
	hs.mu.Unlock()
	if !p.held || p.seq != seq {
		hs.missed.Add(1)
		return
	}
	h := rtp.Header{Version: 2, PayloadType: p.payloadType, SequenceNumber: seq, Timestamp: p.timestamp,
		SSRC: hs.ssrc, Marker: p.marker}
	if _, err := hs.w.Write(&h, p.payload, nil); err == nil {
		hs.resent.Add(1)
	}
}

// counts returns the stream ssrc's packets sent again and those asked
// for that were no longer held.
func (r *resender) counts(ssrc uint32) (resent, missed uint64) {
	if hs := r.stream(ssrc); hs != nil {
		return hs.resent.Load(), hs.missed.Load()
	}
	return 0, 0
}
