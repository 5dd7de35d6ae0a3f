package direct_test

import (
	"context"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"github.com/telebridge/telebridge/internal/testkit/browsertest"
	"github.com/telebridge/telebridge/internal/testkit/consoletest"
	"github.com/telebridge/telebridge/pkg/console"
	"github.com/telebridge/telebridge/pkg/console/access"
	"github.com/telebridge/telebridge/pkg/console/direct"
)

// The tests of this file are the probes of the console's transport
// and access rules, in Debian's chromium: TLS with the self-signed
// certificate, the cookie per port, the roles, the take-over and e-stop
// rules (security_roles_browser_test.go), and the log bound
// (security_log_browser_test.go). Motion is judged by the simulated
// Servosila's truth.

// lean is a backend with the simulated Servosila only (no Furbot, no jog
// arm, no cameras): what these tests drive.
var lean = direct.Config{Furbot: "off", NoJog: true, Cameras: []string{"off"}}

// newToken returns a fresh access token (access.NewToken: the only kind
// the console accepts).
func newToken(t *testing.T) string {
	t.Helper()
	tok, err := access.NewToken()
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

// base returns the console's address without the token: what an
// operator types before logging in with the form.
func base(url string) string { u, _, _ := strings.Cut(url, "?"); return u }

// spkiHash is what Chromium's --ignore-certificate-errors-spki-list takes:
// the base64 SHA-256 of the certificate's SubjectPublicKeyInfo.
func spkiHash(t *testing.T, der []byte) string {
	t.Helper()
	c, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(c.RawSubjectPublicKeyInfo)
	return base64.StdEncoding.EncodeToString(sum[:])
}

// TestBrowserTLS: a console started as `telebridge console --tls` does
// (console.Options.Apply: a self-signed certificate made on first start,
// its key file 0600, its fingerprint among the lines printed); Chromium
// trusts exactly that certificate (by its SPKI hash, not by ignoring
// certificate errors), logs in with the form, runs the page over https and
// wss, and a held key drives the simulated robot; plain http to the TLS
// port gets no console, and a console with another certificate is not
// trusted.
func TestBrowserTLS(t *testing.T) {
	browsertest.Chromium(t) // skip before making anything
	dir := filepath.Join(t.TempDir(), "state")
	tok := newToken(t)
	ccfg := console.Config{Listen: "127.0.0.1:0"}
	setup, err := console.Options{TLS: true, Token: tok, StateDir: dir, AuditFile: "off"}.Apply(&ccfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := setup.Close(); err != nil {
			t.Error(err)
		}
	})
	// Made on first start: a key file for the owner only, the fingerprint
	// printed for the operator to compare.
	keys, _ := filepath.Glob(filepath.Join(dir, "*key*"))
	if len(keys) != 1 {
		t.Fatalf("key files in the state directory: %q", keys)
	}
	if st, err := os.Stat(keys[0]); err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("key file %s: mode %v, %v", keys[0], st.Mode().Perm(), err)
	}
	der := ccfg.TLS.Certificates[0].Certificate[0]
	fp := access.Fingerprint(der)
	if setup.Fingerprint != fp || !slices.ContainsFunc(setup.Notes, func(n string) bool {
		return strings.Contains(n, "new self-signed certificate") && strings.Contains(n, fp)
	}) {
		t.Fatalf("printed %q, want the new certificate's fingerprint %s", setup.Notes, fp)
	}
	r := newRigWith(t, lean, ccfg, chromedp.Flag("ignore-certificate-errors-spki-list", spkiHash(t, der)))
	if !strings.HasPrefix(r.url, "https://127.0.0.1:") {
		t.Fatalf("console URL %q", r.url)
	}
	p, closeP := browsertest.Login(t, r.browser, base(r.url), tok, browsertest.Desktop)
	defer closeP()
	waitFor(t, 10*time.Second, "the page in control", func() bool { return browsertest.Role(t, p) == "IN CONTROL" })
	// The page is https and a secure context; its WebSocket (the role
	// above came over it) is wss, the only scheme this port speaks.
	if got := eval[string](r, p, `location.protocol + ' ' + window.isSecureContext`); got != "https: true" {
		t.Fatalf("page: %s", got)
	}
	// The certificate Chromium was served is the one whose fingerprint
	// was printed.
	cert, err := chromedp.Call(p, network.GetCertificate, network.GetCertificateParams{Origin: strings.TrimSuffix(base(r.url), "/")})
	if err != nil || len(cert.TableNames) == 0 {
		t.Fatalf("the page's certificate: %v %v", cert, err)
	}
	served, err := base64.StdEncoding.DecodeString(cert.TableNames[0])
	if err != nil || access.Fingerprint(served) != fp {
		t.Fatalf("Chromium was served a certificate with fingerprint %s, the console printed %s (%v)", access.Fingerprint(served), fp, err)
	}
	a := r.truth()
	r.do(p, key("w", true))
	r.drives("the robot driving on W over TLS")
	r.do(p, key("w", false))
	r.stoppedAt(5 * time.Second)
	t.Logf("drove %.3f m over https/wss", r.truth().Distance-a.Distance)

	// Plain http to the TLS port: no console page (Go's TLS server answers
	// 400, which Chromium reports as a failed load).
	var le *chromedp.LoadError
	plain, closePlain := chromedp.NewContext(r.browser)
	defer closePlain()
	resp, err := chromedp.Run(plain, chromedp.NavigateResponse(strings.Replace(base(r.url), "https://", "http://", 1)))
	if err == nil {
		body := eval[string](r, plain, `document.body ? document.body.innerText.slice(0, 200) : ''`)
		if resp.Status < 400 || eval[bool](r, plain, `!!document.getElementById('role')`) {
			t.Fatalf("plain http to the TLS port: %d %s, %q", resp.Status, resp.URL, body)
		}
		t.Logf("plain http to the TLS port: %d %q", resp.Status, body)
	} else if !errors.As(err, &le) {
		t.Fatalf("plain http to the TLS port: %v, want a failed load", err)
	} else {
		t.Logf("plain http to the TLS port: %v", err)
	}

	// Only that certificate is trusted: a console with another
	// self-signed certificate fails in the same browser.
	other, _, _, err := access.LoadTLS(access.TLSOptions{SelfSigned: true, StateDir: filepath.Join(t.TempDir(), "other")}, "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	osrv, oaddr := consoletest.Serve(t, context.Background(), console.Config{Backend: r.be, Token: tok, TLS: other})
	foreign, closeForeign := chromedp.NewContext(r.browser)
	defer closeForeign()
	_, err = chromedp.Run(foreign, chromedp.NavigateResponse(base(osrv.URL(oaddr))))
	if !errors.As(err, &le) || !strings.Contains(le.ErrorText, "CERT") {
		t.Fatalf("a console with another certificate: %v, want a certificate error", err)
	}
	t.Logf("a console with another certificate: %v", err)
}

