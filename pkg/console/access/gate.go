package access

import (
	"bufio"
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"errors"
	"fmt"
	"html"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Gate checks every request: with operators, the session cookie, made
// by a login (the token in the login form, or ?token= on a page load,
// which the session cookie then replaces in the URL) and ended by a
// logout (POST /logout) or its expiry; without operators (loopback), the
// Host header must name loopback so that a foreign web site cannot reach
// the console through DNS rebinding. Wrong tokens are throttled per
// source (a token bucket: LoginBurst failures, then one per 1/LoginRate
// seconds) and journaled; a request in a live session is never
// throttled. Create it with NewGate; safe for concurrent use.
type Gate struct {
	cfg      GateConfig
	mu       sync.Mutex
	fails    map[string]*Bucket // per source host
	sessions map[sessionKey]*session
}

// GateConfig is what a Gate checks against and where it reports.
type GateConfig struct {
	// Operators are the people allowed in; empty: a loopback console
	// without tokens, where everyone is LocalOperator with every role.
	Operators []Operator
	// Journal receives the refusals and logins (required).
	Journal *Journal
	// Now is the time source of the login throttle (required).
	Now func() time.Time
	// AuthFails counts refused requests (no token, wrong token, foreign
	// Host or Origin), Throttled the ones refused by the throttle; nil:
	// not counted.
	AuthFails, Throttled *atomic.Uint64
}

// NewGate returns a Gate over cfg.
func NewGate(cfg GateConfig) *Gate {
	if cfg.AuthFails == nil {
		cfg.AuthFails = new(atomic.Uint64)
	}
	if cfg.Throttled == nil {
		cfg.Throttled = new(atomic.Uint64)
	}
	return &Gate{cfg: cfg}
}

// LoginRate is how many wrong tokens per second a source may present
// once it has used up LoginBurst [1/s].
const LoginRate = 0.2

// LoginBurst is how many wrong tokens a source may present before the
// throttle refuses it.
const LoginBurst = 5

// Identity is who a request comes from.
type Identity struct {
	Operator string // the operator's name, LocalOperator without tokens
	Roles    Role   // the operator's roles
	Source   string // the remote address (host)
}

// LocalOperator is the operator of a loopback console without tokens.
const LocalOperator = "local"

type ctxKey struct{}

func sourceOf(r *http.Request) string {
	if h, _, err := net.SplitHostPort(r.RemoteAddr); err == nil {
		return h
	}
	return r.RemoteAddr
}

// portOf returns the local port the request came in on.
func portOf(r *http.Request) int {
	if a, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr); ok {
		if t, ok := a.(*net.TCPAddr); ok {
			return t.Port
		}
		if _, p, err := net.SplitHostPort(a.String()); err == nil {
			n, _ := strconv.Atoi(p)
			return n
		}
	}
	return 0
}

func (a *Gate) event(e Event) { a.cfg.Journal.Record(a.cfg.Now(), e) }

// Wrap returns next behind the gate: next sees only requests that
// passed, with their Identity in the context (IdentityOf). The context
// of a request in a session ends with the session (logout, expiry), and
// a connection the handler hijacks (a WebSocket) is closed then.
func (a *Gate) Wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		src := sourceOf(r)
		if len(a.cfg.Operators) == 0 {
			if !loopbackHost(r.Host) {
				a.cfg.AuthFails.Add(1)
				a.event(Event{Kind: "foreign_host", Level: slog.LevelWarn, Msg: "request for a foreign Host refused", Source: src, Detail: r.Host})
				http.Error(w, "console: this console listens on loopback only; open it as http://127.0.0.1:PORT/", http.StatusForbidden)
				return
			}
			if r.URL.Path == logoutPath {
				// No sessions: nothing to end.
				http.Redirect(w, r, "/", http.StatusSeeOther)
				return
			}
			next.ServeHTTP(w, r.WithContext(withIdentity(r.Context(), Identity{LocalOperator, RoleAdmin, src})))
			return
		}
		name := CookieName(portOf(r), r.TLS != nil)
		var cookie string
		if c, err := r.Cookie(name); err == nil {
			cookie = c.Value
		}
		switch {
		case r.URL.Path == logoutPath:
			a.logout(w, r, name, cookie, src)
			return
		case r.Method == http.MethodPost && r.URL.Path == loginPath:
			if foreign(r) {
				a.cfg.AuthFails.Add(1)
				a.event(Event{Kind: "login_foreign", Level: slog.LevelWarn, Msg: "login from another site refused", Source: src, Detail: r.Header.Get("Origin")})
				http.Error(w, "console: login from another site refused", http.StatusForbidden)
				return
			}
			r.Body = http.MaxBytesReader(w, r.Body, 4096)
			a.login(w, r, name, r.PostFormValue("token"), "/", src)
			return
		case r.URL.Query().Has("token") && r.Method == http.MethodGet:
			// The token leaves the URL (history, Referer): the session
			// cookie replaces it.
			u := *r.URL
			qs := u.Query()
			t := qs.Get("token")
			qs.Del("token")
			u.RawQuery = qs.Encode()
			a.login(w, r, name, t, u.RequestURI(), src)
			return
		}
		// A session is checked before anything else: no one's failures
		// throttle a browser that has logged in.
		now := a.cfg.Now()
		s := a.lookup(cookie, now)
		if s == nil {
			a.cfg.AuthFails.Add(1)
			if cookie == "" {
				a.event(Event{Kind: "no_token", Level: slog.LevelInfo, Msg: "request without a session refused", Source: src, Detail: r.URL.Path})
			} else {
				// Ended or expired (identifiers are 256 random bits:
				// guessing one is not a threat worth a throttle).
				a.event(Event{Kind: "session_unknown", Level: slog.LevelInfo, Msg: "request with an ended or unknown session refused", Source: src, Detail: r.URL.Path})
				expireCookie(w, r, name)
			}
			loginPage(w, r, "")
			return
		}
		a.serveSession(w, r, next, s, src)
	})
}

