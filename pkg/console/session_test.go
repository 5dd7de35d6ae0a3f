package console

import (
	"context"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/telebridge/telebridge/internal/testkit/syncbuf"
	"github.com/telebridge/telebridge/pkg/console/access"
)

// get requests path on base with cookie ck (nil: none) and returns the
// status.
func get(t *testing.T, c *http.Client, base, path string, ck *http.Cookie) int {
	t.Helper()
	req, _ := http.NewRequest("GET", base+path, nil)
	if ck != nil {
		req.AddCookie(ck)
	}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// dialWS opens the page's WebSocket on base with cookie ck.
func dialWS(base string, ck *http.Cookie) (*websocket.Conn, error) {
	h := http.Header{}
	h.Set("Cookie", ck.String())
	h.Set("Origin", base)
	ws, _, err := websocket.Dial(context.Background(), "ws"+strings.TrimPrefix(base, "http")+"/ws", &websocket.DialOptions{HTTPHeader: h})
	return ws, err
}

// TestThrottleSparesSession is the probe: someone at the
// operator's address presents wrong tokens, five at once or one every
// 4 s; the operator's page and WebSocket, logged in before, are served
// every time (before: 14 of 20 refused with 429). The guesses themselves
// are throttled.
func TestThrottleSparesSession(t *testing.T) {
	tok, err := access.NewToken()
	if err != nil {
		t.Fatal(err)
	}
	clk := &stepClock{t: t0}
	_, addr, _, _ := serve(t, Config{Token: tok, Clock: clk})
	base := "http://" + addr
	c := &http.Client{CheckRedirect: noRedirect}
	ck := login(t, c, base, tok)
	refused, throttled := 0, 0
	for i := range 20 {
		wrong, err := access.NewToken()
		if err != nil {
			t.Fatal(err)
		}
		switch code := get(t, c, base, "/?token="+wrong, nil); code {
		case http.StatusTooManyRequests:
			throttled++
		case http.StatusUnauthorized:
		default:
			t.Fatalf("wrong token: %d", code)
		}
		if i >= 10 {
			clk.add(4 * time.Second) // then one guess every 4 s
		}
		if code := get(t, c, base, "/", ck); code != http.StatusOK {
			t.Errorf("round %d: the operator's page: %d", i, code)
			refused++
		}
		ws, err := dialWS(base, ck)
		if err != nil {
			t.Errorf("round %d: the operator's WebSocket: %v", i, err)
			refused++
			continue
		}
		readType(t, ws, "hello")
		ws.CloseNow()
	}
	if refused > 0 || throttled < 20-access.LoginBurst-int(10*4*access.LoginRate) {
		t.Fatalf("%d of 40 of the operator's requests refused, %d of 20 guesses throttled", refused, throttled)
	}
}

// TestSessionCookie is the probe: the cookie carries a session
// identifier, not the token; a logout from the console's page ends the
// session, its open WebSocket with it, and the cookie no longer opens
// anything; a logout from another site is refused. Sessions expire when
// idle (not while a page is open) and after SessionMax, and one
// operator's logins keep at most SessionsPerOperator of them.
func TestSessionCookie(t *testing.T) {
	tok, err := access.NewToken()
	if err != nil {
		t.Fatal(err)
	}
	clk := &stepClock{t: t0}
	audit := &syncbuf.Buffer{}
	s, addr, _, _ := serve(t, Config{Token: tok, Clock: clk, Audit: audit, Logger: slog.New(slog.DiscardHandler)})
	base := "http://" + addr
	c := &http.Client{CheckRedirect: noRedirect}
	ck := login(t, c, base, tok)
	if strings.Contains(ck.Value, tok) || strings.Contains(tok, ck.Value) || len(ck.Value) < 43 {
		t.Fatalf("cookie %q: want a session identifier of 256 bits, not the token", ck.Value)
	}
	ws, err := dialWS(base, ck)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.CloseNow()
	readType(t, ws, "hello")

	logout := func(method, origin string, ck *http.Cookie) *http.Response {
		req, _ := http.NewRequest(method, base+"/logout", nil)
		if origin != "" {
			req.Header.Set("Origin", origin)
		}
		if ck != nil {
			req.AddCookie(ck)
		}
		resp, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp
	}
	if r := logout("POST", "http://evil.example", ck); r.StatusCode != http.StatusForbidden {
		t.Fatalf("logout from another site: %d", r.StatusCode)
	}
	if r := logout("GET", "", ck); r.StatusCode != http.StatusMethodNotAllowed {
		t.Fatalf("logout with GET: %d", r.StatusCode)
	}
	if code := get(t, c, base, "/", ck); code != http.StatusOK {
		t.Fatalf("after refused logouts the session is gone: %d", code)
	}
	r := logout("POST", base, ck)
	if r.StatusCode != http.StatusSeeOther || r.Header.Get("Location") != "/" || len(r.Cookies()) != 1 || r.Cookies()[0].MaxAge >= 0 {
		t.Fatalf("logout: %d to %q, cookies %+v", r.StatusCode, r.Header.Get("Location"), r.Cookies())
	}
	// The page's socket ends with its session.
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for {
		if _, _, err := ws.Read(ctx); err != nil {
			if ctx.Err() != nil {
				t.Fatal("the WebSocket of the ended session still open after 10 s")
			}
			break
		}
	}
	if code := get(t, c, base, "/", ck); code != http.StatusUnauthorized {
		t.Fatalf("the cookie after logout: %d", code)
	}
	if _, err := dialWS(base, ck); err == nil {
		t.Fatal("a WebSocket with the cookie after logout")
	}
	if !strings.Contains(audit.String(), `"event":"logout"`) {
		t.Fatalf("no logout in the audit log:\n%s", audit.String())
	}

	// Idle expiry: not while a page is open.
	ck = login(t, c, base, tok)
	ws, err = dialWS(base, ck)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.CloseNow()
	readType(t, ws, "hello")
	clk.add(access.SessionIdle + time.Minute)
	if code := get(t, c, base, "/app.js", ck); code != http.StatusOK {
		t.Fatalf("a session with an open page, idle for SessionIdle: %d", code)
	}
	ws.CloseNow()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if s.gate.Open() == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the page did not leave")
		}
	}
	clk.add(access.SessionIdle)
	if code := get(t, c, base, "/", ck); code != http.StatusUnauthorized {
		t.Fatalf("a session idle for SessionIdle: %d", code)
	}
	// Lifetime: SessionMax even with requests.
	ck = login(t, c, base, tok)
	for range access.SessionMax / access.SessionIdle {
		clk.add(access.SessionIdle - time.Minute)
		get(t, c, base, "/app.js", ck)
	}
	clk.add(time.Hour)
	if code := get(t, c, base, "/", ck); code != http.StatusUnauthorized {
		t.Fatalf("a session older than SessionMax: %d", code)
	}
	if !strings.Contains(audit.String(), `"event":"session_expired"`) {
		t.Fatalf("no session_expired in the audit log:\n%s", audit.String())
	}

	// One operator's sessions are bounded: the oldest makes room.
	first := login(t, c, base, tok)
	for range access.SessionsPerOperator {
		clk.add(time.Second)
		login(t, c, base, tok)
	}
	if n := s.gate.Sessions(); n != access.SessionsPerOperator {
		t.Fatalf("%d sessions, want at most %d", n, access.SessionsPerOperator)
	}
	if code := get(t, c, base, "/", first); code != http.StatusUnauthorized {
		t.Fatalf("the oldest session over the bound: %d", code)
	}
}
