// Package rtcpage is a console page's WebRTC part in Go, for tests and
// figures: it connects to the console's WebSocket, asks for cameras,
// answers the console's offers with a pion peer (loopback candidates only,
// no mDNS), counts the video it receives, and opens the command channel.
// It is what js/video.js does in the browser, without the decoding.
package rtcpage

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"
	"github.com/pion/ice/v4"
	"github.com/pion/interceptor"
	"github.com/pion/rtcp"
	"github.com/pion/webrtc/v4"

	"github.com/telebridge/telebridge/pkg/video/peer"
)

// Page is one connected page.
type Page struct {
	ws     *websocket.Conn
	pc     *webrtc.PeerConnection
	dc     chan *webrtc.DataChannel
	errs   chan string
	done   chan struct{}
	once   sync.Once
	bytes  atomic.Uint64 // RTP payload bytes received [bytes]
	pkts   atomic.Uint64 // RTP packets received
	tracks atomic.Int64  // tracks received
}

// Dial connects to the console's WebSocket at url (ws://host/ws) and
// starts answering its offers. Close it.
func Dial(ctx context.Context, url string) (*Page, error) {
	var se webrtc.SettingEngine
	se.SetIncludeLoopbackCandidate(true)
	se.SetIPFilter(func(ip net.IP) bool { return ip.IsLoopback() })
	se.SetNetworkTypes([]webrtc.NetworkType{webrtc.NetworkTypeUDP4})
	se.SetICEMulticastDNSMode(ice.MulticastDNSModeDisabled)
	m := &webrtc.MediaEngine{}
	if err := m.RegisterDefaultCodecs(); err != nil {
		return nil, fmt.Errorf("rtcpage: %w", err)
	}
	reg := &interceptor.Registry{}
	if err := webrtc.RegisterDefaultInterceptors(m, reg); err != nil {
		return nil, fmt.Errorf("rtcpage: %w", err)
	}
	pc, err := webrtc.NewAPI(webrtc.WithMediaEngine(m), webrtc.WithInterceptorRegistry(reg), webrtc.WithSettingEngine(se)).NewPeerConnection(webrtc.Configuration{})
	if err != nil {
		return nil, fmt.Errorf("rtcpage: %w", err)
	}
	ws, _, err := websocket.Dial(ctx, url, nil)
	if err != nil {
		_ = pc.Close()
		return nil, fmt.Errorf("rtcpage: %w", err)
	}
	ws.SetReadLimit(1 << 20)
	p := &Page{ws: ws, pc: pc, dc: make(chan *webrtc.DataChannel, 1), errs: make(chan string, 64), done: make(chan struct{})}
	pc.OnDataChannel(func(dc *webrtc.DataChannel) { dc.OnOpen(func() { p.dc <- dc }) })
	pc.OnICECandidate(func(c *webrtc.ICECandidate) {
		if c == nil {
			return
		}
		j := c.ToJSON()
		p.signal(peer.Message{Type: peer.TypeCandidate, Candidate: &peer.Candidate{Candidate: j.Candidate, SDPMid: j.SDPMid,
			SDPMLineIndex: j.SDPMLineIndex, UsernameFragment: j.UsernameFragment}})
	})
	pc.OnTrack(func(tr *webrtc.TrackRemote, r *webrtc.RTPReceiver) {
		p.tracks.Add(1)
		// A decoder's first act: ask for a keyframe (the first one may
		// have beaten this side's SRTP), as a browser does.
		_ = pc.WriteRTCP([]rtcp.Packet{&rtcp.PictureLossIndication{MediaSSRC: uint32(tr.SSRC())}})
		go func() {
			for {
				if _, _, err := r.ReadRTCP(); err != nil {
					return
				}
			}
		}()
		go func() {
			buf := make([]byte, 1600)
			for {
				n, _, err := tr.Read(buf)
				if err != nil {
					return
				}
				p.pkts.Add(1)
				p.bytes.Add(uint64(n))
			}
		}()
	})
	go p.read()
	return p, nil
}

// signal sends one signalling message (the socket's writes are safe
// for concurrent use).
func (p *Page) signal(m peer.Message) {
	b, _ := json.Marshal(map[string]any{"type": "webrtc", "signal": m})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = p.ws.Write(ctx, websocket.MessageText, b)
}

// Want asks for cameras (the first is chosen).
func (p *Page) Want(cameras ...string) { p.signal(peer.Message{Type: peer.TypeWant, Cameras: cameras}) }

// Send sends a page message on the WebSocket.
func (p *Page) Send(msg string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return p.ws.Write(ctx, websocket.MessageText, []byte(msg))
}

// Channel waits up to limit for the command channel to open.
func (p *Page) Channel(limit time.Duration) (*webrtc.DataChannel, error) {
	select {
	case dc := <-p.dc:
		return dc, nil
	case <-time.After(limit):
		return nil, fmt.Errorf("rtcpage: the command channel did not open within %v", limit)
	}
}

// Errors are the "error" messages of the socket (the console's refusals)
// and the signalling errors, as "code: message".
func (p *Page) Errors() <-chan string { return p.errs }

// Received returns the RTP packets and payload bytes received so far and
// the tracks.
func (p *Page) Received() (packets, bytes uint64, tracks int) {
	return p.pkts.Load(), p.bytes.Load(), int(p.tracks.Load())
}

// Close closes the peer and the socket.
func (p *Page) Close() {
	p.once.Do(func() {
		_ = p.pc.Close()
		p.ws.CloseNow()
		<-p.done
	})
}

func (p *Page) read() {
	defer close(p.done)
	for {
		_, b, err := p.ws.Read(context.Background())
		if err != nil {
			return
		}
		var m struct {
			Type   string       `json:"type"`
			Error  string       `json:"error"`
			Signal peer.Message `json:"signal"`
		}
		if json.Unmarshal(b, &m) != nil {
			continue
		}
		switch {
		case m.Type == "error":
			p.report(m.Error)
		case m.Type != "webrtc":
		case m.Signal.Type == peer.TypeOffer:
			if err := p.answer(m.Signal.SDP); err != nil {
				p.report("answer: " + err.Error())
			}
		case m.Signal.Type == peer.TypeCandidate && m.Signal.Candidate != nil && m.Signal.Candidate.Candidate != "":
			c := m.Signal.Candidate
			_ = p.pc.AddICECandidate(webrtc.ICECandidateInit{Candidate: c.Candidate, SDPMid: c.SDPMid, SDPMLineIndex: c.SDPMLineIndex, UsernameFragment: c.UsernameFragment})
		case m.Signal.Type == peer.TypeError && m.Signal.Error != nil:
			p.report(m.Signal.Error.Code + ": " + m.Signal.Error.Message)
		}
	}
}

func (p *Page) report(s string) {
	select {
	case p.errs <- s:
	default:
	}
}

func (p *Page) answer(sdp string) error {
	if err := p.pc.SetRemoteDescription(webrtc.SessionDescription{Type: webrtc.SDPTypeOffer, SDP: sdp}); err != nil {
		return err
	}
	a, err := p.pc.CreateAnswer(nil)
	if err != nil {
		return err
	}
	if err := p.pc.SetLocalDescription(a); err != nil {
		return err
	}
	p.signal(peer.Message{Type: peer.TypeAnswer, SDP: a.SDP})
	return nil
}
