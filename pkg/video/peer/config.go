package peer

import (
	"errors"
	"fmt"
	"log/slog"
	"net"
	"time"

	"github.com/pion/stun/v4"

	"github.com/telebridge/telebridge/pkg/video"
)

// OpenFunc resolves a camera name and a page's caps to the Source that
// serves them (the embedder picks the encoder setting: resolution and
// frame rate; the bitrate cap is applied by the congestion split). It
// returns an error for an unknown camera. It may be called from any
// goroutine.
type OpenFunc func(camera string, caps Caps) (video.Source, error)

// ICEServer is one STUN or TURN server for routed networks.
type ICEServer struct {
	URL        string // stun:host[:port], turn:host[:port][?transport=udp|tcp] or turns:...
	Username   string // required for turn: and turns:
	Credential string // required for turn: and turns:
}

// Config configures a Server. Zero fields take the documented defaults.
type Config struct {
	// Open resolves cameras (required).
	Open OpenFunc
	// ICEServers are STUN/TURN servers; empty means host candidates only
	// (the default, for a robot and operator on one network).
	ICEServers []ICEServer
	// ICETimeout closes a session whose ICE has not connected this long
	// after it was created (default 10 s).
	ICETimeout time.Duration
	// ICEDisconnected is how long without traffic from the page marks ICE
	// disconnected (default 5 s); ICEFailed is how long after that it
	// fails and the session closes with CodeICEFailed (default 25 s). A
	// Wi-Fi blackout shorter than their sum keeps the session. The server
	// checks the link every min(2 s, ICEDisconnected/2).
	ICEDisconnected, ICEFailed time.Duration
	// MaxPeers is the most sessions at once (default 8).
	MaxPeers int
	// MaxTracksPerPeer is the most cameras one session shows (default 4).
	MaxTracksPerPeer int
	// MaxCommandSize is the largest data-channel command handed on
	// [bytes]; larger ones are dropped and counted (default 1024).
	MaxCommandSize int
	// InitialBitrate, MinBitrate and MaxBitrate bound the bandwidth
	// estimate of each session [bit/s] (defaults 1 Mbit/s, 100 kbit/s,
	// 20 Mbit/s).
	InitialBitrate, MinBitrate, MaxBitrate int
	// Headroom is the part of the estimate given to the encoders, the rest
	// left to RTP headers, RTCP and retransmissions, in (0, 1] (default 0.9).
	Headroom float64
	// MaxQueueDelay bounds the latency the pacer's queue may add: while
	// the queue takes longer than this to drain, a camera skips pictures
	// up to its next keyframe (and asks for one); keyframes are always
	// sent (default 400 ms).
	MaxQueueDelay time.Duration
	// QueueDepth is each viewer's access-unit queue (default 8).
	QueueDepth int
	// SplitInterval is how often the estimate is split over the cameras
	// (default 250 ms).
	SplitInterval time.Duration
	// UDP, if set, is one socket every session's ICE uses (a known port
	// for firewalls and relays); Server.Close closes it (pion's mux owns
	// it). Otherwise each session binds ephemeral ports.
	UDP *net.UDPConn
	// IPFilter, if set, chooses the local addresses gathered as host
	// candidates.
	IPFilter func(net.IP) bool
	// AdvertiseIPs, if set, replace the address of every host candidate in
	// the offers (the port stays): for a console behind a 1:1 NAT or a
	// port forward, or a relay in front of Config.UDP that listens on the
	// same port (the impaired-link run, scripts/impaired-link.sh).
	AdvertiseIPs []string
	// Loopback includes loopback host candidates (for tests: browsers
	// ignore them).
	Loopback bool
	// MDNS turns on resolving the page's .local host candidates by
	// multicast DNS (default off). Browsers hide their host addresses
	// behind such names; the console does not need them: it offers its
	// own host candidates, the page's connectivity checks reach them, and
	// the page's address is learnt from those checks (a peer-reflexive
	// candidate). Turning it on opens multicast sockets per session, and
	// pion/mdns v2.2.2 (the newest served) can spin on a read error and
	// never finish its close; CloseTimeout bounds that. See
	// docs/video-webrtc.md, "mDNS candidates".
	MDNS bool
	// CloseTimeout bounds how long closing a session waits for pion's
	// peer connection to close (DTLS, SCTP, ICE and its mDNS sockets);
	// past it the close goes on in the background, is logged, and the
	// session's slot and cameras are released all the same (default 1 s).
	CloseTimeout time.Duration
	// Logger receives session events (default slog.Default()).
	Logger *slog.Logger
}

