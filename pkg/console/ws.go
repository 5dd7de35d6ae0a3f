package console

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"time"

	"github.com/coder/websocket"
	"github.com/telebridge/telebridge/pkg/console/access"
)

// serveWS runs one page's WebSocket: its reader (this goroutine), its
// writer, and its pinger.
func (s *Server) serveWS(w http.ResponseWriter, r *http.Request) {
	who, ok := access.IdentityOf(r)
	if !ok {
		http.Error(w, "console: not authenticated", http.StatusUnauthorized)
		return
	}
	release, ok := s.admitPage(w, who)
	if !ok {
		return
	}
	defer release()
	// Accept checks that Origin names this host: another web site's page
	// cannot open the socket.
	ws, err := websocket.Accept(w, r, nil)
	if err != nil {
		s.cnt.AuthFails.Add(1)
		s.journal.Record(s.cfg.Clock.Now(), event{Kind: "websocket_refused", Level: slog.LevelWarn, Msg: "websocket refused", Source: who.Source,
			Operator: who.Operator, Roles: who.Roles, Detail: fmt.Sprintf("%v (origin %q)", err, r.Header.Get("Origin")), Audit: true})
		return
	}
	s.wsWG.Add(1)
	defer s.wsWG.Done()
	ws.SetReadLimit(maxSignal) // other messages: MaxMessage, checked by the hub
	// The socket's context is not the request's: a server shutdown closes
	// it with a close frame (below), not by cancelling its reads.
	ctx, cancel := context.WithCancel(context.WithoutCancel(r.Context()))
	defer cancel()
	// ?watch=1: a page that sends no command does not take the lease on
	// joining (it may still take it). ?beat=1: a page whose script sends
	// MsgBeat (liveness.go).
	watch := r.URL.Query().Get("watch") == "1"
	id, control := s.hub.join(who.Operator, who.Roles, who.Source, watch, s.cfg.Clock.Now())
	pv := &pageVideo{}
	c := &conn{id: id, out: make(chan []byte, 8), sig: make(chan []byte, 256), needFull: true, video: pv}
	// The hello is the first message: queued before the broadcast can see
	// the page.
	hello, _ := json.Marshal(map[string]any{"type": "hello", "page": id, "info": s.hub.info, "timeout_ms": s.cfg.CommandTimeout.Milliseconds(),
		"control": control, "operator": who.Operator, "roles": who.Roles.String(),
		"webrtc": s.webrtcHello()})
	c.out <- hello
	s.mu.Lock()
	s.conns[id] = c
	s.mu.Unlock()
	select {
	case s.wake <- struct{}{}:
	default: // the loop runs already
	}
	why := "socket closed"
	defer func() {
		select {
		case <-s.closing:
			why = "console shutting down"
		default:
		}
		s.mu.Lock()
		delete(s.conns, id)
		s.mu.Unlock()
		// The lease and what the page drove first: leaving waits for no
		// network close. A command its data channel still delivers finds
		// the page gone and is refused.
		s.hub.leave(context.WithoutCancel(ctx), id, s.cfg.Clock.Now(), why)
		ws.CloseNow()
		s.closeVideo(pv)
	}()
	go func() {
		// The writer: the only goroutine that writes messages to ws.
		write := func(b []byte) error {
			wctx, wcancel := context.WithTimeout(ctx, 5*time.Second)
			defer wcancel()
			return ws.Write(wctx, websocket.MessageText, b)
		}
		for {
			var b []byte
			select {
			case <-ctx.Done():
				return
			case b = <-c.sig:
			case b = <-c.out:
			}
			if err := write(b); err != nil {
				cancel()
				return
			}
		}
	}()
	lv := &liveness{beat: r.URL.Query().Get("beat") == "1"}
	lv.lastRead.Store(time.Now().UnixNano())
	go s.watchPage(ctx, cancel, ws, r, lv, pageOf{id: id, who: who})
	for {
		typ, b, err := ws.Read(ctx)
		if err != nil {
			return
		}
		lv.lastRead.Store(time.Now().UnixNano())
		if lv.beatIn(typ, b) {
			continue // liveness only
		}
		now := s.cfg.Clock.Now()
		if typ != websocket.MessageText {
			s.reply(c, s.hub.badFrame(id, now, "binary message"))
			continue
		}
		if sig, ok := signalEnvelope(b); ok {
			s.signal(ctx, c, pv, sig)
			continue
		}
		if err := s.hub.handle(ctx, id, b, now); err != nil {
			s.reply(c, err)
		}
	}
}

func (s *Server) reply(c *conn, err error) {
	b, _ := json.Marshal(map[string]string{"type": "error", "error": err.Error()})
	s.send(c, b)
}
