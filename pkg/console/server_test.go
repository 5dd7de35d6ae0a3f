package console

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/telebridge/telebridge/pkg/console/access"
)

func newTestServer(t *testing.T, token string) (*Server, *fakeBackend, *httptest.Server) {
	t.Helper()
	be := &fakeBackend{}
	listen := "127.0.0.1:0"
	if token != "" {
		listen = "0.0.0.0:0"
	}
	s, err := New(Config{Backend: be, Listen: listen, Token: token, Logger: quiet, Insecure: true})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s.Handler())
	t.Cleanup(ts.Close)
	return s, be, ts
}

// sesame is a test token (access.NewToken).
var sesame = func() string {
	t, err := access.NewToken()
	if err != nil {
		panic(err)
	}
	return t
}()

func noRedirect(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }

// TestTokenRequiredOffLoopback: off loopback New makes a token; without
// it nothing is served; ?token= sets an HttpOnly SameSite=Strict cookie
// and redirects to the URL without the token; the cookie then works for
// pages, assets, cameras and the WebSocket.
func TestTokenRequiredOffLoopback(t *testing.T) {
	s, err := New(Config{Backend: &fakeBackend{}, Listen: "0.0.0.0:8080", Logger: quiet, Insecure: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := access.CheckToken(s.Token()); err != nil {
		t.Fatalf("generated token %q: %v", s.Token(), err)
	}
	s, be, ts := newTestServer(t, sesame)
	c := &http.Client{CheckRedirect: noRedirect}
	for _, path := range []string{"/", "/app.js", "/camera/front", "/ws"} {
		resp, err := c.Get(ts.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusUnauthorized {
			t.Fatalf("%s without token: %d", path, resp.StatusCode)
		}
	}
	resp, err := c.Get(ts.URL + "/?token=wrong")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("wrong token: %d", resp.StatusCode)
	}
	resp, err = c.Get(ts.URL + "/?token=" + sesame + "&x=1")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/?x=1" {
		t.Fatalf("first load: %d to %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	ck := resp.Cookies()
	if len(ck) != 1 || ck[0].Name != access.CookieName(ts.Listener.Addr().(*net.TCPAddr).Port, false) || !ck[0].HttpOnly || ck[0].SameSite != http.SameSiteStrictMode {
		t.Fatalf("cookie %+v", ck)
	}
	if strings.Contains(ck[0].Value, sesame) || strings.Contains(sesame, ck[0].Value) {
		t.Fatalf("the cookie carries the token: %q", ck[0].Value)
	}
	for _, path := range []string{"/", "/app.js", "/camera/front"} {
		req, _ := http.NewRequest("GET", ts.URL+path, nil)
		req.AddCookie(ck[0])
		resp, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK || len(b) == 0 {
			t.Fatalf("%s with cookie: %d", path, resp.StatusCode)
		}
	}
	check(t, be, "camera front")
	h := http.Header{}
	h.Set("Cookie", ck[0].String())
	h.Set("Origin", ts.URL)
	ws, _, err := websocket.Dial(context.Background(), "ws"+strings.TrimPrefix(ts.URL, "http")+"/ws", &websocket.DialOptions{HTTPHeader: h})
	if err != nil {
		t.Fatalf("websocket with cookie: %v", err)
	}
	ws.CloseNow()
	if s.Counters().AuthFails.Load() != 5 {
		t.Fatalf("auth failures %d, want 5", s.Counters().AuthFails.Load())
	}
}

// TestLoopbackHost: without a token the console answers only requests
// that name a loopback host (no DNS rebinding from a web site).
func TestLoopbackHost(t *testing.T) {
	_, _, ts := newTestServer(t, "")
	for host, want := range map[string]int{"127.0.0.1:8080": 200, "localhost:8080": 200, "[::1]:8080": 200, "evil.example:8080": 403, "10.0.0.1": 403} {
		req, _ := http.NewRequest("GET", ts.URL+"/", nil)
		req.Host = host
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != want {
			t.Errorf("Host %s: %d, want %d", host, resp.StatusCode, want)
		}
	}
	for l, want := range map[string]bool{"127.0.0.1:8080": true, "localhost:1": true, "[::1]:0": true, ":8080": false, "0.0.0.0:80": false, "192.168.1.2:80": false, "bad": false} {
		if access.IsLoopback(l) != want {
			t.Errorf("IsLoopback(%q) = %v", l, !want)
		}
	}
}

// TestOriginChecked: a WebSocket from another site's page is refused.
func TestOriginChecked(t *testing.T) {
	s, _, ts := newTestServer(t, "")
	h := http.Header{}
	h.Set("Origin", "http://evil.example")
	_, resp, err := websocket.Dial(context.Background(), "ws"+strings.TrimPrefix(ts.URL, "http")+"/ws", &websocket.DialOptions{HTTPHeader: h})
	if err == nil {
		t.Fatal("foreign origin accepted")
	}
	if resp == nil || resp.StatusCode != http.StatusForbidden {
		t.Fatalf("response %v", resp)
	}
	if s.Counters().AuthFails.Load() != 1 {
		t.Fatalf("auth failures %d", s.Counters().AuthFails.Load())
	}
}

func readType(t *testing.T, ws *websocket.Conn, typ string) map[string]any {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for {
		_, b, err := ws.Read(ctx)
		if err != nil {
			t.Fatalf("waiting for %s: %v", typ, err)
		}
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		if m["type"] == typ {
			return m
		}
	}
}

// TestWebSocketSession: hello, a command, a refusal, and the stop when the
// socket closes, over a real WebSocket.
func TestWebSocketSession(t *testing.T) {
	be := &fakeBackend{}
	s, err := New(Config{Backend: be, Listen: "127.0.0.1:0", Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	ts := httptest.NewUnstartedServer(nil)
	ln := ts.Listener
	done := make(chan error, 1)
	go func() { done <- s.Serve(ctx, ln) }()
	url := "ws://" + ln.Addr().String() + "/ws"
	ws, _, err := websocket.Dial(ctx, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	hello := readType(t, ws, "hello")
	if hello["page"].(float64) != 1 || hello["timeout_ms"].(float64) != 300 {
		t.Fatalf("hello %v", hello)
	}
	if err := ws.Write(ctx, websocket.MessageText, []byte(`{"type":"servosila_drive","linear":0.3,"angular":0}`)); err != nil {
		t.Fatal(err)
	}
	if err := ws.Write(ctx, websocket.MessageText, []byte(`{"type":"servosila_drive","linear":NaN}`)); err != nil {
		t.Fatal(err)
	}
	e := readType(t, ws, "error")
	if !strings.Contains(e["error"].(string), "bad message") {
		t.Fatalf("error %v", e)
	}
	st := readType(t, ws, "state")
	if st["holder"].(float64) != 1 {
		t.Fatalf("state %v", st)
	}
	ws.Close(websocket.StatusNormalClosure, "")
	deadline := time.Now().Add(10 * time.Second)
	stopped := func() bool {
		be.mu.Lock()
		defer be.mu.Unlock()
		return slices.Contains(be.calls, "drive 0 0")
	}
	for !stopped() {
		if time.Now().After(deadline) {
			t.Fatalf("no stop after the socket closed: %q", be.take())
		}
		time.Sleep(time.Millisecond)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

// TestURL: the printed URL opens on this machine: a listener on every
// interface is given as 127.0.0.1; the token rides along.
func TestURL(t *testing.T) {
	s, _, _ := newTestServer(t, sesame)
	for _, c := range []struct {
		addr net.Addr
		want string
	}{
		{&net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 8080}, "http://127.0.0.1:8080/?token=" + sesame},
		{&net.TCPAddr{IP: net.IPv4zero, Port: 8080}, "http://127.0.0.1:8080/?token=" + sesame},
		{&net.TCPAddr{IP: net.IPv6unspecified, Port: 44619}, "http://127.0.0.1:44619/?token=" + sesame},
		{&net.TCPAddr{IP: net.ParseIP("192.168.7.2"), Port: 80}, "http://192.168.7.2:80/?token=" + sesame},
		{&net.TCPAddr{IP: net.IPv6loopback, Port: 8080}, "http://[::1]:8080/?token=" + sesame},
	} {
		if got := s.URL(c.addr); got != c.want {
			t.Errorf("URL(%v) = %q, want %q", c.addr, got, c.want)
		}
	}
}