// ErrConfig is wrapped by every error New returns for a bad Config.
var ErrConfig = errors.New("peer: bad config")

func (c *Config) fill() error {
	if c.Open == nil {
		return fmt.Errorf("%w: Open is required", ErrConfig)
	}
	def := func(v *int, d int) {
		if *v == 0 {
			*v = d
		}
	}
	if c.CloseTimeout == 0 {
		c.CloseTimeout = time.Second
	}
	if c.ICETimeout == 0 {
		c.ICETimeout = 10 * time.Second
	}
	if c.ICEDisconnected == 0 {
		c.ICEDisconnected = 5 * time.Second
	}
	if c.ICEFailed == 0 {
		c.ICEFailed = 25 * time.Second
	}
	if c.MaxQueueDelay == 0 {
		c.MaxQueueDelay = 400 * time.Millisecond
	}
	if c.SplitInterval == 0 {
		c.SplitInterval = 250 * time.Millisecond
	}
	def(&c.MaxPeers, 8)
	def(&c.MaxTracksPerPeer, 4)
	def(&c.MaxCommandSize, 1024)
	def(&c.InitialBitrate, 1_000_000)
	def(&c.MinBitrate, 100_000)
	def(&c.MaxBitrate, 20_000_000)
	def(&c.QueueDepth, 8)
	if c.Headroom == 0 {
		c.Headroom = 0.9
	}
	if c.Logger == nil {
		c.Logger = slog.Default()
	}
	switch {
	case c.ICETimeout < 0 || c.CloseTimeout < 0 || c.SplitInterval < 0 || c.ICEDisconnected < 0 || c.ICEFailed < 0 || c.MaxQueueDelay < 0:
		return fmt.Errorf("%w: negative duration", ErrConfig)
	case c.MaxPeers < 0 || c.MaxTracksPerPeer < 0 || c.MaxTracksPerPeer > MaxWanted:
		return fmt.Errorf("%w: MaxPeers must be > 0 and MaxTracksPerPeer within [1, %d]", ErrConfig, MaxWanted)
	case c.MaxCommandSize < 0 || c.MaxCommandSize > 65536:
		return fmt.Errorf("%w: MaxCommandSize %d outside [1, 65536]", ErrConfig, c.MaxCommandSize)
	case c.MinBitrate < 0 || c.MinBitrate > c.InitialBitrate || c.InitialBitrate > c.MaxBitrate:
		return fmt.Errorf("%w: bitrates must satisfy 0 < MinBitrate <= InitialBitrate <= MaxBitrate", ErrConfig)
	case c.Headroom < 0 || c.Headroom > 1:
		return fmt.Errorf("%w: Headroom %g outside (0, 1]", ErrConfig, c.Headroom)
	case c.QueueDepth < 0:
		return fmt.Errorf("%w: negative QueueDepth", ErrConfig)
	}
	for _, a := range c.AdvertiseIPs {
		if ip := net.ParseIP(a); ip == nil {
			return fmt.Errorf("%w: AdvertiseIPs: %q is not an IP address", ErrConfig, a)
		}
	}
	for _, s := range c.ICEServers {
		if err := s.Validate(); err != nil {
			return fmt.Errorf("%w: %w", ErrConfig, err)
		}
	}
	return nil
}

// Validate parses the URL (scheme stun, stuns, turn or turns, a host, a
// port in range) and checks that TURN has credentials.
func (s ICEServer) Validate() error {
	u, err := stun.ParseURI(s.URL)
	if err != nil {
		return fmt.Errorf("ice server %q: %w", s.URL, err)
	}
	if u.Host == "" {
		return fmt.Errorf("ice server %q: no host", s.URL)
	}
	if u.Port < 1 || u.Port > 65535 {
		return fmt.Errorf("ice server %q: port %d outside [1, 65535]", s.URL, u.Port)
	}
	if (u.Scheme == stun.SchemeTypeTURN || u.Scheme == stun.SchemeTypeTURNS) && (s.Username == "" || s.Credential == "") {
		return fmt.Errorf("ice server %q: turn needs a username and a credential", s.URL)
	}
	return nil
}