// spy is a plain HTTP server on another port of 127.0.0.1, as any
// program of the host may run: it keeps the Cookie header, the URL and
// the Referer of every request it gets.
type spy struct {
	mu   sync.Mutex
	seen []string
	url  string
}

func newSpy(t *testing.T) *spy {
	sp := &spy{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sp.mu.Lock()
		sp.seen = append(sp.seen, "cookie: "+r.Header.Get("Cookie")+"\nurl: "+r.URL.String()+"\nreferer: "+r.Referer())
		sp.mu.Unlock()
		fmt.Fprint(w, "<!doctype html><title>spy</title><p>another program on this host</p>")
	}))
	t.Cleanup(srv.Close)
	sp.url = srv.URL + "/"
	return sp
}

func (sp *spy) requests() []string {
	sp.mu.Lock()
	defer sp.mu.Unlock()
	return slices.Clone(sp.seen)
}

// TestBrowserCookiePerPort is the probe: two consoles on two
// ports of 127.0.0.1 with different tokens, one Chromium logged in to
// both (A with the printed ?token= URL, B with the form), and a plain
// HTTP server on a third port of the host. Each console's cookie is named
// with its port and carries a session identifier, never the token (the
// address bar keeps no token either); both pages stay authorised through
// a reload. Chromium sends a host's cookies to every port (cookies are
// not port-bound by default): the other server gets both session
// identifiers, and neither token, ever. The page's Log out button ends
// A's session: the identifier the other server saw then opens nothing,
// and B's session goes on. With Chromium's port-bound cookies
// (EnablePortBoundCookies) the other server gets no console cookie at
// all. A console's token does not open the other.
func TestBrowserCookiePerPort(t *testing.T) {
	tokA, tokB := newToken(t), newToken(t)
	r := newRigWith(t, lean, console.Config{Token: tokA})
	srvB, addrB := consoletest.Serve(t, context.Background(), console.Config{Backend: r.be, Token: tokB})
	urlA, urlB := base(r.url), base(srvB.URL(addrB))
	portOf := func(u string) int {
		_, p, _ := strings.Cut(strings.TrimPrefix(strings.TrimSuffix(u, "/"), "http://"), ":")
		n, err := strconv.Atoi(p)
		if err != nil {
			t.Fatalf("port of %q: %v", u, err)
		}
		return n
	}
	nameA, nameB := access.CookieName(portOf(urlA), false), access.CookieName(portOf(urlB), false)
	if nameA == nameB {
		t.Fatalf("both consoles name their cookie %q", nameA)
	}
	for _, c := range []struct {
		name      string
		portBound bool
	}{{"Chromium's default cookies", false}, {"port-bound cookies", true}} {
		t.Run(c.name, func(t *testing.T) {
			r.t = t
			browser := r.browser
			if c.portBound {
				browser = browsertest.Start(t, context.Background(), chromedp.Flag("enable-features", "EnablePortBoundCookies"))
			}
			profile := browsertest.Profile(t, browser)
			sp := newSpy(t)
			// A: the URL `telebridge console` prints; the token leaves the
			// address bar at once.
			pA, closeA := browsertest.OpenOn(t, profile, r.url, browsertest.Desktop, "")
			defer closeA()
			r.do(pA, chromedp.WaitReady(chromedp.CSS(`#role`)))
			if href := eval[string](r, pA, `location.href`); strings.Contains(href, "token") || strings.Contains(href, tokA) {
				t.Fatalf("the address bar after the login: %s", href)
			}
			pB, closeB := browsertest.Login(t, profile, urlB, tokB, browsertest.Desktop)
			defer closeB()
			// The cookie jar, through CDP: what goes to each console.
			sent := func(url string) map[string]*network.Cookie {
				t.Helper()
				res, err := chromedp.Call(pA, network.GetCookies, network.GetCookiesParams{URLs: []string{url}})
				if err != nil {
					t.Fatal(err)
				}
				m := map[string]*network.Cookie{}
				for _, k := range res.Cookies {
					m[k.Name] = k
				}
				return m
			}
			toA, toB := sent(urlA), sent(urlB)
			for _, w := range []struct {
				to          map[string]*network.Cookie
				name, token string
			}{{toA, nameA, tokA}, {toB, nameB, tokB}} {
				k := w.to[w.name]
				if k == nil || len(k.Value) < 43 || strings.Contains(k.Value, w.token) || !k.HTTPOnly || k.SameSite != network.CookieSameSiteStrict || k.Path != "/" {
					t.Fatalf("cookie %s: %+v, want a session identifier (not the token), HttpOnly, SameSite=Strict, Path=/", w.name, k)
				}
			}
			sessA := toA[nameA].Value
			// Both pages stay authorised: a reload loads the page again
			// and its socket connects (both need the console's cookie).
			for _, p := range []context.Context{pA, pB} {
				r.do(p, chromedp.Reload())
				waitFor(t, 10*time.Second, "the reloaded page connected", func() bool {
					role := browsertest.Role(t, p)
					return role == "IN CONTROL" || strings.HasPrefix(role, "VIEW ONLY")
				})
			}
			// Another program on the host: a tab of this profile opens it.
			pS, closeS := browsertest.OpenOn(t, profile, sp.url, browsertest.Desktop, "")
			defer closeS()
			r.do(pS, chromedp.WaitReady(chromedp.CSS(`p`)))
			got := sp.requests()
			if len(got) == 0 {
				t.Fatal("the other server got no request")
			}
			all := strings.Join(got, "\n")
			for _, tok := range []string{tokA, tokB} {
				if strings.Contains(all, tok) {
					t.Fatalf("the other server received a console's token:\n%s", all)
				}
			}
			if c.portBound {
				if strings.Contains(all, access.CookiePrefix) {
					t.Fatalf("with port-bound cookies the other server got a console's cookie:\n%s", all)
				}
			} else if !strings.Contains(all, nameA+"="+sessA) {
				t.Fatalf("the other server did not get A's session cookie (Chromium no longer sends a host's cookies to its other ports?):\n%s", all)
			}
			t.Logf("the other server received:\n%s", all)

			// The page's Log out button ends A's session: the login form
			// comes back, and what the other server saw opens nothing.
			r.do(pA, chromedp.Click(chromedp.CSS(`#logout button`)))
			waitFor(t, 10*time.Second, "the login form after Log out", func() bool {
				n, err := browsertest.TryEval[int](pA, `document.querySelectorAll('form input[name=token]').length`)
				return err == nil && n == 1
			})
			req, _ := http.NewRequest("GET", urlA, nil)
			req.AddCookie(&http.Cookie{Name: nameA, Value: sessA})
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusUnauthorized {
				t.Fatalf("A's session identifier after Log out: %d", resp.StatusCode)
			}
			if _, ok := sent(urlA)[nameA]; ok {
				t.Fatalf("the browser keeps A's cookie after Log out")
			}
			r.do(pB, chromedp.Reload())
			waitFor(t, 10*time.Second, "B still logged in after A's logout", func() bool {
				role := browsertest.Role(t, pB)
				return role == "IN CONTROL" || strings.HasPrefix(role, "VIEW ONLY")
			})
		})
	}
	t.Run("a console's token does not open the other", func(t *testing.T) {
		r.t = t
		p, closeP := browsertest.OpenOn(t, browsertest.Profile(t, r.browser), urlB, browsertest.Desktop, "")
		defer closeP()
		r.do(p, chromedp.SetValue(chromedp.CSS(`form input[name=token]`), tokA), chromedp.Click(chromedp.CSS(`form button`)))
		// The form's answer is a new document: an evaluation while it
		// replaces the old one fails, and is tried again.
		for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
			text, err := browsertest.TryEval[string](p, `document.body ? document.body.innerText : ''`)
			if err == nil && strings.Contains(text, "wrong access token") {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("no login form saying the token is wrong within 10 s: the page says %q (evaluation error: %v)", text, err)
			}
		}
		if eval[bool](r, p, `!!document.getElementById('role')`) {
			t.Fatal("console B opened with A's token")
		}
	})
}
