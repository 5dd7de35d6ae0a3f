package access

import (
	"context"
	"crypto/subtle"
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

// Gate checks every request: with operators, the cookie (or, on a page
// load, ?token= which then becomes the cookie); without (loopback), the
// Host header must name loopback so that a foreign web site cannot reach
// the console through DNS rebinding. Wrong tokens are throttled per
// source (a token bucket: LoginBurst failures, then one per 1/LoginRate
// seconds) and journaled. Create it with NewGate; safe for concurrent
// use.
type Gate struct {
	cfg   GateConfig
	mu    sync.Mutex
	fails map[string]*Bucket // per source host
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
// passed, with their Identity in the context (IdentityOf).
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
			next.ServeHTTP(w, r.WithContext(withIdentity(r, Identity{LocalOperator, RoleAdmin, src})))
			return
		}
		name := CookieName(portOf(r), r.TLS != nil)
		q := r.URL.Query().Get("token")
		var presented string
		form := r.Method == http.MethodPost && r.URL.Path == loginPath
		switch {
		case form:
			if o := r.Header.Get("Origin"); o != "" && !sameHost(o, r.Host) {
				a.cfg.AuthFails.Add(1)
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
			a.cfg.AuthFails.Add(1)
			a.event(Event{Kind: "no_token", Level: slog.LevelInfo, Msg: "request without a token refused", Source: src, Detail: r.URL.Path})
			loginPage(w, r, "")
			return
		}
		if !a.mayTry(src) {
			a.cfg.Throttled.Add(1)
			a.event(Event{Kind: "login_throttled", Level: slog.LevelWarn, Msg: "login refused: too many wrong tokens from this source", Source: src, Audit: true})
			w.Header().Set("Retry-After", strconv.Itoa(int(1/LoginRate)))
			http.Error(w, "console: too many wrong tokens: wait and try again", http.StatusTooManyRequests)
			return
		}
		op := a.match(presented)
		if op == nil {
			a.failed(src)
			a.cfg.AuthFails.Add(1)
			a.event(Event{Kind: "login_failed", Level: slog.LevelWarn, Msg: "wrong access token", Source: src, Detail: r.URL.Path, Audit: true})
			loginPage(w, r, "wrong access token")
			return
		}
		if q != "" {
			a.event(Event{Kind: "login", Level: slog.LevelInfo, Msg: "login", Source: src, Operator: op.Name, Roles: op.Roles, Audit: true})
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
		next.ServeHTTP(w, r.WithContext(withIdentity(r, Identity{op.Name, op.Roles, src})))
	})
}

func withIdentity(r *http.Request, id Identity) context.Context {
	return context.WithValue(r.Context(), ctxKey{}, id)
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
