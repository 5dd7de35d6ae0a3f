package peer

import (
	"net"
	"testing"
	"time"

	"github.com/pion/ice/v4"
	"github.com/pion/interceptor"
	"github.com/pion/webrtc/v4"
)

func loopbackOnly(ip net.IP) bool { return ip.IsLoopback() }

// testConfig is a Server config that stays on loopback.
func testConfig(open OpenFunc) Config {
	return Config{Open: open, Loopback: true, IPFilter: loopbackOnly, ICETimeout: 10 * time.Second}
}

// client is the test's viewer page: a pion peer connection that answers
// the server's offers. One goroutine (pump) owns its signalling; the
// server's asynchronous messages and its own candidates reach it on
// channels.
type client struct {
	t      *testing.T
	ss     *Session
	pc     *webrtc.PeerConnection
	tracks chan *webrtc.TrackRemote
	dcs    chan *webrtc.DataChannel
	errs   chan Message // TypeError messages from the server
	async  chan Message // messages from SessionConfig.Send
	in     chan []byte  // raw messages for the session
	own    chan webrtc.ICECandidateInit
	offers chan struct{} // one per offer answered

	// serverCandidate, if set, rewrites (or drops, returning false) each
	// server candidate before the client adds it.
	serverCandidate func(*webrtc.ICECandidateInit) bool
	// keepOwn false: the client's own candidates are not sent to the
	// server (it then learns the client's address from ICE checks only).
	keepOwn bool
}

// newClient makes a client; call attach with the session (created with
// c.sessionConfig) before start.
func newClient(t *testing.T) *client {
	t.Helper()
	m := &webrtc.MediaEngine{}
	if err := m.RegisterDefaultCodecs(); err != nil {
		t.Fatal(err)
	}
	reg := &interceptor.Registry{}
	if err := webrtc.RegisterDefaultInterceptors(m, reg); err != nil {
		t.Fatal(err)
	}
	var se webrtc.SettingEngine
	se.SetIncludeLoopbackCandidate(true)
	se.SetIPFilter(loopbackOnly)
	se.SetNetworkTypes([]webrtc.NetworkType{webrtc.NetworkTypeUDP4})
	se.SetICEMulticastDNSMode(ice.MulticastDNSModeDisabled)
	api := webrtc.NewAPI(webrtc.WithMediaEngine(m), webrtc.WithInterceptorRegistry(reg), webrtc.WithSettingEngine(se))
	pc, err := api.NewPeerConnection(webrtc.Configuration{})
	if err != nil {
		t.Fatal(err)
	}
	c := &client{t: t, pc: pc, tracks: make(chan *webrtc.TrackRemote, 8), dcs: make(chan *webrtc.DataChannel, 2),
		errs: make(chan Message, 64), async: make(chan Message, 256), in: make(chan []byte, 64),
		own: make(chan webrtc.ICECandidateInit, 64), offers: make(chan struct{}, 16), keepOwn: true}
	pc.OnTrack(func(tr *webrtc.TrackRemote, r *webrtc.RTPReceiver) {
		go func() { // RTCP reaches pion's interceptors (sender reports) only when read
			for {
				if _, _, err := r.ReadRTCP(); err != nil {
					return
				}
			}
		}()
		c.tracks <- tr
	})
	pc.OnDataChannel(func(dc *webrtc.DataChannel) { c.dcs <- dc })
	pc.OnICECandidate(func(cand *webrtc.ICECandidate) {
		if cand != nil {
			c.own <- cand.ToJSON()
		}
	})
	t.Cleanup(func() { _ = pc.Close() })
	return c
}

func (c *client) sessionConfig() SessionConfig {
	return SessionConfig{Send: func(m Message) {
		select {
		case c.async <- m:
		default:
			c.t.Errorf("client: async queue full, dropped %s", m.Type)
		}
	}}
}

