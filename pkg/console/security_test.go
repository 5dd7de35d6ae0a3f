package console

import (
	"bufio"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/telebridge/telebridge/internal/testkit/syncbuf"

	"github.com/coder/websocket"
	"github.com/telebridge/telebridge/pkg/console/access"
)

// serve runs a server with cfg (fake backend) on a loopback port and
// returns it, its address and the backend.
func serve(t *testing.T, cfg Config) (*Server, string, *fakeBackend, context.CancelFunc) {
	t.Helper()
	be := &fakeBackend{}
	cfg.Backend = be
	if cfg.Logger == nil {
		cfg.Logger = quiet
	}
	if cfg.Listen == "" {
		cfg.Listen = "127.0.0.1:0"
	}
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Serve(ctx, ln) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("serve: %v", err)
		}
	})
	return s, ln.Addr().String(), be, cancel
}

// newTok returns a fresh access token (access.NewToken).
func newTok(t testing.TB) string {
	t.Helper()
	tok, err := access.NewToken()
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

// TestWeakTokenRefused is the probe: tokens that are long but
// not random (all zeros, a repeated word), hex from another tool, and
// mistyped ones are refused with --token, in Config and in a tokens file,
// each with the reason; the console's own tokens pass, and start-up says
// what it accepted.
func TestWeakTokenRefused(t *testing.T) {
	good := newTok(t)
	flip := []byte(good)
	flip[len(flip)-3] ^= 'a' ^ 'b' // one character mistyped
	for _, c := range []struct{ tok, why string }{
		{"00000000000000000000000000000000", "not a console token"},
		{"passwordpasswordpasswordpassword", "not a console token"},
		{"x", "not a console token"},
		{"9f2c4e1a7b3d5f60a1b2c3d4e5f60718", "not a console token"}, // openssl rand -hex 16
		{access.TokenPrefix + "0000", "32 characters"},
		{access.TokenPrefix + strings.Repeat("a", 32), "checksum"},
		{string(flip), "checksum"},
		{strings.ToUpper(good[:4]) + good[4:], "not a console token"},
		{good, ""},
	} {
		dir := t.TempDir()
		file := filepath.Join(dir, "tokens.yaml")
		if err := os.WriteFile(file, []byte("operators:\n  - {name: a, token: \""+c.tok+"\", roles: [view]}\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		_, errCfg := New(Config{Backend: &fakeBackend{}, Token: c.tok, Logger: quiet})
		_, errOps := New(Config{Backend: &fakeBackend{}, Operators: []access.Operator{{Name: "a", Token: c.tok, Roles: access.RoleView}}, Logger: quiet})
		setup, errFlag := Options{Token: c.tok, AuditFile: "off", StateDir: dir}.Apply(&Config{Listen: "0.0.0.0:0", Insecure: true})
		_, errFile := Options{TokensFile: file, AuditFile: "off", StateDir: dir}.Apply(&Config{Listen: "0.0.0.0:0", Insecure: true})
		for name, err := range map[string]error{"Config.Token": errCfg, "Config.Operators": errOps, "--token": errFlag, "--tokens": errFile} {
			switch {
			case c.why == "" && err != nil:
				t.Errorf("%s %q refused: %v", name, c.tok, err)
			case c.why != "" && (!errors.Is(err, access.ErrWeakToken) || !strings.Contains(err.Error(), c.why) || !strings.Contains(err.Error(), "telebridge token new")):
				t.Errorf("%s %q: error %v, want %q and how to make one", name, c.tok, err, c.why)
			}
		}
		if c.why == "" && !slices.ContainsFunc(setup.Notes, func(n string) bool { return strings.Contains(n, access.TokenAccepted) }) {
			t.Errorf("start-up notes %q do not say the token was accepted", setup.Notes)
		}
	}
}

// TestPlainHTTPOffLoopbackNeedsInsecure: off loopback, plain HTTP is
// refused unless asked for.
func TestPlainHTTPOffLoopbackNeedsInsecure(t *testing.T) {
	if _, err := New(Config{Backend: &fakeBackend{}, Listen: "0.0.0.0:8080", Logger: quiet}); err == nil || !strings.Contains(err.Error(), "--insecure") {
		t.Fatalf("plain HTTP off loopback: %v", err)
	}
	if _, err := New(Config{Backend: &fakeBackend{}, Listen: "0.0.0.0:8080", Insecure: true, Logger: quiet}); err != nil {
		t.Fatal(err)
	}
}

// TestTokensFile: the YAML format, and its refusals.
func TestTokensFile(t *testing.T) {
	a, b := newTok(t), newTok(t)
	ops, err := access.ParseOperators([]byte("operators:\n  - name: alice\n    token: " + a + "\n    roles: [drive, arm]\n  - name: bob\n    token: " + b + "\n    roles: [view]\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(ops) != 2 || ops[0].Name != "alice" || ops[0].Roles != access.RoleDrive|access.RoleArm || ops[1].Roles != access.RoleView {
		t.Fatalf("%+v", ops)
	}
	for name, f := range map[string]string{
		"weak":          "operators:\n  - {name: a, token: x, roles: [view]}\n",
		"no role":       "operators:\n  - {name: a, token: " + a + ", roles: []}\n",
		"unknown role":  "operators:\n  - {name: a, token: " + a + ", roles: [pilot]}\n",
		"twice":         "operators:\n  - {name: a, token: " + a + ", roles: [view]}\n  - {name: b, token: " + a + ", roles: [view]}\n",
		"unknown field": "operators:\n  - {name: a, token: " + a + ", roles: [view], colour: red}\n",
		"empty":         "operators: []\n",
	} {
		if _, err := access.ParseOperators([]byte(f)); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	dir := t.TempDir()
	p := filepath.Join(dir, "tokens.yaml")
	if err := os.WriteFile(p, []byte("operators:\n  - {name: a, token: "+a+", roles: [admin]}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := access.LoadOperators(p); err == nil || !strings.Contains(err.Error(), "chmod 600") {
		t.Fatalf("world-readable tokens file: %v", err)
	}
	if err := os.Chmod(p, 0o600); err != nil {
		t.Fatal(err)
	}
	if ops, err := access.LoadOperators(p); err != nil || ops[0].Roles != access.RoleAdmin {
		t.Fatalf("%+v %v", ops, err)
	}
}

// login loads /?token= on addr and returns the cookie it set.
func login(t *testing.T, c *http.Client, base, token string) *http.Cookie {
	t.Helper()
	resp, err := c.Get(base + "/?token=" + token)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther || len(resp.Cookies()) != 1 {
		t.Fatalf("login: %d, cookies %v", resp.StatusCode, resp.Cookies())
	}
	return resp.Cookies()[0]
}

// TestCookiePerPort is the probe: two consoles on one host, each
// with its own cookie named after its port, tight attributes; a cookie of
// one console does not open the other.
func TestCookiePerPort(t *testing.T) {
	tokA, tokB := newTok(t), newTok(t)
	_, addrA, _, _ := serve(t, Config{Token: tokA})
	_, addrB, _, _ := serve(t, Config{Token: tokB})
	c := &http.Client{CheckRedirect: noRedirect}
	ca, cb := login(t, c, "http://"+addrA, tokA), login(t, c, "http://"+addrB, tokB)
	_, portA, _ := net.SplitHostPort(addrA)
	_, portB, _ := net.SplitHostPort(addrB)
	if ca.Name != "telebridge_console_"+portA || cb.Name != "telebridge_console_"+portB {
		t.Fatalf("cookie names %q, %q for ports %s, %s", ca.Name, cb.Name, portA, portB)
	}
	if !ca.HttpOnly || ca.SameSite != http.SameSiteStrictMode || ca.Path != "/" || ca.Secure {
		t.Fatalf("cookie attributes %+v", ca)
	}
	// The browser sends both cookies to both ports: each console reads its own.
	for _, base := range []string{"http://" + addrA, "http://" + addrB} {
		req, _ := http.NewRequest("GET", base+"/", nil)
		req.AddCookie(ca)
		req.AddCookie(cb)
		resp, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("%s with both cookies: %d", base, resp.StatusCode)
		}
	}
	// A's cookie alone does not open B, even renamed to B's name.
	req, _ := http.NewRequest("GET", "http://"+addrB+"/", nil)
	req.AddCookie(&http.Cookie{Name: cb.Name, Value: ca.Value})
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("A's session at B: %d", resp.StatusCode)
	}
}

// TestWrongTokensThrottled is the probe: wrong tokens from one
// source are throttled after a burst (even the right token must then
// wait), and logged once per interval with the count.
func TestWrongTokensThrottled(t *testing.T) {
	var log syncbuf.Buffer
	clk := &stepClock{t: t0}
	audit := &syncbuf.Buffer{}
	tok := newTok(t)
	s, addr, _, _ := serve(t, Config{Token: tok, Logger: slog.New(slog.NewTextHandler(&log, nil)), Clock: clk, Audit: audit})
	c := &http.Client{CheckRedirect: noRedirect}
	codes := map[int]int{}
	wrong := []string{newTok(t), newTok(t), newTok(t)}
	for i := range 100 {
		resp, err := c.Get("http://" + addr + "/?token=" + wrong[i%len(wrong)])
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		codes[resp.StatusCode]++
	}
	if codes[http.StatusUnauthorized] != access.LoginBurst || codes[http.StatusTooManyRequests] != 100-access.LoginBurst {
		t.Fatalf("answers %v, want %d x 401 then 429", codes, access.LoginBurst)
	}
	resp, err := c.Get("http://" + addr + "/?token=" + tok)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusTooManyRequests {
		t.Fatalf("right token while throttled: %d", resp.StatusCode)
	}
	clk.add(time.Duration(float64(time.Second) / access.LoginRate))
	login(t, c, "http://"+addr, tok)
	lines := strings.Count(log.String(), "\n")
	if lines > 4 || !strings.Contains(log.String(), "kind=login_failed") || !strings.Contains(log.String(), "kind=login_throttled") {
		t.Fatalf("%d log lines:\n%s", lines, log.String())
	}
	if s.Counters().Throttled.Load() != 100-access.LoginBurst+1 {
		t.Fatalf("throttled %d", s.Counters().Throttled.Load())
	}
	// The audit log has the failed login and the login, as JSON lines.
	var events []string
	sc := bufio.NewScanner(strings.NewReader(audit.String()))
	for sc.Scan() {
		var r access.AuditRecord
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("audit line %q: %v", sc.Text(), err)
		}
		if r.Time == "" || r.Source != "127.0.0.1" {
			t.Fatalf("audit record %+v", r)
		}
		events = append(events, r.Event)
	}
	if strings.Join(events, " ") != "login_failed login_throttled login" {
		t.Fatalf("audit events %q", events)
	}
}

// stepClock is a clock the test moves.
type stepClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *stepClock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *stepClock) add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// TestFrozenPageLosesLease is the probe: a page whose TCP stays up
// but which reads nothing (so answers no ping) loses the lease within 2 s.
// The defaults give at most 1.5 s; the live run uses shorter timings so
// that a loaded machine's late timers leave a margin to the 2 s bound.
func TestFrozenPageLosesLease(t *testing.T) {
	def, err := New(Config{Backend: &fakeBackend{}, Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	if d := def.cfg.PingPeriod + def.cfg.PongTimeout; d > 1500*time.Millisecond {
		t.Fatalf("default ping period + pong timeout %v: a frozen page keeps the lease longer than 1.5 s", d)
	}
	s, addr, _, _ := serve(t, Config{PingPeriod: 100 * time.Millisecond, PongTimeout: 700 * time.Millisecond})
	ctx := context.Background()
	frozen, _, err := websocket.Dial(ctx, "ws://"+addr+"/ws", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer frozen.CloseNow()
	// It never reads again: pings go unanswered.
	start := time.Now()
	for {
		if h, _ := s.hub.holder(); h == 1 {
			break
		}
		if time.Since(start) > 2*time.Second {
			t.Fatal("the page never got control")
		}
		time.Sleep(time.Millisecond)
	}
	start = time.Now()
	for {
		h, _ := s.hub.holder()
		if h == 0 {
			break
		}
		if d := time.Since(start); d > 2*time.Second {
			t.Fatalf("a frozen page still holds the lease after %v", d)
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Logf("frozen page lost the lease after %v", time.Since(start))
	// A live page (it reads, so it answers pings) keeps it well past
	// that, with the default timings.
	s2, addr2, _, _ := serve(t, Config{})
	live, _, err := websocket.Dial(ctx, "ws://"+addr2+"/ws", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer live.CloseNow()
	rctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		for {
			if _, _, err := live.Read(rctx); err != nil {
				return
			}
		}
	}()
	time.Sleep(2500 * time.Millisecond)
	if h, _ := s2.hub.holder(); h != 1 {
		t.Fatalf("a live page lost the lease: holder %d", h)
	}
}

// TestShutdownCloseFrame: on shutdown every page gets a close frame with
// StatusGoingAway.
func TestShutdownCloseFrame(t *testing.T) {
	_, addr, _, cancel := serve(t, Config{})
	ws, _, err := websocket.Dial(context.Background(), "ws://"+addr+"/ws", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.CloseNow()
	readType(t, ws, "hello")
	cancel()
	rctx, rcancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer rcancel()
	for {
		_, _, err := ws.Read(rctx)
		if err == nil {
			continue
		}
		if st := websocket.CloseStatus(err); st != websocket.StatusGoingAway {
			t.Fatalf("socket ended with %v (status %v), want a close frame with StatusGoingAway", err, st)
		}
		return
	}
}

// TestLogBoundOverWebSockets is the probe through the server:
// three clients send malformed frames, NUL text frames, binary frames,
// view-only jog_stop and e-stops; the log stays bounded.
func TestLogBoundOverWebSockets(t *testing.T) {
	var log syncbuf.Buffer
	s, addr, be, _ := serve(t, Config{Logger: slog.New(slog.NewTextHandler(&log, nil))})
	ctx := context.Background()
	start := time.Now()
	var wg sync.WaitGroup
	const each = 400
	for range 3 {
		ws, _, err := websocket.Dial(ctx, "ws://"+addr+"/ws", nil)
		if err != nil {
			t.Fatal(err)
		}
		defer ws.CloseNow()
		go func() { // drain
			for {
				if _, _, err := ws.Read(ctx); err != nil {
					return
				}
			}
		}()
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range each {
				for _, m := range []string{`{"type":`, "\x00", `{"type":"jog_stop"}`, `{"type":"estop"}`} {
					if err := ws.Write(ctx, websocket.MessageText, []byte(m)); err != nil {
						return
					}
				}
				if err := ws.Write(ctx, websocket.MessageBinary, []byte{0}); err != nil {
					return
				}
			}
		}()
	}
	wg.Wait()
	deadline := time.Now().Add(10 * time.Second)
	for s.Counters().BadMessages.Load() < 3*each*3 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	lines := strings.Count(log.String(), "\n")
	// Per source (one: 127.0.0.1) and kind: page (3 connects share it),
	// bad_message, view_only: one line each in the interval and one of
	// the merged rest; lease: one; estop (audit-critical): CriticalBurst
	// lines and CriticalRate a second, each at most after one merged.
	max := 3*2 + 1 + 2*int(access.CriticalBurst+1+access.CriticalRate*time.Since(start).Seconds())
	if lines > max {
		t.Fatalf("%d messages made %d log lines, want at most %d:\n%s", 3*each*5, lines, max, log.String())
	}
	n := 0
	for _, c := range be.take() {
		if c == "estop" {
			n++
		}
	}
	t.Logf("%d messages: %d log lines, %d bytes, %d e-stops passed to the backend", 3*each*5, lines, len(log.String()), n)
}

// TestTLS: a self-signed certificate made on first use (key 0600), kept
// and reused; the console serves HTTPS with it; the cookie is Secure with
// the __Host- prefix.
func TestTLS(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "state")
	cfg, fp, made, err := access.LoadTLS(access.TLSOptions{SelfSigned: true, StateDir: dir}, "127.0.0.1:0")
	if err != nil || !made || len(fp) != 95 {
		t.Fatalf("first start: made %v, fingerprint %q, %v", made, fp, err)
	}
	if st, err := os.Stat(filepath.Join(dir, "console-key.pem")); err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("key file: %v %v", st.Mode(), err)
	}
	_, fp2, made, err := access.LoadTLS(access.TLSOptions{SelfSigned: true, StateDir: dir}, "127.0.0.1:0")
	if err != nil || made || fp2 != fp {
		t.Fatalf("second start: made %v, fingerprint %q (first %q), %v", made, fp2, fp, err)
	}
	leaf, err := x509.ParseCertificate(cfg.Certificates[0].Certificate[0])
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range []string{"localhost", "127.0.0.1", "::1"} {
		if err := leaf.VerifyHostname(h); err != nil {
			t.Fatalf("certificate does not name %s: %v", h, err)
		}
	}
	tok := newTok(t)
	s, addr, _, _ := serve(t, Config{Token: tok, TLS: cfg})
	if u := s.URL(&net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 1}); !strings.HasPrefix(u, "https://") {
		t.Fatalf("URL %q", u)
	}
	pool := x509.NewCertPool()
	pool.AddCert(leaf)
	c := &http.Client{CheckRedirect: noRedirect, Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}
	ck := login(t, c, "https://"+addr, tok)
	_, port, _ := net.SplitHostPort(addr)
	if ck.Name != "__Host-telebridge_console_"+port || !ck.Secure || !ck.HttpOnly || ck.SameSite != http.SameSiteStrictMode || ck.Path != "/" {
		t.Fatalf("cookie under TLS %+v", ck)
	}
	req, _ := http.NewRequest("GET", "https://"+addr+"/app.js", nil)
	req.AddCookie(ck)
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || len(b) == 0 {
		t.Fatalf("asset over TLS: %d", resp.StatusCode)
	}
	// The WebSocket too (wss).
	h := http.Header{}
	h.Set("Cookie", ck.String())
	h.Set("Origin", "https://"+addr)
	ws, _, err := websocket.Dial(context.Background(), "wss://"+addr+"/ws", &websocket.DialOptions{HTTPHeader: h, HTTPClient: c})
	if err != nil {
		t.Fatalf("wss: %v", err)
	}
	readType(t, ws, "hello")
	ws.CloseNow()
}

// TestOptions: Apply makes TLS the default off loopback, opens the audit
// log (0600) in the state directory, and goes without an audit log when
// there is no state directory and nothing else needs one.
func TestOptions(t *testing.T) {
	dir := t.TempDir()
	cfg := Config{Listen: "0.0.0.0:0"}
	s, err := Options{StateDir: dir}.Apply(&cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if cfg.TLS == nil || s.Fingerprint == "" || cfg.Audit == nil {
		t.Fatalf("off loopback: TLS %v, fingerprint %q, audit %v", cfg.TLS != nil, s.Fingerprint, cfg.Audit)
	}
	if st, err := os.Stat(access.DefaultAuditPath(dir)); err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("audit file: %v", err)
	}
	cfg = Config{Listen: "127.0.0.1:0"}
	t.Setenv("HOME", "")
	t.Setenv("XDG_CONFIG_HOME", "")
	s, err = Options{}.Apply(&cfg)
	if err != nil || cfg.TLS != nil || cfg.Audit != nil || len(s.Notes) != 1 {
		t.Fatalf("loopback without a state directory: %v, notes %q", err, s.Notes)
	}
	if _, err := (Options{TLS: true}).Apply(&Config{Listen: "127.0.0.1:0"}); err == nil || !strings.Contains(err.Error(), "--state-dir") {
		t.Fatalf("self-signed TLS without a state directory: %v", err)
	}
}

// TestLoginForm: a browser without a token gets the login form; the form
// posts the token in the body, sets the cookie and goes to the page; a
// wrong token there counts as a failed login; a post from another site is
// refused.
func TestLoginForm(t *testing.T) {
	tok := newTok(t)
	s, addr, _, _ := serve(t, Config{Token: tok})
	c := &http.Client{CheckRedirect: noRedirect}
	req, _ := http.NewRequest("GET", "http://"+addr+"/", nil)
	req.Header.Set("Accept", "text/html")
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized || !strings.Contains(string(b), `<form method="post" action="/login">`) {
		t.Fatalf("no login form: %d %q", resp.StatusCode, b)
	}
	post := func(token, origin string) *http.Response {
		req, _ := http.NewRequest("POST", "http://"+addr+"/login", strings.NewReader("token="+token))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Accept", "text/html")
		if origin != "" {
			req.Header.Set("Origin", origin)
		}
		resp, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp
	}
	if r := post(tok, "http://evil.example"); r.StatusCode != http.StatusForbidden {
		t.Fatalf("login from another site: %d", r.StatusCode)
	}
	fails := s.Counters().AuthFails.Load()
	if r := post(newTok(t), "http://"+addr); r.StatusCode != http.StatusUnauthorized || s.Counters().AuthFails.Load() != fails+1 {
		t.Fatalf("wrong token: %d", r.StatusCode)
	}
	r := post(tok, "http://"+addr)
	if r.StatusCode != http.StatusSeeOther || r.Header.Get("Location") != "/" || len(r.Cookies()) != 1 {
		t.Fatalf("login: %d to %q, cookies %v", r.StatusCode, r.Header.Get("Location"), r.Cookies())
	}
	req, _ = http.NewRequest("GET", "http://"+addr+"/", nil)
	req.AddCookie(r.Cookies()[0])
	resp, err = c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("page after the form: %d", resp.StatusCode)
	}
}
