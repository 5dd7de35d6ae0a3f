package peer

import (
	"fmt"

	"github.com/pion/webrtc/v4"
)

// Handle takes one signalling message from the page and returns the
// messages to send back (an offer, errors). A refused message yields a
// TypeError and changes nothing; other cameras and sessions are
// unaffected. Messages after the session closed yield CodeClosed.
func (ss *Session) Handle(raw []byte) []Message {
	m, err := Decode(raw)
	if err != nil {
		ss.badMessages.Add(1)
		return []Message{errorFrom(err, CodeBadMessage)}
	}
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if ss.closed || ss.err != nil {
		return []Message{errorMessage(CodeClosed, "", "the session is closed")}
	}
	switch m.Type {
	case TypeWant:
		return ss.want(m.Cameras, m.Chosen)
	case TypeCaps:
		return ss.setCaps(m.Camera, m.Caps)
	case TypeAnswer:
		return ss.answer(m.SDP)
	case TypeCandidate:
		return ss.candidate(m.Candidate)
	case TypeOffer:
		ss.badMessages.Add(1)
		return []Message{errorMessage(CodeNegotiation, "", "the server makes the offers: send %q and answer its offer", TypeWant)}
	default: // TypeError from the page: nothing to answer
		ss.srv.cfg.Logger.Info("webrtc page error", "session", ss.id, "code", m.Error.Code, "message", m.Error.Message)
		return nil
	}
}

// want makes the session show exactly cams (in the page's order, chosen
// first in the bandwidth split; chosen defaults to the first). Called
// with ss.mu held.
func (ss *Session) want(cams []string, chosen string) []Message {
	if len(cams) > ss.srv.cfg.MaxTracksPerPeer {
		ss.badMessages.Add(1)
		return []Message{errorMessage(CodeTooManyCameras, "", "%d cameras over this server's limit of %d per page",
			len(cams), ss.srv.cfg.MaxTracksPerPeer)}
	}
	var out []Message
	keep := make(map[string]bool, len(cams))
	for _, n := range cams {
		keep[n] = true
	}
	changed := false
	for name, c := range ss.cams {
		if !keep[name] {
			ss.removeCamera(name, c)
			changed = true
		}
	}
	order := make([]string, 0, len(cams))
	for _, name := range cams {
		if ss.cams[name] == nil {
			if err := ss.addCamera(name); err != nil {
				out = append(out, errorMessage(CodeUnknownCamera, name, "camera %q: %v", name, err))
				continue
			}
			changed = true
		}
		order = append(order, name)
	}
	ss.order = order
	ss.chosen = chosen
	if chosen == "" && len(order) > 0 {
		ss.chosen = order[0]
	}
	if changed || ss.pc.LocalDescription() == nil {
		out = append(out, ss.negotiate()...)
	}
	return out
}

// addCamera opens the camera's Source and adds its track (not yet
// negotiated). Called with ss.mu held.
func (ss *Session) addCamera(name string) error {
	src, err := ss.srv.cfg.Open(name, ss.caps[name])
	if err != nil {
		return err
	}
	c, err := newCamera(ss, name)
	if err != nil {
		return err
	}
	sender, err := ss.pc.AddTrack(c.track)
	if err != nil {
		c.cancel()
		return fmt.Errorf("add track: %w", err)
	}
	c.sender = sender
	ss.cams[name] = c
	c.start(src)
	return nil
}

// removeCamera stops the camera and removes its track. Called with ss.mu
// held.
func (ss *Session) removeCamera(name string, c *camera) {
	delete(ss.cams, name)
	ss.own.mids.forget(c.sender)
	if err := ss.pc.RemoveTrack(c.sender); err != nil {
		ss.srv.cfg.Logger.Warn("webrtc remove track", "session", ss.id, "camera", name, "err", err)
	}
	c.stop()
}

