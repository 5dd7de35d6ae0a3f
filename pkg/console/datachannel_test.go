package console

import (
	"context"
	"encoding/json"
	"net"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/pion/ice/v4"
	"github.com/pion/webrtc/v4"

	"github.com/telebridge/telebridge/pkg/video/peer"
)

// rtcPage is a page over a real WebSocket with a pion peer that answers
// the console's offers (loopback candidates only) and opens its command
// channel: the browser's part, in Go.
type rtcPage struct {
	t      *testing.T
	ws     *websocket.Conn
	pc     *webrtc.PeerConnection
	dc     chan *webrtc.DataChannel
	errors chan string // the "error" messages of the socket
}

func newRTCPage(t *testing.T, url string) *rtcPage {
	t.Helper()
	var se webrtc.SettingEngine
	se.SetIncludeLoopbackCandidate(true)
	se.SetIPFilter(func(ip net.IP) bool { return ip.IsLoopback() })
	se.SetNetworkTypes([]webrtc.NetworkType{webrtc.NetworkTypeUDP4})
	se.SetICEMulticastDNSMode(ice.MulticastDNSModeDisabled)
	m := &webrtc.MediaEngine{}
	if err := m.RegisterDefaultCodecs(); err != nil {
		t.Fatal(err)
	}
	pc, err := webrtc.NewAPI(webrtc.WithMediaEngine(m), webrtc.WithSettingEngine(se)).NewPeerConnection(webrtc.Configuration{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = pc.Close() })
	p := &rtcPage{t: t, ws: dial(t, url), pc: pc, dc: make(chan *webrtc.DataChannel, 1), errors: make(chan string, 64)}
	pc.OnDataChannel(func(dc *webrtc.DataChannel) {
		dc.OnOpen(func() { p.dc <- dc })
	})
	pc.OnICECandidate(func(c *webrtc.ICECandidate) {
		if c == nil {
			return
		}
		j := c.ToJSON()
		b, _ := json.Marshal(map[string]any{"type": MsgWebRTC, "signal": peer.Message{Type: peer.TypeCandidate,
			Candidate: &peer.Candidate{Candidate: j.Candidate, SDPMid: j.SDPMid, SDPMLineIndex: j.SDPMLineIndex, UsernameFragment: j.UsernameFragment}}})
		_ = p.ws.Write(context.Background(), websocket.MessageText, b) // concurrent writes are safe
	})
	go p.read()
	return p
}

// read handles the console's messages until the socket closes.
func (p *rtcPage) read() {
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
			p.errors <- m.Error
		case m.Type == MsgWebRTC && m.Signal.Type == peer.TypeOffer:
			err := p.pc.SetRemoteDescription(webrtc.SessionDescription{Type: webrtc.SDPTypeOffer, SDP: m.Signal.SDP})
			var a webrtc.SessionDescription
			if err == nil {
				a, err = p.pc.CreateAnswer(nil)
			}
			if err == nil {
				err = p.pc.SetLocalDescription(a)
			}
			if err != nil {
				p.t.Errorf("answer: %v", err)
				return
			}
			b, _ := json.Marshal(map[string]any{"type": MsgWebRTC, "signal": peer.Message{Type: peer.TypeAnswer, SDP: a.SDP}})
			_ = p.ws.Write(context.Background(), websocket.MessageText, b)
		case m.Type == MsgWebRTC && m.Signal.Type == peer.TypeCandidate && m.Signal.Candidate.Candidate != "":
			c := m.Signal.Candidate
			_ = p.pc.AddICECandidate(webrtc.ICECandidateInit{Candidate: c.Candidate, SDPMid: c.SDPMid, SDPMLineIndex: c.SDPMLineIndex, UsernameFragment: c.UsernameFragment})
		}
	}
}

// channel asks for camera front and returns the open command channel.
func (p *rtcPage) channel() *webrtc.DataChannel {
	p.t.Helper()
	write(p.t, p.ws, `{"type":"webrtc","signal":{"type":"want","cameras":["front"]}}`)
	select {
	case dc := <-p.dc:
		return dc
	case <-time.After(10 * time.Second):
		p.t.Fatal("the command channel did not open")
		return nil
	}
}

func (p *rtcPage) nextError() string {
	p.t.Helper()
	select {
	case e := <-p.errors:
		return e
	case <-time.After(5 * time.Second):
		p.t.Fatal("no error message on the socket")
		return ""
	}
}

// TestCommandsOverDataChannel: commands on the WebRTC command channel take
// the WebSocket's path: executed for the page in control, refused with
// the same errors (malformed, view-only) on the page's socket, and a held
// command re-sent on the channel keeps the deadman from expiring, which
// stops the axes once the commands stop.
func TestCommandsOverDataChannel(t *testing.T) {
	be := &videoBackend{}
	clk := &stepClock{t: t0} // the deadman's clock: each re-send 100 ms later
	_, url := serveTest(t, Config{Backend: be, WebRTC: loopbackOnly, Clock: clk})
	p1 := newRTCPage(t, url)
	dc1 := p1.channel()
	p2 := newRTCPage(t, url)
	dc2 := p2.channel()
	be.take()

	if err := dc1.SendText(`{"type":"servosila_drive","linear":0.3,"angular":0}`); err != nil {
		t.Fatal(err)
	}
	waitCall(t, be, "drive 0.3 0")
	if err := dc1.SendText(`{"type":"servosila_drive","linear":"fast"}`); err != nil {
		t.Fatal(err)
	}
	if e := p1.nextError(); !strings.Contains(e, "bad message") {
		t.Errorf("malformed command on the channel: %q, want a bad message", e)
	}
	if err := dc2.SendText(`{"type":"servosila_drive","linear":0.3,"angular":0}`); err != nil {
		t.Fatal(err)
	}
	if e := p2.nextError(); !strings.Contains(e, ErrViewOnly.Error()) {
		t.Errorf("view-only page's command on the channel: %q, want %q", e, ErrViewOnly)
	}
	// Held for 1 s of the console's clock (over three deadman timeouts of
	// 300 ms), re-sent every 100 ms: no stop.
	be.take()
	var all []string
	for range 10 {
		clk.add(100 * time.Millisecond)
		if err := dc1.SendText(`{"type":"servosila_drive","linear":0.2,"angular":0}`); err != nil {
			t.Fatal(err)
		}
		all = append(all, waitCall(t, be, "drive 0.2 0")...) // handled at this clock
	}
	time.Sleep(100 * time.Millisecond) // a few deadman ticks at the held clock
	if all = append(all, be.take()...); slices.Contains(all, "drive 0 0") {
		t.Fatalf("stopped while held on the channel: %q", all)
	}
	clk.add(400 * time.Millisecond)
	waitCall(t, be, "drive 0 0") // the deadman, once the commands stopped
}

// waitCall waits until the backend was called with want and returns the
// calls it took.
func waitCall(t *testing.T, be *videoBackend, want string) []string {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	var seen []string
	for time.Now().Before(deadline) {
		seen = append(seen, be.take()...)
		if slices.Contains(seen, want) {
			return seen
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("no call %q in %q", want, seen)
	return nil
}
