package console

import (
	"context"
	"log/slog"
	"net"
	"net/http"
	"net/http/cookiejar"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/telebridge/telebridge/internal/testkit/syncbuf"
	"github.com/telebridge/telebridge/pkg/console/access"
)

// pageClient logs in with token from the loopback address from (e.g.
// 127.0.0.2, another source) and opens pages with the session it got.
type pageClient struct {
	t    *testing.T
	addr string
	c    *http.Client
}

func newPageClient(t *testing.T, addr, token, from string) *pageClient {
	t.Helper()
	jar, _ := cookiejar.New(nil)
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}}
	c := &http.Client{Jar: jar, Transport: &http.Transport{DialContext: d.DialContext}}
	resp, err := c.Get("http://" + addr + "/?token=" + token)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("login from %s: %d", from, resp.StatusCode)
	}
	return &pageClient{t: t, addr: addr, c: c}
}

// open opens a page (a WebSocket that reads) and returns it, or the HTTP
// status that refused it.
func (p *pageClient) open() (*websocket.Conn, int) {
	p.t.Helper()
	h := http.Header{}
	h.Set("Origin", "http://"+p.addr)
	ws, resp, err := websocket.Dial(context.Background(), "ws://"+p.addr+"/ws", &websocket.DialOptions{HTTPClient: p.c, HTTPHeader: h})
	if err != nil {
		if resp == nil {
			p.t.Fatalf("dial: %v", err)
		}
		return nil, resp.StatusCode
	}
	p.t.Cleanup(func() { ws.CloseNow() })
	go func() { // a live page reads
		for {
			if _, _, err := ws.Read(context.Background()); err != nil {
				return
			}
		}
	}()
	return ws, http.StatusSwitchingProtocols
}

// TestPageCaps: one operator's pages and one source's pages are capped;
// the page over a cap gets 429 and a journal line, nothing else changes
// (other operators, other sources, and a page once one has closed).
func TestPageCaps(t *testing.T) {
	tok := func() string {
		s, err := access.NewToken()
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	opTok, viewTok, view2Tok := tok(), tok(), tok()
	var log syncbuf.Buffer
	s, addr, _, _ := serve(t, Config{
		Logger: slog.New(slog.NewTextHandler(&log, nil)), MaxPagesPerOperator: 3, MaxPagesPerSource: 4,
		Operators: []access.Operator{{Name: "op", Token: opTok, Roles: access.RoleDrive}, {Name: "viewer", Token: viewTok, Roles: access.RoleView},
			{Name: "viewer2", Token: view2Tok, Roles: access.RoleView}},
	})
	viewer := newPageClient(t, addr, viewTok, "127.0.0.1")
	var first *websocket.Conn
	for i := range 3 {
		ws, code := viewer.open()
		if code != http.StatusSwitchingProtocols {
			t.Fatalf("viewer's page %d: %d", i+1, code)
		}
		if first == nil {
			first = ws
		}
	}
	if _, code := viewer.open(); code != http.StatusTooManyRequests {
		t.Fatalf("viewer's 4th page (cap 3 per operator): %d, want 429", code)
	}
	viewer2 := newPageClient(t, addr, view2Tok, "127.0.0.1")
	if _, code := viewer2.open(); code != http.StatusSwitchingProtocols {
		t.Fatalf("another operator's page from the same source (4 of 4): %d", code)
	}
	if _, code := viewer2.open(); code != http.StatusTooManyRequests {
		t.Fatalf("a 5th page from 127.0.0.1 (cap 4 per source): %d, want 429", code)
	}
	// The operator, from another address, is not held back by them.
	op := newPageClient(t, addr, opTok, "127.0.0.2")
	if _, code := op.open(); code != http.StatusSwitchingProtocols {
		t.Fatalf("the operator's page from 127.0.0.2: %d", code)
	}
	if got := s.Counters().PagesRefused.Load(); got != 2 {
		t.Fatalf("PagesRefused %d, want 2", got)
	}
	for _, want := range []string{`operator \"viewer\" has 3 pages open`, "4 pages are open from 127.0.0.1", "kind=page_refused"} {
		if !strings.Contains(log.String(), want) {
			t.Errorf("journal lacks %q:\n%s", want, log.String())
		}
	}
	// A page that closed frees its place (once the server saw it go).
	first.Close(websocket.StatusNormalClosure, "")
	waitUntil(t, "the viewer's closed page released", func() bool {
		ws, code := viewer.open()
		if ws != nil {
			return true
		}
		if code != http.StatusTooManyRequests {
			t.Fatalf("viewer's page after one closed: %d", code)
		}
		return false
	})
}

// waitUntil polls cond until it holds, failing after a generous 10 s.
func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
