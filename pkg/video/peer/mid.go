package peer

import (
	"sync"

	"github.com/pion/interceptor"
	"github.com/pion/rtp"
	"github.com/pion/sdp/v3"
	"github.com/pion/webrtc/v4"
)

// mids stamps every RTP packet the session sends with the MID of its
// media section (the sdes:mid header extension, RFC 8843 section 15), so
// that the page demultiplexes by section and never by guessing.
//
// Why: when the page drops a camera, its section becomes recvonly with no
// SSRC, and packets of the removed sender that were in flight (in the
// pacer's queue, on the link, in the page's socket buffer) reach the page
// after it applied that offer. Without a MID the page can only map an
// unknown SSRC by its payload type, to the first section without SSRC
// lines: the removed camera's own, which then shows up as a new track with
// no stream (pion did exactly that: TestRemovedCameraLeavesNoTrack). With
// the MID the packets name a section that receives nothing, and are
// dropped.
type mids struct {
	mu     sync.Mutex
	bySSRC map[uint32][]byte // the sending SSRC's MID, as the extension's payload
}

// update records the MID of every sending transceiver of pc (called after
// each offer: MIDs are assigned when an offer is made, and the streams are
// bound when its answer is applied).
func (m *mids) update(pc *webrtc.PeerConnection) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.bySSRC == nil {
		m.bySSRC = make(map[uint32][]byte)
	}
	for _, t := range pc.GetTransceivers() {
		s := t.Sender()
		if s == nil || t.Mid() == "" {
			continue
		}
		for _, e := range s.GetParameters().Encodings {
			m.bySSRC[uint32(e.SSRC)] = []byte(t.Mid())
		}
	}
}

// forget drops a removed sender's SSRC.
func (m *mids) forget(s *webrtc.RTPSender) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, e := range s.GetParameters().Encodings {
		delete(m.bySSRC, uint32(e.SSRC))
	}
}

func (m *mids) lookup(ssrc uint32) []byte {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.bySSRC[ssrc]
}

// midStamper is the factory and interceptor that sets the extension.
type midStamper struct {
	interceptor.NoOp
	m *mids
}

// NewInterceptor implements interceptor.Factory.
func (s *midStamper) NewInterceptor(string) (interceptor.Interceptor, error) { return s, nil }

// BindLocalStream implements interceptor.Interceptor: a stream whose
// section negotiated the extension gets its MID on every packet (the MID
// and the extension's id are looked up once, here).
func (s *midStamper) BindLocalStream(info *interceptor.StreamInfo, w interceptor.RTPWriter) interceptor.RTPWriter {
	var id uint8
	for _, e := range info.RTPHeaderExtensions {
		if e.URI == sdp.SDESMidURI && e.ID > 0 && e.ID < 15 {
			id = uint8(e.ID)
		}
	}
	mid := s.m.lookup(info.SSRC)
	if id == 0 || mid == nil {
		return w
	}
	return interceptor.RTPWriterFunc(func(h *rtp.Header, payload []byte, a interceptor.Attributes) (int, error) {
		if err := h.SetExtension(id, mid); err != nil {
			return 0, err
		}
		return w.Write(h, payload, a)
	})
}
