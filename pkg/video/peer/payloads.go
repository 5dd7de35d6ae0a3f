package peer

import (
	"math/rand/v2"
	"sync"
	"time"
	"unsafe"

	"github.com/pion/rtp"
	"github.com/pion/rtp/codecs"

	"github.com/telebridge/telebridge/pkg/video"
)

// rtpMTU is the largest RTP packet before header extensions [bytes]
// (pion's outbound MTU); a payload is 12 bytes less.
const rtpMTU = 1200

// recentUnits is how many access units of one Source stay packetized:
// a session that lags by up to this many (Config.QueueDepth is 8 by
// default) still finds its unit; an older one is packetized again.
const recentUnits = 16

// payloads packetizes each access unit of a Source once for every
// session that shows it: the RTP payloads (RFC 6184, packetization mode
// 1: single NAL units, FU-A, STAP-A with SPS and PPS) are the same for
// every viewer; only the header (SSRC, sequence number, timestamp,
// extensions) is a session's own, written by stamper. Safe for
// concurrent use; owned by a Server.
type payloads struct {
	mu      sync.Mutex
	sources map[video.Source]*sourcePayloads
}

// sourcePayloads is one Source's packetizer and its recent access units.
type sourcePayloads struct {
	users int // cameras that hold it (acquire - release); payloads.mu guards it

	mu     sync.Mutex           // guards the rest: one Source's sessions, not every camera's, wait for a packetization
	pay    codecs.H264Payloader // keeps SPS and PPS for the next IDR, as pion's track does
	recent [recentUnits]unitPayloads
	next   int // slot of recent to fill next
}

// unitPayloads is one packetized access unit: its payloads, which nobody
// writes after packetization (sessions only read them).
type unitPayloads struct {
	data     *byte // the access unit's Data (an encoder's new buffer per unit)
	size     int
	payloads [][]byte
}

// acquire returns src's packetizer, made at its first user.
func (p *payloads) acquire(src video.Source) *sourcePayloads {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.sources == nil {
		p.sources = make(map[video.Source]*sourcePayloads)
	}
	sp := p.sources[src]
	if sp == nil {
		sp = &sourcePayloads{}
		p.sources[src] = sp
	}
	sp.users++
	return sp
}

// release drops a user of src; the last one frees the recent units.
func (p *payloads) release(src video.Source) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if sp := p.sources[src]; sp != nil {
		sp.users--
		if sp.users <= 0 {
			delete(p.sources, src)
		}
	}
}

// of returns the RTP payloads of au: packetized by the first session
// that asks, shared with the others. The caller must not modify them.
func (sp *sourcePayloads) of(au video.AccessUnit) [][]byte {
	if len(au.Data) == 0 {
		return nil
	}
	data := unsafe.SliceData(au.Data)
	sp.mu.Lock()
	defer sp.mu.Unlock()
	for i := range sp.recent {
		if u := &sp.recent[i]; u.data == data && u.size == len(au.Data) {
			return u.payloads
		}
	}
	u := &sp.recent[sp.next]
	sp.next = (sp.next + 1) % recentUnits
	*u = unitPayloads{data: data, size: len(au.Data), payloads: sp.pay.Payload(rtpMTU-12, au.Data)}
	return u.payloads
}

// rtpPacketWriter is where a stamper's packets go (a
// webrtc.TrackLocalStaticRTP, which sets the SSRC and payload type of
// each binding).
type rtpPacketWriter interface {
	WriteRTP(p *rtp.Packet) error
}

// stamper writes one session's RTP headers over shared payloads: its own
// random initial sequence number and timestamp, then one timestamp per
// access unit advanced by the unit's duration at 90 kHz (the clock's
// fraction carried over), the marker on a unit's last packet, as pion's
// sample track does. One goroutine uses it (the camera's); it allocates
// nothing per packet.
type stamper struct {
	pkt       rtp.Packet
	seq       uint16
	ts        uint32
	remainder float64 // clock ticks not yet added to ts [1/90000 s]
}

func newStamper() *stamper {
	s := &stamper{seq: uint16(rand.IntN(1 << 15)), ts: rand.Uint32()}
	s.pkt.Header.Version = 2
	// Room for the extensions the interceptors set (MID, transport-wide
	// sequence number), so that setting them does not allocate.
	s.pkt.Header.Extensions = make([]rtp.Extension, 0, 4)
	return s
}

// write sends one access unit's payloads with this session's headers,
// then advances the timestamp by d. The first error is returned after
// every packet was tried (a packet lost locally is still a sequence
// number used, as it would be on the network).
func (s *stamper) write(w rtpPacketWriter, pls [][]byte, d time.Duration) error {
	var first error
	for i, pl := range pls {
		h := &s.pkt.Header
		h.Marker = i == len(pls)-1
		h.SequenceNumber = s.seq
		h.Timestamp = s.ts
		h.Extension, h.Extensions = false, h.Extensions[:0]
		s.pkt.Payload = pl
		s.seq++
		if err := w.WriteRTP(&s.pkt); err != nil && first == nil {
			first = err
		}
	}
	s.pkt.Payload = nil
	ticks := d.Seconds()*90000 + s.remainder
	whole := uint32(ticks)
	s.remainder = ticks - float64(whole)
	s.ts += whole
	return first
}
