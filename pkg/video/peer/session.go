package peer

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/pion/interceptor/pkg/cc"
	"github.com/pion/webrtc/v4"
)

// CommandLabel is the label of the data channel that carries commands.
const CommandLabel = "commands"

// SessionConfig connects one session to its page's transport.
type SessionConfig struct {
	// Send carries a message the server sends on its own (trickled
	// candidates, renegotiation offers, a camera that failed, the reason
	// the session closed). Calls are serialized; Send must not block for
	// long (queue and return). Required.
	Send func(Message)
	// OnCommand receives each data-channel message on CommandLabel up to
	// Config.MaxCommandSize bytes, in arrival order (which the unordered
	// channel does not keep from the page); data is the callee's to keep.
	// It is called from pion's receive goroutine, one call at a time, and
	// must not block. The package never interprets commands. Optional.
	OnCommand func(data []byte)
}

// Session is one viewer page's RTCPeerConnection. The server makes every
// offer; the page answers. Handle, Stats and Close may be called from any
// goroutine.
type Session struct {
	srv *Server
	cfg SessionConfig
	id  uint64

	ctx    context.Context
	cancel context.CancelFunc
	pc     *webrtc.PeerConnection
	bwe    chan cc.BandwidthEstimator
	own    sessionInterceptors
	gate   readGate // its ICE sockets, read after each picture unless prompt
	wg     sync.WaitGroup
	done   chan struct{}
	timer  *time.Timer

	sendMu sync.Mutex
	// pcMu orders GetStats (read) against Close (write): pion's Close
	// clears the connection's stats getter without its lock.
	pcMu sync.RWMutex

	mu         sync.Mutex
	cams       map[string]*camera
	order      []string // wanted cameras, in the page's order
	chosen     string
	caps       map[string]Caps
	offered    bool                      // an offer is waiting for its answer
	again      bool                      // the track set changed while an offer was out
	pending    []webrtc.ICECandidateInit // candidates that came before the answer
	candidates int                       // candidates received from the page
	connected  bool
	closed     bool
	err        *ErrorBody
	estimate   int // [bit/s]
	gcc        GCC // the estimator's parts

	opened                                 atomic.Bool // open succeeded: pc is set (Server.Stats lists only these)
	badMessages, commands, commandsDropped atomic.Uint64
}

// sessionInterceptors are the session's own interceptors (newAPI), whose
// state the session reads.
type sessionInterceptors struct {
	pacer  atomic.Pointer[pacer] // the session's pacer, once pion made its estimator
	mids   mids                  // the MID of each sending SSRC
	resend resender              // the NACK responder
	sent   sentCounter           // packets and bytes sent, per stream
	target atomic.Int64          // the latest estimate [bit/s], for the cameras and the resender
}

// queued returns the bytes waiting in the session's pacer.
func (o *sessionInterceptors) queued() int {
	if p := o.pacer.Load(); p != nil {
		return p.queuedBytes()
	}
	return 0
}

// queueDelay is how long the pacer's queue takes to drain at the pacer's
// rate (pacingFactor times the estimate); 0 without an estimate.
func (o *sessionInterceptors) queueDelay() time.Duration {
	rate := float64(o.target.Load()) * pacingFactor
	if rate <= 0 {
		return 0
	}
	return time.Duration(float64(o.queued()) * 8 / rate * float64(time.Second))
}

// congested reports whether the pacer's queue takes longer than
// Config.MaxQueueDelay to drain at the pacer's rate.
func (ss *Session) congested() bool {
	return ss.own.queueDelay() > ss.srv.cfg.MaxQueueDelay
}

// maxCandidates bounds the candidates a page may send in a session.
const maxCandidates = 64

