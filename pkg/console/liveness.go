package console

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"
	"github.com/telebridge/telebridge/pkg/console/access"
)

// MsgBeat is the message a page's script sends on its WebSocket every
// BeatPeriod when it joined with ?beat=1 (the console's own pages do):
// exactly {"type":"beat"}. It proves that the page's script runs, which
// a WebSocket pong does not: Chromium's network process answers pings
// for a page whose browser process is stopped (measured: pongs for 14 s
// after SIGSTOP of the browser's main process, while the page's messages
// had stopped), so a frozen page kept its lease.
const MsgBeat = "beat"

// BeatPeriod is how often a page's script sends MsgBeat.
const BeatPeriod = 250 * time.Millisecond

var (
	beatMsg       = []byte(`{"type":"` + MsgBeat + `"}`)
	beatHiddenMsg = []byte(`{"type":"` + MsgBeat + `","hidden":true}`)
)

// beat records a beat in lv and reports whether the message was one
// (not passed to the hub, not rate limited: it carries nothing but
// whether the page is hidden). A hidden page ({"type":"beat",
// "hidden":true}, sent when it is hidden) is exempt from the beat rule
// until its next plain beat: browsers slow a hidden tab's timers to one a
// second or one a minute, and a hidden page has stopped what it drove.
func (lv *liveness) beatIn(typ websocket.MessageType, b []byte) bool {
	if typ != websocket.MessageText {
		return false
	}
	switch {
	case bytes.Equal(b, beatMsg):
		lv.hidden.Store(false)
	case bytes.Equal(b, beatHiddenMsg):
		lv.hidden.Store(true)
	default:
		return false
	}
	return true
}

// liveness is what the reader tells the watcher of one page's socket.
type liveness struct {
	beat     bool         // the page sends MsgBeat
	hidden   atomic.Bool  // its last beat said it is hidden
	lastRead atomic.Int64 // when the reader last got a message [ns, wall clock]
}

// silent returns how long the page has sent nothing.
func (lv *liveness) silent() time.Duration {
	return time.Since(time.Unix(0, lv.lastRead.Load()))
}

// pageOf names a page in the watcher's journal entries.
type pageOf struct {
	id  uint64
	who access.Identity
}

// watchPage pings the page's socket every PingPeriod and, checking
// every BeatPeriod, closes it (cancel: the reader returns and the page
// leaves the hub, freeing its lease) when the page is gone or frozen:
//   - no pong for PingPeriod + PongTimeout and no message for
//     PongTimeout, or
//   - it sends beats, is not hidden, and sent nothing for BeatTimeout,
//     even though its pongs come (its browser's network process answers
//     for a page that no longer runs).
//
// Either way a page whose link is down (bytes in flight that nothing
// acknowledges, linkStalled) rather than frozen (its system still
// acknowledges) keeps its socket and lease up to LinkTimeout after the
// last acknowledgement; the deadman stops its motion meanwhile.
func (s *Server) watchPage(ctx context.Context, cancel context.CancelFunc, ws *websocket.Conn, r *http.Request, lv *liveness, pg pageOf) {
	quiet := s.cfg.PingPeriod + s.cfg.PongTimeout // the longest a live page may be silent
	var lastPong atomic.Int64                     // [ns, wall clock]
	lastPong.Store(time.Now().UnixNano())
	go func() {
		// The pinger: one ping at a time, each waiting at most PongTimeout.
		t := time.NewTicker(s.cfg.PingPeriod)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
			pctx, pcancel := context.WithTimeout(ctx, s.cfg.PongTimeout)
			if ws.Ping(pctx) == nil {
				lastPong.Store(time.Now().UnixNano())
			}
			pcancel()
		}
	}()
	t := time.NewTicker(min(BeatPeriod, s.cfg.PingPeriod))
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-s.closing:
			_ = ws.Close(websocket.StatusGoingAway, "console shutting down")
			cancel()
			return
		case <-t.C:
		}
		silent := lv.silent()
		why := ""
		switch {
		case lv.beat && !lv.hidden.Load() && silent > s.cfg.BeatTimeout:
			// Checked first: pongs prove only the browser's network
			// process.
			why = "page sent no beat: closing it"
		case time.Since(time.Unix(0, lastPong.Load())) > quiet && silent >= s.cfg.PongTimeout:
			// The pong is read by this console's reader, in order: a page
			// that sent a burst may have its pong queued behind messages
			// still being handled. While the reader keeps reading the
			// page's messages, the page lives.
			why = "page did not answer a ping: closing it"
		}
		if why == "" {
			continue
		}
		if stalled, sinceAck := linkStalled(r.Context()); stalled && sinceAck < s.cfg.LinkTimeout {
			continue
		}
		s.journal.Record(s.cfg.Clock.Now(), event{Kind: "ping_timeout", Level: slog.LevelWarn, Msg: why,
			Source: pg.who.Source, Operator: pg.who.Operator, Roles: pg.who.Roles, Page: pg.id})
		cancel()
		return
	}
}
