package access

// Sessions: what the cookie carries instead of the token. A login (the
// token in the form or in ?token=) makes a session; the cookie holds its
// identifier, random and useless elsewhere; a logout or its expiry ends
// it, and with it every connection it opened.

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"log/slog"
	"net"
	"time"
)

// SessionIdle is how long a session lasts without a request and without
// an open connection (a page's WebSocket, a camera stream) [s]: a page
// left open keeps its session.
const SessionIdle = 12 * time.Hour

// SessionMax is the longest a session lasts from its login, open
// connections or not [s]; then the browser must log in again.
const SessionMax = 7 * 24 * time.Hour

// SessionsPerOperator bounds the sessions of one operator: a new login
// beyond it ends that operator's least recently used session (never
// another operator's). The table holds at most this many per operator.
const SessionsPerOperator = 16

// sessionKey is the SHA-256 of a session identifier: the table is keyed
// by it, so that a lookup's timing tells nothing of the identifiers.
type sessionKey [sha256.Size]byte

// session is one logged-in browser.
type session struct {
	op      *Operator
	created time.Time
	seen    time.Time // last request, or last close of an open connection
	open    int       // requests in progress (WebSockets, streams, ...)
	ctx     context.Context
	cancel  context.CancelFunc // ends the requests in progress
	conns   map[net.Conn]struct{}
}

// expired reports whether s is over its lifetime at now.
func (s *session) expired(now time.Time) bool {
	return now.Sub(s.created) >= SessionMax || (s.open == 0 && now.Sub(s.seen) >= SessionIdle)
}

// newSessionID returns a random session identifier (256 bits,
// base64url) and its key.
func newSessionID() (string, sessionKey, error) {
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", sessionKey{}, fmt.Errorf("console: session: %w", err)
	}
	id := base64.RawURLEncoding.EncodeToString(b[:])
	return id, sha256.Sum256([]byte(id)), nil
}

// startSession makes a session for op at now and returns its
// identifier. Called with a.mu held.
func (a *Gate) startSession(op *Operator, now time.Time) (string, error) {
	id, k, err := newSessionID()
	if err != nil {
		return "", err
	}
	if a.sessions == nil {
		a.sessions = map[sessionKey]*session{}
	}
	a.sweepLocked(now)
	// The operator's oldest session makes room.
	var oldest sessionKey
	n := 0
	for k, s := range a.sessions {
		if s.op == op {
			if n == 0 || s.seen.Before(a.sessions[oldest].seen) {
				oldest = k
			}
			n++
		}
	}
	if n >= SessionsPerOperator {
		a.endLocked(oldest, now, "session_ended", "ended: the operator's oldest session, over "+fmt.Sprint(SessionsPerOperator))
	}
	ctx, cancel := context.WithCancel(context.Background())
	a.sessions[k] = &session{op: op, created: now, seen: now, ctx: ctx, cancel: cancel}
	return id, nil
}

// lookup returns the live session of identifier id at now (nil: none,
// expired or ended), and marks it used.
func (a *Gate) lookup(id string, now time.Time) *session {
	if id == "" {
		return nil
	}
	k := sessionKey(sha256.Sum256([]byte(id)))
	a.mu.Lock()
	defer a.mu.Unlock()
	s := a.sessions[k]
	if s == nil {
		return nil
	}
	if s.expired(now) {
		a.endLocked(k, now, "session_expired", "expired")
		return nil
	}
	s.seen = now
	return s
}

// endLocked ends session k: it leaves the table, its requests in
// progress are cancelled and its connections closed, and the journal
// records why (kind, detail). Called with a.mu held.
func (a *Gate) endLocked(k sessionKey, now time.Time, kind, detail string) {
	s := a.sessions[k]
	if s == nil {
		return
	}
	delete(a.sessions, k)
	s.cancel()
	for c := range s.conns {
		_ = c.Close() // its handler sees the error and leaves
	}
	s.conns = nil
	a.cfg.Journal.Record(now, Event{Kind: kind, Level: slog.LevelInfo, Msg: "session " + detail, Operator: s.op.Name, Roles: s.op.Roles, Detail: detail, Audit: true})
}

// Sweep ends the sessions expired at now (closing their connections).
// The server calls it now and then; requests also end expired sessions
// when they meet them.
func (a *Gate) Sweep(now time.Time) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.sweepLocked(now)
}

func (a *Gate) sweepLocked(now time.Time) {
	for k, s := range a.sessions {
		if s.expired(now) {
			a.endLocked(k, now, "session_expired", "expired")
		}
	}
}

// Sessions returns the number of live sessions (for tests and figures).
func (a *Gate) Sessions() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return len(a.sessions)
}

// Open returns the number of requests in progress within sessions
// (pages' WebSockets, camera streams, ...).
func (a *Gate) Open() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	n := 0
	for _, s := range a.sessions {
		n += s.open
	}
	return n
}