// NewSession opens a session: it creates the peer connection and the
// command data channel and starts the ICE timeout (Config.ICETimeout). The
// page then sends TypeWant and the server answers with an offer. It
// returns ErrTooManyPeers at Config.MaxPeers.
func (s *Server) NewSession(cfg SessionConfig) (*Session, error) {
	if cfg.Send == nil {
		return nil, fmt.Errorf("%w: SessionConfig.Send is required", ErrConfig)
	}
	ss := &Session{srv: s, cfg: cfg, done: make(chan struct{}), cams: make(map[string]*camera),
		caps: make(map[string]Caps), bwe: make(chan cc.BandwidthEstimator, 1)}
	id, err := s.reserve(ss)
	if err != nil {
		return nil, err
	}
	ss.id = id
	ss.ctx, ss.cancel = context.WithCancel(context.Background())
	if err := ss.open(); err != nil {
		ss.cancel()
		if ss.pc != nil {
			ss.closePC()
		}
		s.release(ss)
		close(ss.done)
		return nil, err
	}
	ss.opened.Store(true)
	ss.timer = time.AfterFunc(s.cfg.ICETimeout, func() {
		ss.mu.Lock()
		ok := ss.connected
		ss.mu.Unlock()
		if !ok {
			ss.fail(CodeICETimeout, fmt.Sprintf("ICE did not connect within %v", s.cfg.ICETimeout))
		}
	})
	ss.wg.Add(1)
	go ss.splitLoop()
	return ss, nil
}

func (ss *Session) open() error {
	api, err := ss.srv.newAPI(ss.bwe, &ss.own, &ss.gate)
	if err != nil {
		return err
	}
	pc, err := api.NewPeerConnection(webrtc.Configuration{ICEServers: ss.srv.iceServers()})
	if err != nil {
		return fmt.Errorf("peer: new peer connection: %w", err)
	}
	ss.pc = pc
	ordered, retransmits := false, uint16(0)
	dc, err := pc.CreateDataChannel(CommandLabel, &webrtc.DataChannelInit{Ordered: &ordered, MaxRetransmits: &retransmits})
	if err != nil {
		return fmt.Errorf("peer: data channel: %w", err)
	}
	ss.bindCommands(dc)
	pc.OnDataChannel(func(dc *webrtc.DataChannel) { // a channel the page opened
		if dc.Label() == CommandLabel {
			ss.bindCommands(dc)
			return
		}
		_ = dc.Close()
	})
	pc.OnICECandidate(func(c *webrtc.ICECandidate) {
		if c == nil {
			return
		}
		init := c.ToJSON()
		ss.send(Message{Type: TypeCandidate, Candidate: &Candidate{Candidate: init.Candidate,
			SDPMid: init.SDPMid, SDPMLineIndex: init.SDPMLineIndex, UsernameFragment: init.UsernameFragment}})
	})
	pc.OnICEConnectionStateChange(func(st webrtc.ICEConnectionState) {
		switch st {
		case webrtc.ICEConnectionStateConnected, webrtc.ICEConnectionStateCompleted:
			ss.mu.Lock()
			ss.connected = true
			ss.mu.Unlock()
		case webrtc.ICEConnectionStateFailed:
			ss.fail(CodeICEFailed, "ICE connectivity failed")
		}
	})
	pc.OnConnectionStateChange(func(st webrtc.PeerConnectionState) {
		if st == webrtc.PeerConnectionStateFailed {
			ss.fail(CodeICEFailed, "the peer connection failed")
		}
	})
	return nil
}

// bindCommands hands the channel's messages to OnCommand, dropping and
// counting those over Config.MaxCommandSize.
func (ss *Session) bindCommands(dc *webrtc.DataChannel) {
	dc.OnMessage(func(m webrtc.DataChannelMessage) {
		if len(m.Data) > ss.srv.cfg.MaxCommandSize || ss.cfg.OnCommand == nil {
			ss.commandsDropped.Add(1)
			return
		}
		ss.commands.Add(1)
		ss.cfg.OnCommand(append([]byte(nil), m.Data...))
	})
}

