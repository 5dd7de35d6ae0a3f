package peer

import (
	"sync"
	"sync/atomic"
	"time"

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

const (
	// resendGap is added to the round-trip time and the pacer's queue
	// delay: a packet asked for again sooner than that after its last
	// retransmission is not sent again (the receiver could not have had
	// it yet; a pion page asks every 100 ms, Chromium every round trip).
	resendGap = 5 * time.Millisecond
	// resendShare is the share of the estimate retransmissions may take
	// (a token bucket per session, resendBurst deep): enough to repair
	// 30 % loss, never a flood of repeats on a congested link.
	resendShare = 0.5
	resendBurst = 250 * time.Millisecond
)

// resender is a session's NACK responder (RFC 4585 generic NACK): it
// holds each stream's latest packets and sends the ones a receiver asks
// for again, with their sequence numbers, through the rest of the chain
// (MID, transport-wide sequence number, the pacer). A packet is sent
// again at most once per round trip plus the pacer's queue delay, and
// all retransmissions together within resendShare of the estimate.
//
// It holds no copy of a packet: the header's fields and the payload
// slice. This package's tracks are written only by stamper, whose
// payloads are shared by every session and never written after
// packetization (payloads.go), so ten viewers hold one copy of the
// recent video, not ten. pion's responder copies every packet of every
// session into a buffer of its own (1.2 kB and three allocations a
// packet), which was most of a session's allocations.
//
// It also reads the receiver's reception reports: the round-trip time of
// each stream (RFC 3550 section 6.4.1).
//
// One per session (the factory is the interceptor); registered outermost,
// so that it sees the packets before any other interceptor. Set
// queueDelay and target before the first stream is bound.
type resender struct {
	interceptor.NoOp
	queueDelay func() time.Duration // how long the pacer's queue takes to drain (nil: 0)
	target     *atomic.Int64        // the estimate [bit/s] (nil or 0: no retransmission budget)
	now        func() time.Time

	streams streams[heldStream]

	mu     sync.Mutex // guards the budget
	tokens float64    // retransmission budget left [bytes]
	filled time.Time  // when tokens was last refilled
}

// heldStream is one stream's recent packets and what its receiver
// reported.
type heldStream struct {
	w     interceptor.RTPWriter // the chain inward of the resender
	ssrc  uint32
	mu    sync.Mutex
	slots [resendSlots]heldPacket

	asked, resent, missed, skipped atomic.Uint64 // packets asked for; sent again; no longer held; not sent again (too soon, over budget)
	rtt                            atomic.Int64  // the latest round-trip time [ns]; 0: none yet
}

// heldPacket is what resending a packet takes: its header's fields, its
// payload (shared, read-only), and when it was last sent again.
type heldPacket struct {
	payload     []byte
	resentAt    time.Time
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
	r.streams.put(info.SSRC, hs)
	return interceptor.RTPWriterFunc(func(h *rtp.Header, payload []byte, a interceptor.Attributes) (int, error) {
		hs.hold(h, payload)
		return w.Write(h, payload, a)
	})
}

// UnbindLocalStream implements interceptor.Interceptor.
func (r *resender) UnbindLocalStream(info *interceptor.StreamInfo) {
	r.streams.remove(info.SSRC)
}

// BindRTCPReader implements interceptor.Interceptor: NACKs from the
// receiver are answered, and its reception reports read, as they come. A
// datagram that does not parse is Read's error, as in pion's own
// responder.
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
		now := r.clock()
		for _, p := range pkts {
			switch p := p.(type) {
			case *rtcp.TransportLayerNack:
				r.answer(p, now)
			case *rtcp.ReceiverReport:
				r.noteRTT(p.Reports, now)
			case *rtcp.SenderReport:
				r.noteRTT(p.Reports, now)
			}
		}
		return n, a, nil
	})
}

func (r *resender) clock() time.Time {
	if r.now != nil {
		return r.now()
	}
	return time.Now()
}

// answer sends again every packet nack asks for that is held and due.
func (r *resender) answer(nack *rtcp.TransportLayerNack, now time.Time) {
	hs := r.streams.get(nack.MediaSSRC)
	if hs == nil {
		return
	}
	gap := time.Duration(hs.rtt.Load()) + resendGap
	if r.queueDelay != nil {
		gap += r.queueDelay()
	}
	for i := range nack.Nacks {
		nack.Nacks[i].Range(func(seq uint16) bool {
			hs.asked.Add(1)
			hs.resend(r, seq, now, gap)
			return true
		})
	}
}

// spend takes size bytes from the session's retransmission budget at
// now; false if it does not hold them.
func (r *resender) spend(size int, now time.Time) bool {
	rate := 0.0
	if r.target != nil {
		rate = resendShare * float64(r.target.Load()) / 8
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	depth := max(rate*resendBurst.Seconds(), 1500)
	if r.filled.IsZero() {
		r.tokens = depth
	} else {
		r.tokens = min(r.tokens+rate*max(now.Sub(r.filled), 0).Seconds(), depth)
	}
	r.filled = now
	if r.tokens < float64(size) {
		return false
	}
	r.tokens -= float64(size)
	return true
}

// noteRTT keeps the round-trip time of every report about a held stream.
func (r *resender) noteRTT(reports []rtcp.ReceptionReport, now time.Time) {
	for _, rep := range reports {
		hs := r.streams.get(rep.SSRC)
		if hs == nil {
			continue
		}
		if rtt, ok := reportRTT(rep, now); ok {
			hs.rtt.Store(int64(rtt))
		}
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

// resend writes packet seq again if it is held, was not sent again
// within gap, and the budget allows.
func (hs *heldStream) resend(r *resender, seq uint16, now time.Time, gap time.Duration) {
	hs.mu.Lock()
	p := &hs.slots[seq%resendSlots]
	if !p.held || p.seq != seq {
		hs.mu.Unlock()
		hs.missed.Add(1)
		return
	}
	if !p.resentAt.IsZero() && now.Sub(p.resentAt) < gap || !r.spend(12+len(p.payload), now) {
		hs.mu.Unlock()
		hs.skipped.Add(1)
		return
	}
	p.resentAt = now
	h := rtp.Header{Version: 2, PayloadType: p.payloadType, SequenceNumber: seq, Timestamp: p.timestamp,
		SSRC: hs.ssrc, Marker: p.marker}
	payload := p.payload
	hs.mu.Unlock()
	if _, err := hs.w.Write(&h, payload, nil); err == nil {
		hs.resent.Add(1)
	}
}

// resendCounts are one stream's NACK figures.
type resendCounts struct {
	asked, resent, missed, skipped uint64
	rtt                            time.Duration
}

// counts returns the stream ssrc's figures. asked is read last, so that
// resent + missed + skipped <= asked holds in what it returns.
func (r *resender) counts(ssrc uint32) resendCounts {
	hs := r.streams.get(ssrc)
	if hs == nil {
		return resendCounts{}
	}
	c := resendCounts{resent: hs.resent.Load(), missed: hs.missed.Load(), skipped: hs.skipped.Load(),
		rtt: time.Duration(hs.rtt.Load())}
	c.asked = hs.asked.Load()
	return c
}