// serveSession passes r to next within session s.
func (a *Gate) serveSession(w http.ResponseWriter, r *http.Request, next http.Handler, s *session, src string) {
	a.mu.Lock()
	s.open++
	a.mu.Unlock()
	ctx, cancel := context.WithCancel(r.Context())
	stop := context.AfterFunc(s.ctx, cancel)
	tw := &sessionWriter{ResponseWriter: w, g: a, s: s}
	defer func() {
		stop()
		cancel()
		a.mu.Lock()
		s.open--
		s.seen = a.cfg.Now()
		if tw.conn != nil && s.conns != nil {
			delete(s.conns, tw.conn)
		}
		a.mu.Unlock()
	}()
	next.ServeHTTP(tw, r.WithContext(withIdentity(ctx, Identity{s.op.Name, s.op.Roles, src})))
}

// login checks a token presented in the form or the URL (throttled per
// source: these are the attempts to guess) and, when it is right, makes
// a session, sets its cookie and redirects to to.
func (a *Gate) login(w http.ResponseWriter, r *http.Request, name, token, to, src string) {
	if token == "" {
		a.cfg.AuthFails.Add(1)
		a.event(Event{Kind: "no_token", Level: slog.LevelInfo, Msg: "login without a token refused", Source: src, Detail: r.URL.Path})
		loginPage(w, r, "")
		return
	}
	// The throttle comes before the check: a throttled source learns
	// nothing of its guesses, right or wrong.
	if !a.mayTry(src) {
		a.cfg.Throttled.Add(1)
		a.event(Event{Kind: "login_throttled", Level: slog.LevelWarn, Msg: "login refused: too many wrong tokens from this source", Source: src, Audit: true})
		w.Header().Set("Retry-After", strconv.Itoa(int(1/LoginRate)))
		http.Error(w, "console: too many wrong tokens: wait and try again", http.StatusTooManyRequests)
		return
	}
	op := a.match(token)
	if op == nil {
		a.failed(src)
		a.cfg.AuthFails.Add(1)
		a.event(Event{Kind: "login_failed", Level: slog.LevelWarn, Msg: "wrong access token", Source: src, Detail: r.URL.Path, Audit: true})
		loginPage(w, r, "wrong access token")
		return
	}
	now := a.cfg.Now()
	a.mu.Lock()
	id, err := a.startSession(op, now)
	a.mu.Unlock()
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	a.event(Event{Kind: "login", Level: slog.LevelInfo, Msg: "login", Source: src, Operator: op.Name, Roles: op.Roles, Audit: true})
	http.SetCookie(w, &http.Cookie{Name: name, Value: id, Path: "/", MaxAge: int(SessionMax / time.Second), HttpOnly: true, Secure: r.TLS != nil, SameSite: http.SameSiteStrictMode})
	w.Header().Set("Cache-Control", "no-store")
	http.Redirect(w, r, to, http.StatusSeeOther)
}

// logout ends the session of the request's cookie (a POST from this
// console's own page only) and sends the browser to the login form.
func (a *Gate) logout(w http.ResponseWriter, r *http.Request, name, cookie, src string) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		http.Error(w, "console: log out with a POST (the page's Log out button)", http.StatusMethodNotAllowed)
		return
	}
	if foreign(r) {
		a.cfg.AuthFails.Add(1)
		a.event(Event{Kind: "logout_foreign", Level: slog.LevelWarn, Msg: "logout from another site refused", Source: src, Detail: r.Header.Get("Origin")})
		http.Error(w, "console: logout from another site refused", http.StatusForbidden)
		return
	}
	if cookie != "" {
		k := sessionKey(sha256.Sum256([]byte(cookie)))
		now := a.cfg.Now()
		a.mu.Lock()
		if s := a.sessions[k]; s != nil {
			// The journal line names the source of the logout.
			a.endLocked(k, now, "logout", "ended by a logout from "+src)
		}
		a.mu.Unlock()
	}
	expireCookie(w, r, name)
	w.Header().Set("Cache-Control", "no-store")
	http.Redirect(w, r, "/", http.StatusSeeOther)
}

