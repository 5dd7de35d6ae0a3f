package console

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"fmt"
	"html"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"sync"
)

// CookiePrefix starts the name of the cookie that carries the access
// token after the first load; the console's port follows it
// ("telebridge_console_8080"), so that two consoles on one host keep
// their own cookies. Under TLS the name has the __Host- prefix too (the
// browser then keeps the cookie to this host, Secure, Path=/).
const CookiePrefix = "telebridge_console_"

// TokenEnv is the environment variable `telebridge console` reads the
// access token from when no --token is given.
const TokenEnv = "TELEBRIDGE_CONSOLE_TOKEN"

// NewToken returns a random access token (128 bits, hex).
func NewToken() (string, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("console: token: %w", err)
	}
	return hex.EncodeToString(b[:]), nil
}

// IsLoopback reports whether a listen address host:port binds loopback
// only ("127.0.0.1:8080", "[::1]:0", "localhost:8080"). An empty host
// binds every interface and is not loopback.
func IsLoopback(listen string) bool {
	host, _, err := net.SplitHostPort(listen)
	if err != nil {
		return false
	}
	if host == "localhost" {
		return true
	}
	a, err := netip.ParseAddr(host)
	return err == nil && a.IsLoopback()
}

// CookieName returns the name of the token cookie of a console on port
// (with tls, the __Host- prefixed one).
func CookieName(port int, tls bool) string {
	n := CookiePrefix + strconv.Itoa(port)
	if tls {
		n = "__Host-" + n
	}
	return n
}

// auth checks every request: with operators, the cookie (or, on a page
// load, ?token= which then becomes the cookie); without (loopback), the
// Host header must name loopback so that a foreign web site cannot reach
// the console through DNS rebinding. Wrong tokens are throttled per
// source (a token bucket: loginBurst failures, then one per 1/loginRate)
// and journaled.
type auth struct {
	ops   []Operator // empty: loopback without tokens, everyone is "local", admin
	cnt   *Counters
	j     *journal
	clock Clock
	mu    sync.Mutex
	fails map[string]*bucket // per source host
}

const (
	loginRate  = 0.2 // failed logins per second per source, after the burst
	loginBurst = 5
)

// identity is who a request comes from.
type identity struct {
	operator string
	roles    Role
	source   string // remote address host
}

// localOperator is the operator of a loopback console without tokens.
const localOperator = "local"

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

func (a *auth) event(e event) { a.j.record(a.clock.Now(), e) }

func (a *auth) wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		src := sourceOf(r)
		if len(a.ops) == 0 {
			if !loopbackHost(r.Host) {
				a.cnt.AuthFails.Add(1)
				a.event(event{Kind: "foreign_host", Level: slog.LevelWarn, Msg: "request for a foreign Host refused", Source: src, Detail: r.Host})
				http.Error(w, "console: this console listens on loopback only; open it as http://127.0.0.1:PORT/", http.StatusForbidden)
				return
			}
			next.ServeHTTP(w, r.WithContext(withIdentity(r, identity{localOperator, RoleAdmin, src})))
			return
		}
		name := CookieName(portOf(r), r.TLS != nil)
		q := r.URL.Query().Get("token")
		var presented string
		form := r.Method == http.MethodPost && r.URL.Path == loginPath
		switch {
		case form:
			if o := r.Header.Get("Origin"); o != "" && !sameHost(o, r.Host) {
				a.cnt.AuthFails.Add(1)
				http.Error(w, "console: login from another site refused", http.StatusForbidden)
				return
			}
			r.Body = http.MaxBytesReader(w, r.Body, 4096)
			presented, q = r.PostFormValue("token"), "form"
		case q != "" && r.Method == http.MethodGet:
			presented = q
		default:
			if c, err := r.Cookie(name); err == nil {
				presented = c.Value
			}
		}
		if presented == "" {
			a.cnt.AuthFails.Add(1)
			a.event(event{Kind: "no_token", Level: slog.LevelInfo, Msg: "request without a token refused", Source: src, Detail: r.URL.Path})
			loginPage(w, r, "")
			return
		}
		if !a.mayTry(src) {
			a.cnt.Throttled.Add(1)
			a.event(event{Kind: "login_throttled", Level: slog.LevelWarn, Msg: "login refused: too many wrong tokens from this source", Source: src, Audit: true})
			w.Header().Set("Retry-After", strconv.Itoa(int(1/loginRate)))
			http.Error(w, "console: too many wrong tokens: wait and try again", http.StatusTooManyRequests)
			return
		}
		op := a.match(presented)
		if op == nil {
			a.failed(src)
			a.cnt.AuthFails.Add(1)
			a.event(event{Kind: "login_failed", Level: slog.LevelWarn, Msg: "wrong access token", Source: src, Detail: r.URL.Path, Audit: true})
			loginPage(w, r, "wrong access token")
			return
		}
		if q != "" {
			a.event(event{Kind: "login", Level: slog.LevelInfo, Msg: "login", Source: src, Operator: op.Name, Roles: op.Roles, Audit: true})
			// The token leaves the URL (history, Referer): a cookie carries it.
			http.SetCookie(w, &http.Cookie{Name: name, Value: op.Token, Path: "/", HttpOnly: true, Secure: r.TLS != nil, SameSite: http.SameSiteStrictMode})
			to := "/"
			if !form {
				u := *r.URL
				qs := u.Query()
				qs.Del("token")
				u.RawQuery = qs.Encode()
				to = u.RequestURI()
			}
			http.Redirect(w, r, to, http.StatusSeeOther)
			return
		}
		next.ServeHTTP(w, r.WithContext(withIdentity(r, identity{op.Name, op.Roles, src})))
	})
}

func withIdentity(r *http.Request, id identity) context.Context {
	return context.WithValue(r.Context(), ctxKey{}, id)
}

// match returns the operator whose token t is (nil: none). Every token is
// compared in constant time.
func (a *auth) match(t string) *Operator {
	var found *Operator
	for i := range a.ops {
		if subtle.ConstantTimeCompare([]byte(t), []byte(a.ops[i].Token)) == 1 {
			found = &a.ops[i]
		}
	}
	return found
}

func (a *auth) mayTry(src string) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	b := a.fails[src]
	return b == nil || b.has(a.clock.Now(), loginRate, loginBurst)
}

func (a *auth) failed(src string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	now := a.clock.Now()
	if a.fails == nil {
		a.fails = map[string]*bucket{}
	}
	if len(a.fails) > 4096 {
		// Forget sources whose bucket is full again.
		for k, b := range a.fails {
			if b.has(now, loginRate, loginBurst) && b.tokens >= loginBurst {
				delete(a.fails, k)
			}
		}
	}
	b := a.fails[src]
	if b == nil {
		b = &bucket{}
		a.fails[src] = b
	}
	b.allow(now, loginRate, loginBurst)
}

func loopbackHost(hostport string) bool {
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	}
	host = strings.Trim(host, "[]")
	if host == "localhost" {
		return true
	}
	a, err := netip.ParseAddr(host)
	return err == nil && a.IsLoopback()
}

// identityOf returns who a request authenticated as.
func identityOf(r *http.Request) (identity, bool) {
	id, ok := r.Context().Value(ctxKey{}).(identity)
	return id, ok
}

// loginPath takes the login form (POST, field token): the token travels
// in the body, not the URL.
const loginPath = "/login"

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
