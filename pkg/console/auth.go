package console

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strings"
)

// CookieName is the cookie that carries the access token after the first
// load.
const CookieName = "telebridge_console"

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

// auth checks every request: with a token, the cookie (or, on a page load,
// ?token= which then becomes the cookie); without one (loopback), the Host
// header must name loopback so that a foreign web site cannot reach the
// console through DNS rebinding.
type auth struct {
	token string
	cnt   *Counters
}

func (a *auth) wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if a.token == "" {
			if !loopbackHost(r.Host) {
				a.cnt.AuthFails.Add(1)
				http.Error(w, "console: this console listens on loopback only; open it as http://127.0.0.1:PORT/", http.StatusForbidden)
				return
			}
			next.ServeHTTP(w, r)
			return
		}
		if q := r.URL.Query().Get("token"); q != "" && r.Method == http.MethodGet {
			if !a.ok(q) {
				a.cnt.AuthFails.Add(1)
				http.Error(w, "console: wrong access token", http.StatusUnauthorized)
				return
			}
			// The token leaves the URL (history, Referer): a cookie carries it.
			http.SetCookie(w, &http.Cookie{Name: CookieName, Value: a.token, Path: "/", HttpOnly: true, SameSite: http.SameSiteStrictMode})
			u := *r.URL
			qs := u.Query()
			qs.Del("token")
			u.RawQuery = qs.Encode()
			http.Redirect(w, r, u.RequestURI(), http.StatusSeeOther)
			return
		}
		c, err := r.Cookie(CookieName)
		if err != nil || !a.ok(c.Value) {
			a.cnt.AuthFails.Add(1)
			http.Error(w, "console: access token required: open the URL printed by `telebridge console` (…/?token=…)", http.StatusUnauthorized)
			return
		}
		next.ServeHTTP(w, r)
	})
}

func (a *auth) ok(t string) bool {
	return subtle.ConstantTimeCompare([]byte(t), []byte(a.token)) == 1
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
