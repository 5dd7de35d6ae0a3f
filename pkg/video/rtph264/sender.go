package rtph264

import (
	"cmp"
	"context"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"sync/atomic"

	"golang.org/x/net/ipv4"
	"golang.org/x/net/ipv6"

	"github.com/telebridge/telebridge/pkg/video"
)

// Config is one RTP destination.
type Config struct {
	// Dest is where packets go: "HOST:PORT", unicast or multicast, IPv4
	// or IPv6. Required. The port should be even (RTCP would use the
	// next one).
	Dest string
	// PayloadType is the RTP payload type, 96..127. Default 96.
	PayloadType uint8
	// MTU is the largest RTP packet [bytes], header included: 200..9000.
	// Default 1200 (fits a VPN or tunnel under a 1500-byte link MTU).
	MTU int
	// SSRC identifies the stream; 0 picks a random one.
	SSRC uint32
	// TTL is the hop limit of multicast packets [1], 1..255. Default 1:
	// the group stays on the local network.
	TTL int
}

// DefaultTTL is the default multicast hop limit: the local network only.
const DefaultTTL = 1

// ErrStopped: the source closed the viewer's channel (the stream stopped).
var ErrStopped = errors.New("rtph264: the video source stopped")

// Stats are a sender's counters.
type Stats struct {
	AccessUnits uint64 // access units sent [1]
	Keyframes   uint64 // of which IDR pictures [1]
	Packets     uint64 // RTP packets sent [1]
	Bytes       uint64 // RTP bytes sent, headers included [bytes]
	WriteErrors uint64 // datagrams the socket refused (counted, skipped) [1]
	LastErr     string // the latest write error
}

// Sender sends one stream to one destination. Run (or Send) owns the
// socket; Stats may be called from any goroutine.
type Sender struct {
	cfg  Config
	dest netip.AddrPort
	conn *net.UDPConn
	pz   *Packetizer
	sid  uint64

	aus, keys, pkts, bytes, werrs atomic.Uint64
	lastErr                       atomic.Value // string
}

// Dial checks cfg, resolves the destination and opens the socket (an
// ephemeral port of the destination's family). For a multicast
// destination it sets the hop limit.
func Dial(cfg Config) (*Sender, error) {
	cfg.PayloadType = cmp.Or(cfg.PayloadType, DefaultPayloadType)
	cfg.MTU = cmp.Or(cfg.MTU, DefaultMTU)
	cfg.TTL = cmp.Or(cfg.TTL, DefaultTTL)
	switch {
	case cfg.PayloadType < 96 || cfg.PayloadType > 127:
		return nil, fmt.Errorf("rtph264: payload type %d: want 96..127", cfg.PayloadType)
	case cfg.MTU < 200 || cfg.MTU > 9000:
		return nil, fmt.Errorf("rtph264: MTU %d bytes: want 200..9000", cfg.MTU)
	case cfg.TTL < 1 || cfg.TTL > 255:
		return nil, fmt.Errorf("rtph264: TTL %d: want 1..255", cfg.TTL)
	}
	ua, err := net.ResolveUDPAddr("udp", cfg.Dest)
	if err != nil {
		return nil, fmt.Errorf("rtph264: destination %q: %w", cfg.Dest, err)
	}
	dest := ua.AddrPort()
	dest = netip.AddrPortFrom(dest.Addr().Unmap(), dest.Port())
	if !dest.Addr().IsValid() || dest.Addr().IsUnspecified() || dest.Port() == 0 {
		return nil, fmt.Errorf("rtph264: destination %q: want HOST:PORT with a port and a host", cfg.Dest)
	}
	network := "udp4"
	if dest.Addr().Is6() {
		network = "udp6"
	}
	conn, err := net.ListenUDP(network, nil)
	if err != nil {
		return nil, fmt.Errorf("rtph264: socket for %s: %w", dest, err)
	}
	if dest.Addr().IsMulticast() {
		if dest.Addr().Is4() {
			err = ipv4.NewPacketConn(conn).SetMulticastTTL(cfg.TTL)
		} else {
			err = ipv6.NewPacketConn(conn).SetMulticastHopLimit(cfg.TTL)
		}
		if err != nil {
			conn.Close()
			return nil, fmt.Errorf("rtph264: multicast hop limit %d for %s: %w", cfg.TTL, dest, err)
		}
	}
	var r [14]byte
	_, _ = rand.Read(r[:])
	cfg.SSRC = cmp.Or(cfg.SSRC, binary.BigEndian.Uint32(r[0:])|1)
	s := &Sender{cfg: cfg, dest: dest, conn: conn, sid: binary.BigEndian.Uint64(r[6:]) >> 1,
		pz: NewPacketizer(cfg.PayloadType, cfg.SSRC, cfg.MTU, binary.BigEndian.Uint16(r[4:]), binary.BigEndian.Uint32(r[6:]))}
	return s, nil
}

// Dest is the resolved destination.
func (s *Sender) Dest() netip.AddrPort { return s.dest }

// Description is the SDP of this sender's stream, without parameter sets
// (fill them with ParseKeyframe).
func (s *Sender) Description(name string, frameRate float64) SessionDescription {
	return SessionDescription{Name: name, Dest: s.dest, TTL: s.cfg.TTL, PayloadType: s.cfg.PayloadType,
		FrameRate: frameRate, SessionID: s.sid}
}

// Send packetizes au and sends its packets. A datagram the socket
// refuses is counted and skipped (UDP has no flow control: a receiver
// that is not there yet is no error).
func (s *Sender) Send(au video.AccessUnit) error {
	err := s.pz.Packetize(au, func(pkt []byte) error {
		if _, err := s.conn.WriteToUDPAddrPort(pkt, s.dest); err != nil {
			if errors.Is(err, net.ErrClosed) {
				return err
			}
			s.werrs.Add(1)
			s.lastErr.Store(err.Error())
			return nil
		}
		s.pkts.Add(1)
		s.bytes.Add(uint64(len(pkt)))
		return nil
	})
	if err != nil {
		return fmt.Errorf("rtph264: send to %s: %w", s.dest, err)
	}
	s.aus.Add(1)
	if au.Key {
		s.keys.Add(1)
	}
	return nil
}

// Run sends the viewer's access units until ctx ends (it returns nil) or
// the source stops (ErrStopped). onKey, if not nil, is called with each
// keyframe before it is sent (e.g. to write the SDP once). Run does not
// close the viewer.
func (s *Sender) Run(ctx context.Context, v video.Viewer, onKey func(video.AccessUnit)) error {
	for {
		select {
		case <-ctx.Done():
			return nil
		case au, ok := <-v.AccessUnits():
			if !ok {
				return ErrStopped
			}
			if au.Key && onKey != nil {
				onKey(au)
			}
			if err := s.Send(au); err != nil {
				return err
			}
		}
	}
}

// Stats returns the counters.
func (s *Sender) Stats() Stats {
	e, _ := s.lastErr.Load().(string)
	return Stats{AccessUnits: s.aus.Load(), Keyframes: s.keys.Load(), Packets: s.pkts.Load(),
		Bytes: s.bytes.Load(), WriteErrors: s.werrs.Load(), LastErr: e}
}

// Close closes the socket.
func (s *Sender) Close() error { return s.conn.Close() }