// expireCookie tells the browser to drop the session cookie.
func expireCookie(w http.ResponseWriter, r *http.Request, name string) {
	http.SetCookie(w, &http.Cookie{Name: name, Value: "", Path: "/", MaxAge: -1, HttpOnly: true, Secure: r.TLS != nil, SameSite: http.SameSiteStrictMode})
}

// foreign reports whether a POST comes from another site's page: its
// Origin names another host, or the browser says it is cross-site
// (Sec-Fetch-Site). The session cookie is SameSite=Strict too, so such a
// post carries no session.
func foreign(r *http.Request) bool {
	if o := r.Header.Get("Origin"); o != "" && !sameHost(o, r.Host) {
		return true
	}
	return r.Header.Get("Sec-Fetch-Site") == "cross-site"
}

// sessionWriter passes a response through and keeps the connection a
// handler hijacks (a WebSocket) with its session, so that the session's
// end closes it.
type sessionWriter struct {
	http.ResponseWriter
	g    *Gate
	s    *session
	conn net.Conn
}

// Unwrap returns the underlying writer (http.ResponseController).
func (w *sessionWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// Flush sends what is buffered (camera streams).
func (w *sessionWriter) Flush() { _ = http.NewResponseController(w.ResponseWriter).Flush() }

// Hijack takes the connection over, as http.Hijacker.
func (w *sessionWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	c, rw, err := http.NewResponseController(w.ResponseWriter).Hijack()
	if err != nil {
		return nil, nil, err
	}
	w.g.mu.Lock()
	defer w.g.mu.Unlock()
	if w.s.ctx.Err() != nil {
		// Ended meanwhile.
		_ = c.Close()
		return nil, nil, errors.New("console: session ended")
	}
	if w.s.conns == nil {
		w.s.conns = map[net.Conn]struct{}{}
	}
	w.s.conns[c], w.conn = struct{}{}, c
	return c, rw, nil
}

func withIdentity(ctx context.Context, id Identity) context.Context {
	return context.WithValue(ctx, ctxKey{}, id)
}

// match returns the operator whose token t is (nil: none). Every token is
// compared in constant time.
func (a *Gate) match(t string) *Operator {
	var found *Operator
	for i := range a.cfg.Operators {
		if subtle.ConstantTimeCompare([]byte(t), []byte(a.cfg.Operators[i].Token)) == 1 {
			found = &a.cfg.Operators[i]
		}
	}
	return found
}

func (a *Gate) mayTry(src string) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	b := a.fails[src]
	return b == nil || b.Has(a.cfg.Now(), LoginRate, LoginBurst)
}

func (a *Gate) failed(src string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	now := a.cfg.Now()
	if a.fails == nil {
		a.fails = map[string]*Bucket{}
	}
	if len(a.fails) > 4096 {
		// Forget sources whose bucket is full again.
		for k, b := range a.fails {
			if b.Has(now, LoginRate, LoginBurst) && b.tokens >= LoginBurst {
				delete(a.fails, k)
			}
		}
	}
	b := a.fails[src]
	if b == nil {
		b = &Bucket{}
		a.fails[src] = b
	}
	b.Allow(now, LoginRate, LoginBurst)
}

func loopbackHost(hostport string) bool {
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	}
	return loopbackName(strings.Trim(host, "[]"))
}

// IdentityOf returns who a request that passed a Gate authenticated as.
func IdentityOf(r *http.Request) (Identity, bool) {
	id, ok := r.Context().Value(ctxKey{}).(Identity)
	return id, ok
}

// loginPath takes the login form (POST, field token): the token travels
// in the body, not the URL.
const loginPath = "/login"

// logoutPath ends the request's session (POST from the console's page).
const logoutPath = "/logout"

// loginPage answers a request without a valid token: a page loaded by a
// browser gets the login form, anything else a line of text; both 401.
func loginPage(w http.ResponseWriter, r *http.Request, problem string) {
	if !strings.Contains(r.Header.Get("Accept"), "text/html") {
		msg := "console: access token required: open the URL printed by `telebridge console` (…/?token=…)"
		if problem != "" {
			msg = "console: " + problem
		}
		http.Error(w, msg, http.StatusUnauthorized)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusUnauthorized)
	p := ""
	if problem != "" {
		p = "<p><strong>" + html.EscapeString(problem) + "</strong></p>"
	}
	fmt.Fprint(w, `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>telebridge console: log in</title></head>
<body><h1>telebridge console</h1>`+p+`<form method="post" action="`+loginPath+`"><label>Access token <input name="token" type="password" autocomplete="current-password" autofocus required></label> <button>Log in</button></form>
<p>The token is the one printed by <code>telebridge console</code> or given to you with your roles.</p></body></html>`)
}

// sameHost reports whether an Origin header names host (host:port).
func sameHost(origin, host string) bool {
	u, err := url.Parse(origin)
	return err == nil && strings.EqualFold(u.Host, host)
}
