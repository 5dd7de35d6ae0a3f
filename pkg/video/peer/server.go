package peer

import (
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/pion/ice/v4"
	"github.com/pion/interceptor"
	"github.com/pion/interceptor/pkg/cc"
	"github.com/pion/interceptor/pkg/report"
	"github.com/pion/sdp/v3"
	"github.com/pion/webrtc/v4"
)

// H264FmtpLine is the one codec the Server offers: H.264 constrained
// baseline level 3.1 in packetization mode 1, which Chromium and Firefox
// decode in hardware or software.
const H264FmtpLine = "level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=42e01f"

// h264PayloadType is the RTP payload type of the H.264 codec (Chromium's
// usual number for the same profile).
const h264PayloadType = 102

// ErrTooManyPeers is returned by NewSession when Config.MaxPeers sessions
// are open.
var ErrTooManyPeers = errors.New("peer: too many peers")

// ErrClosed is returned by NewSession after Close.
var ErrClosed = errors.New("peer: server closed")

// Server makes WebRTC sessions, one per viewer page, and enforces the
// limits. It has no transport of its own: the embedder carries each
// session's signalling messages. Safe for concurrent use.
type Server struct {
	cfg      Config
	mux      ice.UDPMux // nil unless Config.UDP
	gate     *readGate  // Config.UDP's, nil without it
	prompts  int        // sessions that are prompt, under mu (with Config.UDP)
	payloads payloads   // each access unit packetized once for every session

	mu       sync.Mutex
	sessions map[*Session]struct{}
	nextID   uint64
	closed   bool
}

// New validates cfg, fills its defaults and returns a Server.
func New(cfg Config) (*Server, error) {
	if err := cfg.fill(); err != nil {
		return nil, err
	}
	s := &Server{cfg: cfg, sessions: make(map[*Session]struct{})}
	if cfg.UDP != nil {
		s.gate = &readGate{}
		c, err := newGatedConn(cfg.UDP, s.gate)
		if err != nil {
			return nil, fmt.Errorf("peer: shared socket: %w", err)
		}
		s.mux = webrtc.NewICEUDPMux(nil, c)
	}
	return s, nil
}

// promptChanged counts a session that became prompt (on) or stopped
// being prompt (closed or made a watcher): Config.UDP is read as
// datagrams arrive while any session on it is prompt.
func (s *Server) promptChanged(on bool) {
	if s.gate == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if on {
		s.prompts++
	} else {
		s.prompts--
	}
	s.gate.setPrompt(s.prompts > 0)
}

// picture is readGate.picture of Config.UDP, for any session's picture.
func (s *Server) picture() {
	if s.gate != nil {
		s.gate.picture()
	}
}

// Close closes every session (each sends a CodeClosed error first) and
// refuses new ones. It closes Config.UDP too: pion's mux, which owns it,
// closes it.
func (s *Server) Close() error {
	s.mu.Lock()
	s.closed = true
	list := make([]*Session, 0, len(s.sessions))
	for ss := range s.sessions {
		list = append(list, ss)
	}
	s.mu.Unlock()
	// All at once: each close is bounded by Config.CloseTimeout, and so
	// is the whole.
	for _, ss := range list {
		ss.fail(CodeClosed, "the server is shutting down")
	}
	for _, ss := range list {
		<-ss.Done()
	}
	if s.mux != nil {
		return s.mux.Close()
	}
	return nil
}

// Stats returns the figures of every open session.
func (s *Server) Stats() []Stats {
	s.mu.Lock()
	list := make([]*Session, 0, len(s.sessions))
	for ss := range s.sessions {
		if ss.opened.Load() { // a session still opening has no peer connection yet
			list = append(list, ss)
		}
	}
	s.mu.Unlock()
	out := make([]Stats, 0, len(list))
	for _, ss := range list {
		out = append(out, ss.Stats())
	}
	return out
}

// reserve takes a session slot.
func (s *Server) reserve(ss *Session) (uint64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return 0, ErrClosed
	}
	if len(s.sessions) >= s.cfg.MaxPeers {
		return 0, fmt.Errorf("%w: %d open", ErrTooManyPeers, len(s.sessions))
	}
	s.sessions[ss] = struct{}{}
	s.nextID++
	return s.nextID, nil
}

func (s *Server) release(ss *Session) {
	s.mu.Lock()
	delete(s.sessions, ss)
	s.mu.Unlock()
}