// start runs the pump until the test ends.
func (c *client) start(ss *Session) {
	c.ss = ss
	stop := make(chan struct{})
	done := make(chan struct{})
	go c.pump(stop, done)
	c.t.Cleanup(func() { close(stop); <-done })
}

// send queues one raw message for the session.
func (c *client) send(raw string) { c.in <- []byte(raw) }

func (c *client) pump(stop, done chan struct{}) {
	defer close(done)
	for {
		select {
		case <-stop:
			return
		case raw := <-c.in:
			c.handle(c.ss.Handle(raw))
		case m := <-c.async:
			c.handle([]Message{m})
		case init := <-c.own:
			if !c.keepOwn {
				continue
			}
			b, err := Encode(Message{Type: TypeCandidate, Candidate: &Candidate{Candidate: init.Candidate,
				SDPMid: init.SDPMid, SDPMLineIndex: init.SDPMLineIndex, UsernameFragment: init.UsernameFragment}})
			if err != nil {
				c.t.Error(err)
				continue
			}
			c.handle(c.ss.Handle(b))
		}
	}
}

// handle acts on the server's messages like a page: answers offers, adds
// candidates, records errors.
func (c *client) handle(msgs []Message) {
	for _, m := range msgs {
		// Every message the server sends must pass the same decoder.
		b, err := Encode(m)
		if err != nil {
			c.t.Error(err)
			continue
		}
		if _, err := Decode(b); err != nil {
			c.t.Errorf("server sent an invalid message %s: %v", b, err)
		}
		switch m.Type {
		case TypeOffer:
			if err := c.pc.SetRemoteDescription(webrtc.SessionDescription{Type: webrtc.SDPTypeOffer, SDP: m.SDP}); err != nil {
				c.t.Errorf("client: set offer: %v", err)
				continue
			}
			ans, err := c.pc.CreateAnswer(nil)
			if err == nil {
				err = c.pc.SetLocalDescription(ans)
			}
			if err != nil {
				c.t.Errorf("client: answer: %v", err)
				continue
			}
			b, err := Encode(Message{Type: TypeAnswer, SDP: ans.SDP})
			if err != nil {
				c.t.Error(err)
				continue
			}
			c.offers <- struct{}{}
			c.handle(c.ss.Handle(b))
		case TypeCandidate:
			init := webrtc.ICECandidateInit{Candidate: m.Candidate.Candidate, SDPMid: m.Candidate.SDPMid,
				SDPMLineIndex: m.Candidate.SDPMLineIndex, UsernameFragment: m.Candidate.UsernameFragment}
			if c.serverCandidate != nil && !c.serverCandidate(&init) {
				continue
			}
			if err := c.pc.AddICECandidate(init); err != nil {
				c.t.Errorf("client: add candidate: %v", err)
			}
		case TypeError:
			c.errs <- m
		}
	}
}

// nextTrack waits for the next remote track.
func (c *client) nextTrack(d time.Duration) *webrtc.TrackRemote {
	c.t.Helper()
	select {
	case tr := <-c.tracks:
		return tr
	case <-time.After(d):
		c.t.Fatalf("no track within %v", d)
		return nil
	}
}

// firstTrack waits for the session's first track or for the session's
// end, whichever comes first. The setup's own timers bound it (the
// session's ICETimeout, pion's DTLS handshake timeout; either closes the
// session); a wall-clock guess shorter than those failed a setup that was
// only slow: through pkg/impair the server learns the page as a
// peer-reflexive candidate and pion waits 1 s before nominating one, and
// a starved process stretches the ICE checks and DTLS retransmissions
// after that. The minute only catches a hang.
func (c *client) firstTrack() *webrtc.TrackRemote {
	c.t.Helper()
	select {
	case tr := <-c.tracks:
		return tr
	case <-c.ss.Done():
		c.t.Fatalf("the session closed before its first track: %+v", c.ss.Err())
	case <-time.After(time.Minute):
		c.t.Fatalf("no track within a minute and the session still open (state %s)", c.ss.Stats().State)
	}
	return nil
}
