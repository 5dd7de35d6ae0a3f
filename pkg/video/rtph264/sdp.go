package rtph264

import (
	"encoding/base64"
	"errors"
	"fmt"
	"net/netip"
	"strings"

	"github.com/telebridge/telebridge/pkg/video"
)

// ErrNoParameterSets: the access unit given to SDP holds no SPS or PPS
// (it must be a keyframe).
var ErrNoParameterSets = errors.New("no SPS/PPS in the access unit")

// SessionDescription is what an SDP file states about one H.264 stream.
type SessionDescription struct {
	Name        string         // session name (s=), e.g. the camera
	Dest        netip.AddrPort // where the packets go (c= and m=)
	TTL         int            // IPv4 multicast only: hops [1]
	PayloadType uint8          // RTP payload type
	SPS, PPS    []byte         // parameter sets (NAL units without start codes)
	FrameRate   float64        // nominal [Hz]; 0 leaves a=framerate out
	SessionID   uint64         // o= session id
}

// ParseKeyframe fills d's SPS and PPS from a keyframe access unit.
func (d *SessionDescription) ParseKeyframe(au []byte) error {
	d.SPS, d.PPS = video.ParameterSets(au)
	if len(d.SPS) < 4 || len(d.PPS) == 0 {
		d.SPS, d.PPS = nil, nil
		return ErrNoParameterSets
	}
	return nil
}

// ProfileLevelID is the profile-level-id of the fmtp line: profile_idc,
// the constraint flags and level_idc of the SPS, in hex.
func (d *SessionDescription) ProfileLevelID() string {
	return fmt.Sprintf("%02x%02x%02x", d.SPS[1], d.SPS[2], d.SPS[3])
}

// Marshal writes the SDP (RFC 4566, RFC 6184) with CRLF line ends.
func (d *SessionDescription) Marshal() ([]byte, error) {
	if len(d.SPS) < 4 || len(d.PPS) == 0 {
		return nil, ErrNoParameterSets
	}
	addr := d.Dest.Addr().Unmap()
	if !addr.IsValid() || d.Dest.Port() == 0 {
		return nil, fmt.Errorf("rtph264: sdp: destination %v: want an address and a port", d.Dest)
	}
	fam, conn := "IP4", addr.String()
	if addr.Is6() {
		fam = "IP6"
	} else if addr.IsMulticast() {
		ttl := d.TTL
		if ttl <= 0 {
			ttl = DefaultTTL
		}
		conn = fmt.Sprintf("%s/%d", addr, ttl)
	}
	origin := "127.0.0.1"
	if addr.Is6() {
		origin = "::1"
	}
	name := strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return -1
		}
		return r
	}, d.Name)
	if name == "" {
		name = "-"
	}
	var b strings.Builder
	line := func(format string, a ...any) { fmt.Fprintf(&b, format+"\r\n", a...) }
	line("v=0")
	line("o=- %d 1 IN %s %s", d.SessionID, fam, origin)
	line("s=%s", name)
	line("c=IN %s %s", fam, conn)
	line("t=0 0")
	line("m=video %d RTP/AVP %d", d.Dest.Port(), d.PayloadType)
	line("a=rtpmap:%d H264/%d", d.PayloadType, ClockRate)
	line("a=fmtp:%d packetization-mode=1;profile-level-id=%s;sprop-parameter-sets=%s,%s", d.PayloadType,
		d.ProfileLevelID(), base64.StdEncoding.EncodeToString(d.SPS), base64.StdEncoding.EncodeToString(d.PPS))
	if d.FrameRate > 0 {
		line("a=framerate:%g", d.FrameRate)
	}
	return []byte(b.String()), nil
}
