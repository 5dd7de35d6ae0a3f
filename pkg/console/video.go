package console

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync"

	"github.com/telebridge/telebridge/pkg/video"
	"github.com/telebridge/telebridge/pkg/video/peer"
)

// Video is implemented by a Backend whose cameras can also be sent as
// H.264 over WebRTC (pkg/video/peer). The console serves WebRTC only for
// such a backend; MJPEG (Backend.ServeCamera) stays the fallback.
type Video interface {
	// OpenVideo returns the encoded video of camera name for a page's
	// caps: one Source per camera and setting, shared by every page, that
	// encodes only while someone watches. An unknown camera is an error.
	// It may be called from any goroutine.
	OpenVideo(name string, caps peer.Caps) (video.Source, error)
	// VideoUnavailable says why this backend cannot send H.264 ("" when
	// it can), e.g. a machine without libx264.
	VideoUnavailable() string
}

// MsgWebRTC is the type of the WebSocket messages that carry WebRTC
// signalling, both ways: {"type": "webrtc", "signal": {...}}, where
// signal is one pkg/video/peer Message (want, caps, answer, candidate from
// the page; offer, candidate, error from the server).
const MsgWebRTC = "webrtc"

// Error codes the console adds to pkg/video/peer's in its signalling
// errors.
const (
	// CodeUnavailable: this console serves no WebRTC (the reason says why);
	// the page shows MJPEG.
	CodeUnavailable = "unavailable"
	// CodeTooManyPeers: the console has Config.WebRTC.MaxPeers sessions
	// open already; the page shows MJPEG.
	CodeTooManyPeers = "too-many-peers"
)

// maxSignal is the WebSocket read limit: a signalling message (an SDP
// answer for four cameras is a few kilobytes) in its envelope. Every
// other message stays bounded by MaxMessage.
const maxSignal = peer.MaxMessageSize + 256

// webrtcInfo is what hello says about WebRTC.
type webrtcInfo struct {
	Available  bool        `json:"available"`
	Reason     string      `json:"reason,omitempty"`      // why not, when not
	ICEServers []iceServer `json:"ice_servers,omitempty"` // for the page's RTCPeerConnection
}

// iceServer is an ICE server in the browser's RTCIceServer form.
type iceServer struct {
	URLs       []string `json:"urls"`
	Username   string   `json:"username,omitempty"`
	Credential string   `json:"credential,omitempty"`
}

// webrtcHello returns hello's webrtc entry: the page uses the console's
// STUN/TURN servers too (its own reflexive and relayed candidates).
func (s *Server) webrtcHello() webrtcInfo {
	w := webrtcInfo{Available: s.peers != nil, Reason: s.videoOff}
	if s.peers != nil {
		for _, is := range s.cfg.WebRTC.ICEServers {
			w.ICEServers = append(w.ICEServers, iceServer{URLs: []string{is.URL}, Username: is.Username, Credential: is.Credential})
		}
	}
	return w
}

// setupVideo makes the WebRTC server when the backend has video and
// WebRTC is not turned off.
func (s *Server) setupVideo() error {
	vb, ok := s.cfg.Backend.(Video)
	switch {
	case s.cfg.NoWebRTC != "":
		s.videoOff = s.cfg.NoWebRTC
	case !ok:
		s.videoOff = "this console's backend sends no H.264 video"
	case vb.VideoUnavailable() != "":
		s.videoOff = vb.VideoUnavailable()
	}
	if s.videoOff != "" {
		return nil
	}
	pc := s.cfg.WebRTC
	pc.Open = vb.OpenVideo
	if pc.Logger == nil {
		pc.Logger = s.cfg.Logger
	}
	srv, err := peer.New(pc)
	if err != nil {
		return fmt.Errorf("console: webrtc: %w", err)
	}
	s.peers = srv
	return nil
}

// pageVideo is one page's WebRTC session, made on its first signalling
// message and again after it closed (ICE failed, timed out).
type pageVideo struct {
	mu sync.Mutex
	ss *peer.Session
}

// close ends the page's session, if any; no command arrives from its data
// channel afterwards.
func (pv *pageVideo) close() {
	pv.mu.Lock()
	ss := pv.ss
	pv.ss = nil
	pv.mu.Unlock()
	if ss != nil {
		ss.Close()
	}
}

// setPrompt makes the page's session, if any, read its sockets as
// datagrams arrive when the page holds the lease (its commands and
// feedback must not wait), and after each picture otherwise
// (peer.Session.SetPrompt): a watcher then costs the console no wake-up
// of its own.
func (pv *pageVideo) setPrompt(holder bool) {
	pv.mu.Lock()
	ss := pv.ss
	pv.mu.Unlock()
	if ss != nil {
		ss.SetPrompt(holder)
	}
}

