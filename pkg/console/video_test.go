package console

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/coder/websocket"

	"github.com/telebridge/telebridge/pkg/video"
	"github.com/telebridge/telebridge/pkg/video/peer"
)

// videoBackend is fakeBackend with cameras as H.264 Sources that never
// deliver a picture (signalling only).
type videoBackend struct {
	fakeBackend
	off string
}

func (v *videoBackend) OpenVideo(name string, _ peer.Caps) (video.Source, error) {
	if name != "front" && name != "rear" {
		return nil, fmt.Errorf("no camera %q", name)
	}
	return silentSource{}, nil
}

func (v *videoBackend) VideoUnavailable() string { return v.off }

type silentSource struct{}

func (silentSource) Subscribe(int) (video.Viewer, error) {
	return &silentViewer{ch: make(chan video.AccessUnit)}, nil
}

type silentViewer struct{ ch chan video.AccessUnit }

func (v *silentViewer) AccessUnits() <-chan video.AccessUnit { return v.ch }
func (v *silentViewer) WantBitrate(int)                      {}
func (v *silentViewer) RequestKeyFrame()                     {}
func (v *silentViewer) Close()                               {}

// serveTest serves cfg on loopback and returns the WebSocket URL.
func serveTest(t *testing.T, cfg Config) (*Server, string) {
	t.Helper()
	cfg.Listen, cfg.Logger = "127.0.0.1:0", quiet
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	ln := httptest.NewUnstartedServer(nil).Listener
	done := make(chan error, 1)
	go func() { done <- s.Serve(ctx, ln) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("serve: %v", err)
		}
	})
	return s, "ws://" + ln.Addr().String() + "/ws"
}

func dial(t *testing.T, url string) *websocket.Conn {
	t.Helper()
	ws, _, err := websocket.Dial(context.Background(), url, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.CloseNow() })
	return ws
}

func write(t *testing.T, ws *websocket.Conn, s string) {
	t.Helper()
	if err := ws.Write(context.Background(), websocket.MessageText, []byte(s)); err != nil {
		t.Fatal(err)
	}
}

// signal waits for the next webrtc message and returns its signal.
func signal(t *testing.T, ws *websocket.Conn) map[string]any {
	t.Helper()
	return readType(t, ws, MsgWebRTC)["signal"].(map[string]any)
}

func errCode(t *testing.T, s map[string]any) string {
	t.Helper()
	if s["type"] != peer.TypeError {
		t.Fatalf("signal %v, want an error", s)
	}
	return s["error"].(map[string]any)["code"].(string)
}

var loopbackOnly = peer.Config{Loopback: true, IPFilter: func(ip net.IP) bool { return ip.IsLoopback() }}

// TestWebRTCUnavailable: a backend without video, one that says it has
// no H.264, and a console with WebRTC off: hello says why, and a page's
// signalling gets an "unavailable" error with the reason (the page then
// shows MJPEG); the socket goes on.
func TestWebRTCUnavailable(t *testing.T) {
	for _, c := range []struct {
		name string
		cfg  Config
		why  string
	}{
		{"no-video", Config{Backend: &fakeBackend{}}, "sends no H.264"},
		{"no-h264", Config{Backend: &videoBackend{off: video.ErrNoH264.Error()}}, "libx264-164"},
		{"turned-off", Config{Backend: &videoBackend{}, NoWebRTC: "turned off (--no-webrtc)"}, "--no-webrtc"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, url := serveTest(t, c.cfg)
			ws := dial(t, url)
			hello := readType(t, ws, "hello")
			w := hello["webrtc"].(map[string]any)
			if w["available"] != false || !strings.Contains(w["reason"].(string), c.why) {
				t.Fatalf("hello webrtc %v, want unavailable with %q", w, c.why)
			}
			write(t, ws, `{"type":"webrtc","signal":{"type":"want","cameras":["front"]}}`)
			s := signal(t, ws)
			if errCode(t, s) != CodeUnavailable || !strings.Contains(s["error"].(map[string]any)["message"].(string), c.why) {
				t.Fatalf("signal %v", s)
			}
			write(t, ws, `{"type":"take_control"}`) // the socket goes on
			readType(t, ws, "state")
		})
	}
}