// SetPrompt makes the session read its sockets as datagrams arrive
// (true), or after each picture it is handed while pictures come at least
// every 40 ms (false, the default; see gate.go). The embedder makes the
// operator's session prompt, whose commands and feedback must not wait
// for a picture, and leaves watchers' sessions gated, so that each
// watcher's feedback costs the console no wake-up of its own.
func (ss *Session) SetPrompt(prompt bool) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if ss.closed || ss.gate.prompt.Load() == prompt {
		return
	}
	ss.gate.setPrompt(prompt)
	ss.srv.promptChanged(prompt)
}

// picture is called by the session's cameras after each picture they are
// handed (gate.go).
func (ss *Session) picture() {
	ss.gate.picture()
	ss.srv.picture()
}

// ID is the session's number, unique within its Server.
func (ss *Session) ID() uint64 { return ss.id }

// Done is closed when the session has closed and released everything.
func (ss *Session) Done() <-chan struct{} { return ss.done }

// Err returns why the session closed (nil while open or after Close).
func (ss *Session) Err() *ErrorBody {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	return ss.err
}

// Close ends the session without a message to the page and waits until
// everything is released, at most about Config.CloseTimeout (a peer
// connection slower to close finishes in the background). Safe to call
// more than once.
func (ss *Session) Close() {
	ss.shutdown(nil)
	<-ss.done
}

// fail sends the reason to the page, then closes the session in the
// background (it may be called from pion's callbacks).
func (ss *Session) fail(code, reason string) {
	body := &ErrorBody{Code: code, Message: reason}
	ss.mu.Lock()
	first := !ss.closed && ss.err == nil
	if first {
		ss.err = body
	}
	ss.mu.Unlock()
	if !first {
		return
	}
	ss.srv.cfg.Logger.Warn("webrtc session closed", "session", ss.id, "code", code, "reason", reason)
	ss.send(Message{Type: TypeError, Error: body})
	go ss.shutdown(body)
}

func (ss *Session) shutdown(_ *ErrorBody) {
	ss.mu.Lock()
	if ss.closed {
		ss.mu.Unlock()
		return
	}
	ss.closed = true
	if ss.gate.prompt.Load() {
		ss.srv.promptChanged(false) // no longer on Config.UDP
	}
	cams := make([]*camera, 0, len(ss.cams))
	for _, c := range ss.cams {
		cams = append(cams, c)
	}
	ss.mu.Unlock()
	ss.timer.Stop()
	ss.cancel()
	ss.closePC() // bounded by Config.CloseTimeout
	for _, c := range cams {
		c.stop()
	}
	ss.wg.Wait()
	ss.srv.release(ss)
	close(ss.done)
}

// send passes m to SessionConfig.Send, one call at a time.
func (ss *Session) send(m Message) {
	ss.sendMu.Lock()
	defer ss.sendMu.Unlock()
	ss.cfg.Send(m)
}

// splitLoop divides the bandwidth estimate over the watched cameras every
// Config.SplitInterval.
func (ss *Session) splitLoop() {
	defer ss.wg.Done()
	var est cc.BandwidthEstimator
	select {
	case est = <-ss.bwe:
	case <-ss.ctx.Done():
		return
	}
	t := time.NewTicker(ss.srv.cfg.SplitInterval)
	defer t.Stop()
	var shares []Share
	var out []int
	var cams []*camera
	for {
		total := est.GetTargetBitrate()
		ss.own.target.Store(int64(total))
		g := gccOf(est.GetStats())
		ss.mu.Lock()
		ss.estimate, ss.gcc = total, g
		shares, cams = shares[:0], cams[:0]
		for _, name := range ss.order {
			c := ss.cams[name]
			if c == nil {
				continue
			}
			cams = append(cams, c)
			shares = append(shares, Share{Chosen: name == ss.chosen, Max: ss.caps[name].MaxBitrate})
		}
		ss.mu.Unlock()
		if cap(out) < len(shares) {
			out = make([]int, len(shares))
		}
		out = out[:len(shares)]
		Split(int(float64(total)*ss.srv.cfg.Headroom), shares, out)
		for i, c := range cams {
			c.setShare(out[i])
		}
		select {
		case <-t.C:
		case <-ss.ctx.Done():
			return
		}
	}
}