// signalEnvelope returns the signal of a webrtc message, or ok false for
// any other message (which goes to the hub). The envelope is strict:
// exactly the keys "type" and "signal", spelled so (encoding/json's
// struct decoding would fold their case).
func signalEnvelope(b []byte) (json.RawMessage, bool) {
	if !bytes.Contains(b, []byte(`"`+MsgWebRTC+`"`)) {
		return nil, false
	}
	var env map[string]json.RawMessage
	dec := json.NewDecoder(bytes.NewReader(b))
	if dec.Decode(&env) != nil || len(env) != 2 || env["signal"] == nil || string(env["type"]) != `"`+MsgWebRTC+`"` {
		return nil, false
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, false // trailing data: the hub refuses it
	}
	return env["signal"], true
}

// signal handles one signalling message of page c: it counts against the
// page's rate limit like any message, goes to the page's session (made
// now if it has none), and every reply goes back on the WebSocket.
func (s *Server) signal(ctx context.Context, c *conn, pv *pageVideo, raw json.RawMessage) {
	now := s.cfg.Clock.Now()
	if err := s.hub.allow(c.id, now); err != nil {
		s.reply(c, err)
		return
	}
	if s.peers == nil {
		s.sendSignal(c, peer.Message{Type: peer.TypeError, Error: &peer.ErrorBody{Code: CodeUnavailable, Message: "WebRTC unavailable: " + s.videoOff}})
		return
	}
	pv.mu.Lock()
	ss := pv.ss
	if ss != nil {
		select {
		case <-ss.Done():
			ss = nil // closed (ICE failed or timed out): a new one
		default:
		}
	}
	if ss == nil {
		// Only a want opens a session: a late candidate or answer of a
		// closed one must not take a peer slot.
		m, err := peer.Decode(raw)
		if err != nil || m.Type != peer.TypeWant {
			pv.mu.Unlock()
			body := &peer.ErrorBody{Code: peer.CodeClosed, Message: "no WebRTC session: send want first"}
			var de *peer.DecodeError
			if errors.As(err, &de) {
				body = &peer.ErrorBody{Code: de.Code, Message: de.Error(), Camera: de.Camera}
			}
			s.sendSignal(c, peer.Message{Type: peer.TypeError, Error: body})
			return
		}
		ss, err = s.peers.NewSession(peer.SessionConfig{
			Send:      func(m peer.Message) { s.sendSignal(c, m) },
			OnCommand: func(b []byte) { s.message(ctx, c, b) },
		})
		if err != nil {
			pv.mu.Unlock()
			code := peer.CodeNegotiation
			if errors.Is(err, peer.ErrTooManyPeers) {
				code = CodeTooManyPeers
			}
			s.journal.Record(now, event{Kind: "webrtc_refused", Level: slog.LevelWarn, Msg: "webrtc session refused", Page: c.id, Detail: err.Error()})
			s.sendSignal(c, peer.Message{Type: peer.TypeError, Error: &peer.ErrorBody{Code: code, Message: "WebRTC refused: " + err.Error()}})
			return
		}
		holder, _ := s.hub.holder()
		ss.SetPrompt(holder == c.id)
		pv.ss = ss
	}
	pv.mu.Unlock()
	for _, m := range ss.Handle(raw) {
		s.sendSignal(c, m)
	}
}

// sendSignal queues a signalling message for page c. Signalling has its
// own queue: state updates that a slow page loses must not take an offer
// or a candidate with them.
func (s *Server) sendSignal(c *conn, m peer.Message) {
	b, err := json.Marshal(struct {
		Type   string       `json:"type"`
		Signal peer.Message `json:"signal"`
	}{MsgWebRTC, m})
	if err != nil {
		return
	}
	select {
	case c.sig <- b:
	default:
		s.drops.Add(1)
	}
}

// message handles one message of page c from either transport, the
// WebSocket or the WebRTC command channel: the one path of validation,
// lease, roles, rate limit and deadman refresh. Refusals go back to the
// page on the WebSocket.
func (s *Server) message(ctx context.Context, c *conn, b []byte) {
	s.mu.Lock()
	_, open := s.conns[c.id]
	s.mu.Unlock()
	if !open {
		return // the page left; its session's channel closes in the background
	}
	if err := s.hub.handle(ctx, c.id, b, s.cfg.Clock.Now()); err != nil {
		s.reply(c, err)
	}
}

// WebRTCStats returns the WebRTC sessions' figures (nil without WebRTC).
func (s *Server) WebRTCStats() []peer.Stats {
	if s.peers == nil {
		return nil
	}
	return s.peers.Stats()
}