// TestWebRTCSignalling: a page's want gets an offer with its camera's
// track and the command channel; refusals (unknown camera, malformed
// signals, an answer without an offer) get their codes and the session
// goes on; a page beyond MaxPeers is refused with too-many-peers while
// the first keeps its session; signalling counts against the page's rate
// limit.
func TestWebRTCSignalling(t *testing.T) {
	pc := loopbackOnly
	pc.MaxPeers = 1
	pc.ICEServers = []peer.ICEServer{{URL: "stun:127.0.0.1:3478"}}
	s, url := serveTest(t, Config{Backend: &videoBackend{}, WebRTC: pc, RateLimit: 1, Burst: 12})
	ws := dial(t, url)
	if w := readType(t, ws, "hello")["webrtc"].(map[string]any); w["available"] != true || fmt.Sprint(w["ice_servers"]) != "[map[urls:[stun:127.0.0.1:3478]]]" {
		t.Fatalf("hello webrtc %v, want available with the STUN server", w)
	}
	// Before any want: no session is made for other signals.
	write(t, ws, `{"type":"webrtc","signal":{"type":"candidate","candidate":{"candidate":""}}}`)
	if c := errCode(t, signal(t, ws)); c != peer.CodeClosed || len(s.WebRTCStats()) != 0 {
		t.Fatalf("a candidate before want: %q, %d sessions; want %q and none", c, len(s.WebRTCStats()), peer.CodeClosed)
	}
	write(t, ws, `{"type":"webrtc","signal":{"type":"want","cameras":["front","nowhere"],"chosen":"front"}}`)
	var offer string
	for offer == "" {
		m := signal(t, ws)
		switch m["type"] {
		case peer.TypeOffer:
			offer = m["sdp"].(string)
		case peer.TypeError:
			if c := errCode(t, m); c != peer.CodeUnknownCamera {
				t.Fatalf("error %v", m)
			}
		}
	}
	if !strings.Contains(offer, "m=video") || !strings.Contains(offer, "a=msid:front ") || !strings.Contains(offer, "webrtc-datachannel") || strings.Contains(offer, "nowhere") {
		t.Fatalf("offer without front's track and the command channel:\n%s", offer)
	}
	for _, bad := range []struct{ msg, code string }{
		{`{"type":"webrtc","signal":{"type":"want","cameras":["front"],"Chosen":"front"}}`, peer.CodeBadMessage},
		{`{"type":"webrtc","signal":{"type":"answer","sdp":"v=0 nonsense"}}`, peer.CodeBadSDP},
		{`{"type":"webrtc","signal":{"type":"caps","camera":"front","caps":{"frameRate":0}}}`, peer.CodeBadCaps},
		{`{"type":"webrtc","signal":{"type":"offer","sdp":` + quote(offer) + `}}`, peer.CodeNegotiation},
		{`{"type":"webrtc","signal":"nonsense"}`, peer.CodeBadMessage},
	} {
		write(t, ws, bad.msg)
		var m map[string]any
		for m == nil || m["type"] == peer.TypeCandidate {
			m = signal(t, ws)
		}
		if c := errCode(t, m); c != bad.code {
			t.Errorf("%s: code %q, want %q (%v)", bad.msg, c, bad.code, m)
		}
	}
	// A second page: over MaxPeers.
	ws2 := dial(t, url)
	readType(t, ws2, "hello")
	write(t, ws2, `{"type":"webrtc","signal":{"type":"want","cameras":["front"]}}`)
	if c := errCode(t, signal(t, ws2)); c != CodeTooManyPeers {
		t.Fatalf("second page: %q, want %q", c, CodeTooManyPeers)
	}
	if st := s.WebRTCStats(); len(st) != 1 || len(st[0].Cameras) != 1 || st[0].Cameras[0].Camera != "front" {
		t.Fatalf("sessions %+v, want the first page's with front", st)
	}
	// The rate limit: the burst is spent, further signals are refused.
	refused := false
	for range 20 {
		write(t, ws, `{"type":"webrtc","signal":{"type":"candidate","candidate":{"candidate":""}}}`)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5e9)
	defer cancel()
	for !refused {
		_, b, err := ws.Read(ctx)
		if err != nil {
			t.Fatalf("no rate-limit refusal: %v", errors.Unwrap(err))
		}
		refused = strings.Contains(string(b), errRateLimited.Error())
	}
}

func quote(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\r", `\r`, "\n", `\n`)
	return `"` + r.Replace(s) + `"`
}

// TestParseICEServer: STUN as given, TURN with its credentials taken out
// of the URL, bad URLs and TURN without credentials refused.
func TestParseICEServer(t *testing.T) {
	for _, c := range []struct {
		in   string
		want peer.ICEServer
		err  bool
	}{
		{in: "stun:stun.example.org", want: peer.ICEServer{URL: "stun:stun.example.org"}},
		{in: "stun:10.0.0.1:3479", want: peer.ICEServer{URL: "stun:10.0.0.1:3479"}},
		{in: "turn:op:s3cret@turn.example.org:3478?transport=udp", want: peer.ICEServer{URL: "turn:turn.example.org:3478?transport=udp", Username: "op", Credential: "s3cret"}},
		{in: "turns:op:s3cret@turn.example.org", want: peer.ICEServer{URL: "turns:turn.example.org", Username: "op", Credential: "s3cret"}},
		{in: "turn:turn.example.org", err: true},
		{in: "http://example.org", err: true},
		{in: "stun:", err: true},
		{in: "stun:host:99999", err: true},
	} {
		got, err := ParseICEServer(c.in)
		if (err != nil) != c.err || got != c.want {
			t.Errorf("ParseICEServer(%q) = %+v, %v; want %+v, error %v", c.in, got, err, c.want, c.err)
		}
	}
}

// FuzzSignalEnvelope feeds arbitrary page messages to the router between
// the hub and WebRTC signalling, then the signal to peer.Decode (the
// session's decoder): never a panic; a message taken as signalling is a
// strict {"type":"webrtc","signal":...} object, everything else goes to
// the hub (which refuses what it does not know).
func FuzzSignalEnvelope(f *testing.F) {
	for _, s := range []string{
		`{"type":"webrtc","signal":{"type":"want","cameras":["front"],"chosen":"front"}}`,
		`{"type":"webrtc","signal":{"type":"candidate","candidate":{"candidate":"candidate:1 1 udp 2130706431 127.0.0.1 5000 typ host","sdpMid":"0"}}}`,
		`{"type":"webrtc","signal":{"type":"caps","camera":"front","caps":{"maxBitrate":500000}}}`,
		`{"type":"webrtc","signal":"webrtc"}`, `{"type":"webrtc"}`, `{"type":"webrtc","signal":null,"x":1}`,
		`{"type":"servosila_drive","linear":0.3,"angular":0,"note":"webrtc"}`, `"webrtc"`, `{"type":"WebRTC","signal":{}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		sig, ok := signalEnvelope(b)
		if !ok {
			return
		}
		var env map[string]json.RawMessage
		if err := json.Unmarshal(b, &env); err != nil || string(env["type"]) != `"webrtc"` {
			t.Fatalf("%q taken as signalling", b)
		}
		_, _ = peer.Decode(sig)
	})
}