// newAPI builds one session's pion API: the H.264 codec with NACK, PLI,
// FIR and transport-cc feedback; interceptors for the send-side bandwidth
// estimator (GCC) with this package's pacer, the TWCC header extension,
// this package's NACK responder (resender) and sender reports; the
// sdes:mid header extension on every packet; counts of what was sent;
// and the ICE settings, with the session's own sockets gated by gate
// (gate.go) unless Config.UDP is set. bwe receives the session's
// estimator; own holds the session's interceptors.
//
// Only what a sender needs: no NACK generator, receiver reports or pion
// statistics. Each of those ran for every session (the generator's
// goroutine woke ten times a second, the receiver reports' every second;
// the statistics cloned every header) and the page sends the console no
// media.
func (s *Server) newAPI(bwe chan<- cc.BandwidthEstimator, own *sessionInterceptors, gate *readGate) (*webrtc.API, error) {
	m := &webrtc.MediaEngine{}
	fb := []webrtc.RTCPFeedback{
		{Type: "nack"}, {Type: "nack", Parameter: "pli"}, {Type: "ccm", Parameter: "fir"},
		{Type: webrtc.TypeRTCPFBTransportCC},
	}
	if err := m.RegisterCodec(webrtc.RTPCodecParameters{
		RTPCodecCapability: webrtc.RTPCodecCapability{
			MimeType: webrtc.MimeTypeH264, ClockRate: 90000, SDPFmtpLine: H264FmtpLine, RTCPFeedback: fb,
		},
		PayloadType: h264PayloadType,
	}, webrtc.RTPCodecTypeVideo); err != nil {
		return nil, fmt.Errorf("peer: register codec: %w", err)
	}
	if err := m.RegisterHeaderExtension(webrtc.RTPHeaderExtensionCapability{URI: sdp.SDESMidURI},
		webrtc.RTPCodecTypeVideo); err != nil {
		return nil, fmt.Errorf("peer: mid extension: %w", err)
	}
	reg, err := s.interceptors(m, bwe, own)
	if err != nil {
		return nil, err
	}
	c := s.cfg
	var se webrtc.SettingEngine
	se.SetNetworkTypes([]webrtc.NetworkType{webrtc.NetworkTypeUDP4, webrtc.NetworkTypeUDP6})
	if s.mux != nil {
		se.SetICEUDPMux(s.mux)
	} else {
		n, err := newGatedNet(gate)
		if err != nil {
			return nil, fmt.Errorf("peer: network: %w", err)
		}
		se.SetNet(n)
	}
	if c.IPFilter != nil {
		se.SetIPFilter(c.IPFilter)
	}
	se.SetIncludeLoopbackCandidate(c.Loopback)
	if len(c.AdvertiseIPs) > 0 {
		if err := se.SetICEAddressRewriteRules(webrtc.ICEAddressRewriteRule{External: c.AdvertiseIPs,
			AsCandidateType: webrtc.ICECandidateTypeHost, Mode: webrtc.ICEAddressRewriteReplace}); err != nil {
			return nil, fmt.Errorf("peer: advertised addresses: %w", err)
		}
	}
	se.SetICETimeouts(c.ICEDisconnected, c.ICEFailed, min(2*time.Second, c.ICEDisconnected/2)) // keepalives within the disconnect time
	// A browser's checks reach the console before its candidates (they
	// come over the WebSocket after its answer; behind mDNS names they
	// never resolve), so its pairs are peer-reflexive, which pion would
	// nominate only after 1 s: the page's first picture waited for it.
	se.SetPrflxAcceptanceMinWait(0)
	if !c.MDNS {
		se.SetICEMulticastDNSMode(ice.MulticastDNSModeDisabled)
	}
	return webrtc.NewAPI(webrtc.WithMediaEngine(m), webrtc.WithInterceptorRegistry(reg),
		webrtc.WithSettingEngine(se)), nil
}

// interceptors registers a session's interceptors (see newAPI) in reg's
// order: earlier is nearer the network. TestInterceptorOrder builds it.
func (s *Server) interceptors(m *webrtc.MediaEngine, bwe chan<- cc.BandwidthEstimator, own *sessionInterceptors) (*interceptor.Registry, error) {
	reg := &interceptor.Registry{}
	c := s.cfg
	ccf, err := cc.NewInterceptor(func() (cc.BandwidthEstimator, error) {
		e, err := newEstimator(c.InitialBitrate, c.MinBitrate, c.MaxBitrate)
		if err == nil {
			own.pacer.Store(e.pacer)
		}
		return e, err
	})
	if err != nil {
		return nil, fmt.Errorf("peer: congestion control: %w", err)
	}
	ccf.OnNewPeerConnection(func(_ string, e cc.BandwidthEstimator) {
		select {
		case bwe <- e:
		default:
		}
	})
	// Registered earlier is nearer the network: what was sent is counted
	// as it leaves the pacer; then GCC with the pacer, the TWCC header,
	// the sender reports, the MID, and outermost the NACK responder,
	// whose retransmissions take the whole way again (a new
	// transport-wide sequence number, the MID, the pacer).
	reg.Add(&own.sent)
	reg.Add(ccf)
	if err := webrtc.ConfigureTWCCHeaderExtensionSender(m, reg); err != nil {
		return nil, fmt.Errorf("peer: twcc: %w", err)
	}
	reports, err := report.NewSenderInterceptor()
	if err != nil {
		return nil, fmt.Errorf("peer: sender reports: %w", err)
	}
	reg.Add(reports)
	reg.Add(&midStamper{m: &own.mids})
	own.resend.queueDelay, own.resend.target = own.queueDelay, &own.target
	reg.Add(&own.resend)
	return reg, nil
}

func (s *Server) iceServers() []webrtc.ICEServer {
	out := make([]webrtc.ICEServer, 0, len(s.cfg.ICEServers))
	for _, is := range s.cfg.ICEServers {
		w := webrtc.ICEServer{URLs: []string{is.URL}}
		if is.Username != "" {
			w.Username, w.Credential = is.Username, is.Credential
		}
		out = append(out, w)
	}
	return out
}
