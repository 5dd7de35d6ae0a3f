package console

// Serving: the listener, the HTTP server, and the loop that broadcasts
// the machines' state to every page.

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/telebridge/telebridge/pkg/console/mergepatch"
)

// ListenAndServe listens on Config.Listen, calls ready with the URL to
// open, and serves until ctx is cancelled (see Serve).
func (s *Server) ListenAndServe(ctx context.Context, ready func(url string)) error {
	ln, err := net.Listen("tcp", s.cfg.Listen)
	if err != nil {
		return fmt.Errorf("console: listen: %w", err)
	}
	if ready != nil {
		ready(s.URL(ln.Addr()))
	}
	return s.Serve(ctx, ln)
}

// Serve serves on ln (with TLS if configured) until ctx is cancelled; it
// then stops every held command, sends every page a close frame
// (StatusGoingAway), and returns nil (or the error that ended it).
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	if s.cfg.TLS != nil {
		ln = tls.NewListener(ln, s.cfg.TLS)
	}
	hs := &http.Server{Handler: s.Handler(), ReadHeaderTimeout: 10 * time.Second, BaseContext: func(net.Listener) context.Context { return ctx },
		ConnContext: withConn, ErrorLog: log.New(httpErrors{s}, "", 0)}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); s.loop(ctx) }()
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	var err error
	select {
	case <-ctx.Done():
	case err = <-errc:
		cancel()
	}
	// The machines stop first, then the pages go, each with a close frame.
	s.hub.stopAll(context.WithoutCancel(ctx), s.cfg.Clock.Now())
	s.once.Do(func() { close(s.closing) })
	sctx, scancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second)
	defer scancel()
	_ = hs.Shutdown(sctx)
	wsDone := make(chan struct{})
	go func() { s.wsWG.Wait(); close(wsDone) }()
	select {
	case <-wsDone:
	case <-sctx.Done():
	}
	wg.Wait()
	if s.peers != nil {
		_ = s.peers.Close()
	}
	s.journal.Flush(s.cfg.Clock.Now(), true)
	if errors.Is(err, http.ErrServerClosed) {
		err = nil
	}
	return err
}

// loop runs the deadman tick and the state broadcast while pages are
// connected; with none it sleeps (a page leaving has stopped what it
// drove, so nothing can expire).
func (s *Server) loop(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-s.wake:
		}
		s.run(ctx)
	}
}

func (s *Server) run(ctx context.Context) {
	// The deadman has its own goroutine: a state update being built
	// (snapshot, JSON, patch) never delays an expiry.
	dctx, dcancel := context.WithCancel(ctx)
	var dwg sync.WaitGroup
	dwg.Add(1)
	go func() {
		defer dwg.Done()
		dead := time.NewTicker(s.cfg.TickPeriod)
		defer dead.Stop()
		for {
			select {
			case <-dctx.Done():
				return
			case <-dead.C:
				s.hub.tick(dctx, s.cfg.Clock.Now())
			}
		}
	}()
	defer dwg.Wait()
	defer dcancel()
	state := time.NewTicker(time.Duration(float64(time.Second) / s.cfg.StateRate))
	defer state.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-state.C:
			s.journal.Flush(s.cfg.Clock.Now(), false)
			s.gate.Sweep(s.cfg.Clock.Now()) // an expired session's pages close
			if !s.broadcast(ctx) {
				// Last tick after the last page left: expire anything
				// still held, then sleep.
				s.hub.tick(ctx, s.cfg.Clock.Now())
				if _, n := s.hub.holder(); n == 0 {
					return
				}
			}
		}
	}
}

type countersMsg struct {
	BadMessages, ViewOnly, Role, Faster, RateLimited, BackendErrs, Expired, Stops, AuthFails, Throttled, EStopsHeld, Drops uint64
}

// broadcast sends the state to every page and reports whether there was
// one. The state has type "state", holder, pages, counters, snap, error
// and each panel's entries ("limits").
func (s *Server) broadcast(ctx context.Context) bool {
	s.mu.Lock()
	n := len(s.conns)
	s.mu.Unlock()
	if n == 0 {
		return false // nobody watches: no snapshot, no work
	}
	m := map[string]any{"type": "state"}
	holder, pages := s.hub.holder()
	m["holder"], m["pages"] = holder, pages
	s.hub.state(func(k string, v any) { m[k] = v })
	c := &s.cnt
	m["counters"] = countersMsg{c.BadMessages.Load(), c.ViewOnly.Load(), c.Role.Load(), c.Faster.Load(), c.RateLimited.Load(), c.BackendErrs.Load(),
		c.Expired.Load(), c.Stops.Load(), c.AuthFails.Load(), c.Throttled.Load(), c.EStopsHeld.Load(), s.drops.Load()}
	snap, err := s.cfg.Backend.Snapshot(ctx)
	if err != nil {
		m["error"] = err.Error()
	}
	m["snap"] = snap
	m["link"] = s.hub.linkState(s.cfg.Clock.Now())
	s.hub.observe(ctx, s.cfg.Clock.Now(), &snap, func(k string, v any) { m[k] = v })
	b, err := json.Marshal(m)
	if err != nil {
		s.cfg.Logger.Error("console: state", "err", err)
		return true
	}
	patch := s.states.next(b)
	s.mu.Lock()
	for _, c := range s.conns {
		// A page that has the state before gets the patch; one that
		// is new, or lost an update, the whole state.
		msg := patch
		if patch == nil || c.needFull {
			msg = b
		}
		c.needFull = !s.send(c, msg)
		c.video.setPrompt(c.id == holder)
	}
	s.mu.Unlock()
	return true
}

// send queues b for c and reports whether it did; a page that does not
// keep up loses state updates (counted), never blocks the console.
func (s *Server) send(c *conn, b []byte) bool {
	select {
	case c.out <- b:
		return true
	default:
		s.drops.Add(1)
		return false
	}
}

// fullStateEvery is how many state updates go between two whole states
// to every page (2 s at the default 10 Hz): patches carry the rest.
// A page can rely on patches alone (it gets the whole state when it is
// new or lost one); the whole one now and then serves readers that take
// only whole states.
const fullStateEvery = 20

// statePatcher turns the state's JSON into a patch against the one
// before (pkg/console/mergepatch): {"type":"state_patch","patch":{...}}.
// Only the broadcast uses it.
type statePatcher struct {
	prev map[string]any // the state before, decoded; nil: none
	n    int            // updates since the last whole state
}

// next takes the state's JSON and returns the patch message, or nil when
// every page is to get the whole state (the first, every
// fullStateEvery-th, or a state that does not decode).
func (p *statePatcher) next(state []byte) []byte {
	var cur map[string]any
	if err := json.Unmarshal(state, &cur); err != nil {
		p.prev = nil
		return nil
	}
	prev := p.prev
	p.prev = cur
	if p.n++; prev == nil || p.n >= fullStateEvery {
		p.n = 0
		return nil
	}
	b, err := json.Marshal(struct {
		Type  string         `json:"type"`
		Patch map[string]any `json:"patch"`
	}{"state_patch", mergepatch.Diff(prev, cur)})
	if err != nil {
		return nil
	}
	return b
}