// negotiate makes an offer, or marks one as due when an offer is already
// out. Called with ss.mu held.
func (ss *Session) negotiate() []Message {
	if ss.offered {
		ss.again = true
		return nil
	}
	offer, err := ss.pc.CreateOffer(nil)
	if err == nil {
		err = ss.pc.SetLocalDescription(offer)
	}
	if err != nil {
		return []Message{errorMessage(CodeNegotiation, "", "offer: %v", err)}
	}
	ss.own.mids.update(ss.pc) // MIDs are assigned by the offer; the streams are bound by its answer
	ss.offered = true
	return []Message{{Type: TypeOffer, SDP: offer.SDP}}
}

// setCaps records a camera's caps; a shown camera whose resolution or
// frame rate changed is moved to the Source that serves the new caps.
// Called with ss.mu held.
func (ss *Session) setCaps(name string, w *CapsWire) []Message {
	caps, err := w.Caps()
	if err != nil { // Decode checked it already
		return []Message{errorMessage(CodeBadCaps, name, "%v", err)}
	}
	old, known := ss.caps[name] // zero Caps until the page sends some
	if !known && len(ss.caps) >= 2*MaxWanted {
		return []Message{errorMessage(CodeTooManyCameras, name, "caps for more than %d cameras", 2*MaxWanted)}
	}
	c := ss.cams[name]
	if c != nil && (old.FrameRate != caps.FrameRate || old.Width != caps.Width || old.Height != caps.Height) {
		src, err := ss.srv.cfg.Open(name, caps)
		if err != nil {
			return []Message{errorMessage(CodeBadCaps, name, "camera %q cannot serve these caps: %v", name, err)}
		}
		c.switchTo(src)
	}
	ss.caps[name] = caps
	return nil
}

// answer applies the page's answer to the outstanding offer, then any
// candidates that came early, and makes the next offer if one is due.
// Called with ss.mu held.
func (ss *Session) answer(sdp string) []Message {
	if !ss.offered {
		ss.badMessages.Add(1)
		return []Message{errorMessage(CodeNegotiation, "", "answer without an offer")}
	}
	if err := ss.pc.SetRemoteDescription(webrtc.SessionDescription{Type: webrtc.SDPTypeAnswer, SDP: sdp}); err != nil {
		ss.badMessages.Add(1)
		return []Message{errorMessage(CodeBadSDP, "", "answer: %v", err)}
	}
	ss.offered = false
	var out []Message
	for _, c := range ss.pending {
		if err := ss.pc.AddICECandidate(c); err != nil {
			out = append(out, errorMessage(CodeBadCandidate, "", "candidate: %v", err))
		}
	}
	ss.pending = nil
	if ss.again {
		ss.again = false
		out = append(out, ss.negotiate()...)
	}
	return out
}

// candidate adds the page's candidate, holding it until the answer.
// Called with ss.mu held.
func (ss *Session) candidate(c *Candidate) []Message {
	if c.Candidate == "" {
		return nil // end of candidates
	}
	if ss.candidates >= maxCandidates { // each one costs connectivity checks to an address the page chose
		ss.badMessages.Add(1)
		return []Message{errorMessage(CodeBadCandidate, "", "more than %d candidates from this page", maxCandidates)}
	}
	ss.candidates++
	init := webrtc.ICECandidateInit{Candidate: c.Candidate, SDPMid: c.SDPMid, SDPMLineIndex: c.SDPMLineIndex,
		UsernameFragment: c.UsernameFragment}
	if ss.pc.RemoteDescription() == nil {
		ss.pending = append(ss.pending, init)
		return nil
	}
	if err := ss.pc.AddICECandidate(init); err != nil {
		ss.badMessages.Add(1)
		return []Message{errorMessage(CodeBadCandidate, "", "candidate: %v", err)}
	}
	return nil
}

// cameraFailed tells the page that a camera's Source failed; its track
// stays, silent, until the page drops the camera from TypeWant. The
// session and its other cameras go on.
func (ss *Session) cameraFailed(name, reason string) {
	ss.srv.cfg.Logger.Warn("webrtc camera failed", "session", ss.id, "camera", name, "reason", reason)
	ss.send(errorMessage(CodeCamera, name, "camera %q: %s", name, reason))
}
