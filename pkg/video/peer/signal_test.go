package peer

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

const testSDP = "v=0\r\no=- 1 1 IN IP4 0.0.0.0\r\ns=-\r\nt=0 0\r\nm=video 9 UDP/TLS/RTP/SAVPF 102\r\nc=IN IP4 0.0.0.0\r\na=mid:0\r\n"

func ptr[T any](v T) *T { return &v }

// golden pairs valid messages with their wire form.
var golden = []struct {
	name string
	msg  Message
	raw  string
}{
	{"offer", Message{Type: TypeOffer, SDP: testSDP}, `{"type":"offer","sdp":"v=0\r\no=- 1 1 IN IP4 0.0.0.0\r\ns=-\r\nt=0 0\r\nm=video 9 UDP/TLS/RTP/SAVPF 102\r\nc=IN IP4 0.0.0.0\r\na=mid:0\r\n"}`},
	{"answer", Message{Type: TypeAnswer, SDP: testSDP}, `{"type":"answer","sdp":"v=0\r\no=- 1 1 IN IP4 0.0.0.0\r\ns=-\r\nt=0 0\r\nm=video 9 UDP/TLS/RTP/SAVPF 102\r\nc=IN IP4 0.0.0.0\r\na=mid:0\r\n"}`},
	{"candidate", Message{Type: TypeCandidate, Candidate: &Candidate{
		Candidate: "candidate:1 1 udp 2130706431 127.0.0.1 50000 typ host", SDPMid: ptr("0"), SDPMLineIndex: ptr(uint16(0)),
		UsernameFragment: ptr("abcd")}},
		`{"type":"candidate","candidate":{"candidate":"candidate:1 1 udp 2130706431 127.0.0.1 50000 typ host","sdpMid":"0","sdpMLineIndex":0,"usernameFragment":"abcd"}}`},
	{"end of candidates", Message{Type: TypeCandidate, Candidate: &Candidate{}}, `{"type":"candidate","candidate":{"candidate":""}}`},
	{"want", Message{Type: TypeWant, Cameras: []string{"front", "rear"}, Chosen: "rear"}, `{"type":"want","cameras":["front","rear"],"chosen":"rear"}`},
	{"want nothing", Message{Type: TypeWant}, `{"type":"want"}`},
	{"caps", Message{Type: TypeCaps, Camera: "front", Caps: &CapsWire{MaxBitrate: ptr(int64(800_000)), FrameRate: ptr(15.0),
		Width: ptr(int64(640)), Height: ptr(int64(480))}},
		`{"type":"caps","camera":"front","caps":{"maxBitrate":800000,"frameRate":15,"width":640,"height":480}}`},
	{"error", Message{Type: TypeError, Error: &ErrorBody{Code: CodeBadCaps, Message: "no", Camera: "front"}},
		`{"type":"error","error":{"code":"bad-caps","message":"no","camera":"front"}}`},
}

func TestDecodeEncodeGolden(t *testing.T) {
	for _, g := range golden {
		m, err := Decode([]byte(g.raw))
		if err != nil {
			t.Errorf("%s: %v", g.name, err)
			continue
		}
		if !reflect.DeepEqual(m, g.msg) {
			t.Errorf("%s: decoded %+v, want %+v", g.name, m, g.msg)
		}
		b, err := Encode(g.msg)
		if err != nil || string(b) != g.raw {
			t.Errorf("%s: encoded %s (%v), want %s", g.name, b, err, g.raw)
		}
	}
}

func TestDecodeRefuses(t *testing.T) {
	cases := []struct{ name, raw, code string }{
		{"empty", ``, CodeBadMessage},
		{"array", `[]`, CodeBadMessage},
		{"no type", `{}`, CodeBadMessage},
		{"type number", `{"type":1}`, CodeBadMessage},
		{"answer without sdp", `{"type":"answer"}`, CodeBadSDP},
		{"candidate missing", `{"type":"candidate"}`, CodeBadCandidate},
		{"caps missing", `{"type":"caps","camera":"front"}`, CodeBadCaps},
		{"caps without camera", `{"type":"caps","caps":{}}`, CodeBadMessage},
		{"error without code", `{"type":"error","error":{"message":"x"}}`, CodeBadMessage},
		{"too many wanted", `{"type":"want","cameras":["a","b","c","d","e","f","g","h","i","j","k","l","m","n","o","p","q"]}`, CodeTooManyCameras},
		{"long name", `{"type":"want","cameras":["` + strings.Repeat("a", MaxCameraName+1) + `"]}`, CodeBadMessage},
		{"frame rate 61", `{"type":"caps","camera":"a","caps":{"frameRate":61}}`, CodeBadCaps},
		{"4097 wide", `{"type":"caps","camera":"a","caps":{"width":4097,"height":480}}`, CodeBadCaps},
		{"bitrate float", `{"type":"caps","camera":"a","caps":{"maxBitrate":1.5}}`, CodeBadMessage},
		{"trailing garbage", `{"type":"want"} x`, CodeBadMessage},
		{"case-folded field", `{"tYpe":"want"}`, CodeBadMessage},
		{"case-folded nested field", `{"type":"caps","camera":"a","caps":{"FrameRate":5}}`, CodeBadMessage},
		{"repeated field", `{"type":"want","type":"answer"}`, CodeBadMessage},
		{"repeated nested field", `{"type":"caps","camera":"a","caps":{"width":640,"width":1,"height":480}}`, CodeBadMessage},
		{"cameras not strings", `{"type":"want","cameras":[{"name":"a"}]}`, CodeBadMessage},
		{"cameras empty in answer", `{"type":"answer","sdp":"v=0","cameras":[]}`, CodeBadMessage},
	}
	for _, tc := range cases {
		_, err := Decode([]byte(tc.raw))
		var de *DecodeError
		if !errors.As(err, &de) || de.Code != tc.code || !errors.Is(err, ErrBadMessage) {
			t.Errorf("%s: %v, want code %s", tc.name, err, tc.code)
		}
	}
}

// FuzzDecode: no panic, and whatever decodes re-encodes and decodes to the
// same message. Seeds: the golden table and testdata/fuzz/FuzzDecode.
func FuzzDecode(f *testing.F) {
	for _, g := range golden {
		f.Add([]byte(g.raw))
	}
	f.Add([]byte(`{"type":"caps","camera":"a","caps":{"frameRate":0}}`))
	f.Add([]byte(`{"type":"answer","sdp":"v=0\r\n"}`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		m, err := Decode(raw)
		if err != nil {
			return
		}
		b, err := Encode(m)
		if err != nil {
			t.Fatalf("encode %+v: %v", m, err)
		}
		m2, err := Decode(b)
		if err != nil {
			t.Fatalf("re-decode %s: %v", b, err)
		}
		if !reflect.DeepEqual(m, m2) {
			t.Fatalf("round trip: %+v then %+v", m, m2)
		}
	})
}

// Candidates as Chromium and Firefox send them: mDNS host names, TCP,
// server-reflexive and relay candidates with extensions.
func TestBrowserCandidatesAccepted(t *testing.T) {
	for _, c := range []string{
		"candidate:3564155722 1 udp 2113937151 5d7bbac4-4b55-4a34-9f0c-3f6d1e2c8a11.local 54321 typ host generation 0 ufrag Xy1z network-cost 999",
		"candidate:1467250027 1 tcp 1518280447 192.168.1.20 9 typ host tcptype active generation 0 ufrag Xy1z network-id 1",
		"candidate:842163049 1 udp 1677729535 203.0.113.7 61234 typ srflx raddr 0.0.0.0 rport 0 generation 0 ufrag Xy1z network-cost 999",
		"candidate:4 1 UDP 92217087 198.51.100.9 3478 typ relay raddr 198.51.100.9 rport 3478",
		"candidate:0 1 UDP 2122252543 fe80::1 50000 typ host",
	} {
		raw, err := Encode(Message{Type: TypeCandidate, Candidate: &Candidate{Candidate: c, SDPMid: ptr("0"), SDPMLineIndex: ptr(uint16(0))}})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Decode(raw); err != nil {
			t.Errorf("%s: %v", c, err)
		}
	}
}
