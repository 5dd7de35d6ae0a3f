package peer

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pion/rtcp"
	"github.com/pion/rtp/codecs"
	"github.com/pion/webrtc/v4"

	"github.com/telebridge/telebridge/pkg/video"
)

// readNALs reads RTP from tr and depacketizes it until n NAL units came.
// Like a browser's decoder, it starts at a keyframe (SPS) and sends one
// PLI when the stream began without one (the first keyframe can arrive
// before the client's SRTP is ready, when the server finishes DTLS first).
func readNALs(t *testing.T, c *client, tr *webrtc.TrackRemote, n int, d time.Duration) [][]byte {
	t.Helper()
	return readNALsFrom(t, c, tr, n, d, true)
}

// readFixtureNALs is readNALs for comparing with a fakeSource's fixture
// (sameNALs): it sends no PLI but waits for the fixture's own next
// keyframe. A keyframe request makes the fake jump to its next keyframe,
// which breaks the fixture's order wherever it lands, and a session
// answers a PLI up to a picture later (a watcher, gate.go): the read
// could have begun at a keyframe before the jump.
func readFixtureNALs(t *testing.T, c *client, tr *webrtc.TrackRemote, n int, d time.Duration) [][]byte {
	t.Helper()
	return readNALsFrom(t, c, tr, n, d, false)
}

// readNALsFrom is readNALs, with the PLI (askKey) or without.
func readNALsFrom(t *testing.T, c *client, tr *webrtc.TrackRemote, n int, d time.Duration, askKey bool) [][]byte {
	t.Helper()
	if err := tr.SetReadDeadline(time.Now().Add(d)); err != nil {
		t.Fatal(err)
	}
	var dep codecs.H264Packet
	var out [][]byte
	pli := false
	for len(out) < n {
		pkt, _, err := tr.ReadRTP()
		if err != nil {
			t.Fatalf("after %d NAL units: %v", len(out), err)
		}
		b, err := dep.Unmarshal(pkt.Payload)
		if err != nil {
			t.Fatalf("depacketize: %v", err)
		}
		for _, nal := range splitNALs(b) {
			if len(out) == 0 && nal[0]&0x1f != 7 {
				if askKey && !pli {
					pli = true
					if err := c.pc.WriteRTCP([]rtcp.Packet{&rtcp.PictureLossIndication{MediaSSRC: uint32(tr.SSRC())}}); err != nil {
						t.Fatal(err)
					}
				}
				continue
			}
			out = append(out, nal)
		}
	}
	return out[:n]
}

// fixtureNALs returns n NAL units of the looping fixture from the
// keyframe whose IDR slice is idr.
func fixtureNALs(t *testing.T, src *fakeSource, idr []byte, n int) [][]byte {
	t.Helper()
	for k, au := range src.aus {
		nals := splitNALs(au.Data)
		if !au.Key || !bytes.Equal(nals[len(nals)-1], idr) {
			continue
		}
		var out [][]byte
		for i := k; len(out) < n; i++ {
			out = append(out, splitNALs(src.aus[i%len(src.aus)].Data)...)
		}
		return out[:n]
	}
	t.Fatalf("received IDR slice (%d bytes) is none of the fixture's", len(idr))
	return nil
}

// sameNALs checks that got (starting SPS, PPS, IDR) is the fixture's
// sequence from that keyframe on.
func sameNALs(t *testing.T, src *fakeSource, got [][]byte) {
	t.Helper()
	want := fixtureNALs(t, src, got[2], len(got))
	for i := range want {
		if !bytes.Equal(got[i], want[i]) {
			t.Fatalf("NAL unit %d: got type %d, %d bytes; want type %d, %d bytes", i, got[i][0]&0x1f, len(got[i]), want[i][0]&0x1f, len(want[i]))
		}
	}
}

func newServer(t *testing.T, cfg Config) *Server {
	t.Helper()
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := s.Close(); err != nil {
			t.Error(err)
		}
	})
	return s
}

// connect opens a session for a new client and asks for cams.
func connect(t *testing.T, s *Server, cams ...string) *client {
	t.Helper()
	c := newClient(t)
	ss, err := s.NewSession(c.sessionConfig())
	if err != nil {
		t.Fatal(err)
	}
	c.start(ss)
	c.send(fmt.Sprintf(`{"type":"want","cameras":[%s]}`, quoteAll(cams)))
	return c
}

func quoteAll(s []string) string {
	q := make([]string, len(s))
	for i, x := range s {
		q[i] = fmt.Sprintf("%q", x)
	}
	return strings.Join(q, ",")
}

func TestVideoArrivesAsTheSameNALUnits(t *testing.T) {
	front := newFakeSource(t)
	front.captureStep = 50 * time.Millisecond
	s := newServer(t, testConfig(cameras(map[string]*fakeSource{"front": front})))
	c := connect(t, s, "front")
	tr := c.nextTrack(5 * time.Second)
	if tr.StreamID() != "front" || tr.ID() != "front" {
		t.Errorf("track %q in stream %q, want both \"front\"", tr.ID(), tr.StreamID())
	}
	if !strings.Contains(tr.Codec().SDPFmtpLine, "profile-level-id=42e01f") || !strings.Contains(tr.Codec().SDPFmtpLine, "packetization-mode=1") {
		t.Errorf("codec fmtp %q", tr.Codec().SDPFmtpLine)
	}
	sameNALs(t, front, readFixtureNALs(t, c, tr, 30, 5*time.Second)) // 4 keyframes and P slices, looping

	// RTP timestamps follow the capture times (50 ms apart here, while the
	// access units come every 33 ms), one interval behind.
	var stamps []uint32
	if err := tr.SetReadDeadline(time.Now().Add(5 * time.Second)); err != nil {
		t.Fatal(err)
	}
	for len(stamps) < 10 {
		pkt, _, err := tr.ReadRTP()
		if err != nil {
			t.Fatal(err)
		}
		if len(stamps) == 0 || stamps[len(stamps)-1] != pkt.Timestamp {
			stamps = append(stamps, pkt.Timestamp)
		}
	}
	for i := 2; i < len(stamps); i++ { // the first difference may span a skipped access unit
		if d := stamps[i] - stamps[i-1]; d != 4500 {
			t.Errorf("RTP timestamps %v: step %d of %d ticks, want 4500 (50 ms at 90 kHz)", stamps, i, d)
			break
		}
	}
	st := c.ss.Stats()
	if len(st.Cameras) != 1 || st.Cameras[0].AccessUnits == 0 || st.Cameras[0].PacketsSent == 0 || st.Cameras[0].BytesSent == 0 {
		t.Errorf("stats %+v", st)
	}
	if st.Estimate <= 0 || st.Cameras[0].Share <= 0 || st.Cameras[0].Share > st.Estimate {
		t.Errorf("estimate %d, share %d", st.Estimate, st.Cameras[0].Share)
	}
	if front.want() <= 0 {
		t.Errorf("the viewer was never given a bitrate")
	}
}

func TestPLIAndFIRRequestAKeyFrame(t *testing.T) {
	front := newFakeSource(t)
	s := newServer(t, testConfig(cameras(map[string]*fakeSource{"front": front})))
	c := connect(t, s, "front")
	tr := c.nextTrack(5 * time.Second)
	readNALs(t, c, tr, 3, 5*time.Second)
	before, plis := front.keyRequests.Load(), c.ss.Stats().Cameras[0].PLIs
	if err := c.pc.WriteRTCP([]rtcp.Packet{&rtcp.PictureLossIndication{MediaSSRC: uint32(tr.SSRC())}}); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for front.keyRequests.Load() == before {
		if time.Now().After(deadline) {
			t.Fatal("the PLI did not reach the Source as a keyframe request")
		}
		time.Sleep(10 * time.Millisecond)
	}
	if st := c.ss.Stats(); st.Cameras[0].PLIs != plis+1 {
		t.Errorf("PLIs counted %d, want %d", st.Cameras[0].PLIs, plis+1)
	}

	before = front.keyRequests.Load()
	fir := &rtcp.FullIntraRequest{MediaSSRC: uint32(tr.SSRC()), FIR: []rtcp.FIREntry{{SSRC: uint32(tr.SSRC()), SequenceNumber: 1}}}
	if err := c.pc.WriteRTCP([]rtcp.Packet{fir}); err != nil {
		t.Fatal(err)
	}
	for front.keyRequests.Load() == before {
		if time.Now().After(deadline) {
			t.Fatal("the FIR did not reach the Source as a keyframe request")
		}
		time.Sleep(10 * time.Millisecond)
	}
	if st := c.ss.Stats(); st.Cameras[0].FIRs != 1 {
		t.Errorf("FIRs counted %d, want 1", st.Cameras[0].FIRs)
	}
}

func TestCommandsChannel(t *testing.T) {
	front := newFakeSource(t)
	cfg := testConfig(cameras(map[string]*fakeSource{"front": front}))
	cfg.MaxCommandSize = 100
	s := newServer(t, cfg)
	got := make(chan string, 200)
	c := newClient(t)
	sc := c.sessionConfig()
	sc.OnCommand = func(b []byte) { got <- string(b) }
	ss, err := s.NewSession(sc)
	if err != nil {
		t.Fatal(err)
	}
	c.start(ss)
	c.send(`{"type":"want"}`)
	var dc *webrtc.DataChannel
	select {
	case dc = <-c.dcs:
	case <-time.After(5 * time.Second):
		t.Fatal("no data channel")
	}
	if dc.Label() != CommandLabel || dc.Ordered() || dc.MaxRetransmits() == nil || *dc.MaxRetransmits() != 0 {
		t.Fatalf("channel %q ordered %v maxRetransmits %v", dc.Label(), dc.Ordered(), dc.MaxRetransmits())
	}
	open := make(chan struct{})
	var once sync.Once
	dc.OnOpen(func() { once.Do(func() { close(open) }) }) // pion calls it at once if open

	select {
	case <-open:
	case <-time.After(5 * time.Second):
		t.Fatal("data channel did not open")
	}
	const n = 100
	if err := dc.Send(bytes.Repeat([]byte("x"), 101)); err != nil { // over the limit: dropped
		t.Fatal(err)
	}
	for i := range n {
		if err := dc.SendText(fmt.Sprintf(`{"seq":%d}`, i)); err != nil {
			t.Fatal(err)
		}
	}
	seen := map[string]bool{}
	for len(seen) < n {
		select {
		case m := <-got:
			seen[m] = true
		case <-time.After(5 * time.Second):
			t.Fatalf("%d of %d commands arrived", len(seen), n)
		}
	}
	for i := range n {
		if !seen[fmt.Sprintf(`{"seq":%d}`, i)] {
			t.Errorf("command %d missing", i)
		}
	}
	st := ss.Stats()
	if st.DataChannelsOpen != 1 {
		t.Errorf("%d command channels open, want 1", st.DataChannelsOpen)
	}
	if st.Commands != n || st.CommandsDropped != 1 {
		t.Errorf("commands %d dropped %d, want %d and 1", st.Commands, st.CommandsDropped, n)
	}
}

func TestICETimeoutClosesThePeer(t *testing.T) {
	cfg := testConfig(cameras(map[string]*fakeSource{"front": newFakeSource(t)}))
	cfg.ICETimeout = 300 * time.Millisecond
	cfg.MaxPeers = 1
	s := newServer(t, cfg)
	sent := make(chan Message, 64)
	ss, err := s.NewSession(SessionConfig{Send: func(m Message) { sent <- m }})
	if err != nil {
		t.Fatal(err)
	}
	out := ss.Handle([]byte(`{"type":"want","cameras":["front"]}`))
	if len(out) != 1 || out[0].Type != TypeOffer {
		t.Fatalf("want gave %+v, want one offer", out)
	}
	if _, err := s.NewSession(SessionConfig{Send: func(Message) {}}); !errors.Is(err, ErrTooManyPeers) {
		t.Fatalf("second session at MaxPeers 1: %v, want ErrTooManyPeers", err)
	}
	select {
	case <-ss.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("the session did not close after the ICE timeout")
	}
	if e := ss.Err(); e == nil || e.Code != CodeICETimeout {
		t.Fatalf("Err() = %+v, want %s", e, CodeICETimeout)
	}
	found := false
	for len(sent) > 0 {
		m := <-sent
		if m.Type == TypeError && m.Error.Code == CodeICETimeout && strings.Contains(m.Error.Message, "300ms") {
			found = true
		}
	}
	if !found {
		t.Error("the page was not told about the ICE timeout")
	}
	if got := ss.Handle([]byte(`{"type":"want"}`)); len(got) != 1 || got[0].Error.Code != CodeClosed {
		t.Errorf("message after close: %+v", got)
	}
	ss2, err := s.NewSession(SessionConfig{Send: func(Message) {}})
	if err != nil {
		t.Fatalf("the timed-out session's slot was not released: %v", err)
	}
	ss2.Close()
}

func TestBadMessagesLeaveOthersWorking(t *testing.T) {
	srcs := map[string]*fakeSource{"front": newFakeSource(t), "rear": newFakeSource(t)}
	cfg := testConfig(cameras(srcs))
	cfg.MaxTracksPerPeer = 2
	s := newServer(t, cfg)
	a := connect(t, s, "front")
	tr := a.nextTrack(5 * time.Second)
	readNALs(t, a, tr, 3, 5*time.Second)

	b, err := s.NewSession(SessionConfig{Send: func(Message) {}})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	cases := []struct{ name, raw, code string }{
		{"not json", `{"type":`, CodeBadMessage},
		{"unknown type", `{"type":"hello"}`, CodeBadMessage},
		{"unknown field", `{"type":"want","cameras":["front"],"admin":true}`, CodeBadMessage},
		{"misplaced field", `{"type":"answer","sdp":"v=0","cameras":["front"]}`, CodeBadMessage},
		{"two objects", `{"type":"want"}{"type":"want"}`, CodeBadMessage},
		{"oversized", `{"type":"answer","sdp":"` + strings.Repeat("a", MaxMessageSize) + `"}`, CodeTooLarge},
		{"sdp garbage", `{"type":"answer","sdp":"hello"}`, CodeBadSDP},
		{"sdp no media", `{"type":"answer","sdp":"v=0\r\no=- 1 1 IN IP4 0.0.0.0\r\ns=-\r\nt=0 0\r\n"}`, CodeBadSDP},
		{"answer without offer", `{"type":"answer","sdp":"v=0\r\no=- 1 1 IN IP4 0.0.0.0\r\ns=-\r\nt=0 0\r\nm=video 9 UDP/TLS/RTP/SAVPF 102\r\nc=IN IP4 0.0.0.0\r\n"}`, CodeNegotiation},
		{"offer from page", `{"type":"offer","sdp":"v=0\r\no=- 1 1 IN IP4 0.0.0.0\r\ns=-\r\nt=0 0\r\nm=video 9 UDP/TLS/RTP/SAVPF 102\r\nc=IN IP4 0.0.0.0\r\n"}`, CodeNegotiation},
		{"candidate garbage", `{"type":"candidate","candidate":{"candidate":"candidate:x"}}`, CodeBadCandidate},
		{"candidate too long", `{"type":"candidate","candidate":{"candidate":"` + strings.Repeat("a", MaxCandidateSize+1) + `"}}`, CodeBadCandidate},
		{"camera name", `{"type":"want","cameras":["front<script>"]}`, CodeBadMessage},
		{"empty camera name", `{"type":"want","cameras":[""]}`, CodeBadMessage},
		{"camera twice", `{"type":"want","cameras":["front","front"]}`, CodeBadMessage},
		{"chosen not wanted", `{"type":"want","cameras":["front"],"chosen":"rear"}`, CodeBadMessage},
		{"too many cameras", `{"type":"want","cameras":["front","rear","left"]}`, CodeTooManyCameras},
		{"zero fps", `{"type":"caps","camera":"front","caps":{"frameRate":0}}`, CodeBadCaps},
		{"100 Mbit/s", `{"type":"caps","camera":"front","caps":{"maxBitrate":100000000}}`, CodeBadCaps},
		{"1x1", `{"type":"caps","camera":"front","caps":{"width":1,"height":1}}`, CodeBadCaps},
		{"negative bitrate", `{"type":"caps","camera":"front","caps":{"maxBitrate":-5}}`, CodeBadCaps},
		{"width alone", `{"type":"caps","camera":"front","caps":{"width":640}}`, CodeBadCaps},
		{"caps unknown field", `{"type":"caps","camera":"front","caps":{"bitrate":1}}`, CodeBadMessage},
	}
	for _, sess := range []*Session{b, a.ss} {
		for _, tc := range cases {
			out := sess.Handle([]byte(tc.raw))
			if len(out) != 1 || out[0].Type != TypeError || out[0].Error.Code != tc.code {
				t.Errorf("%s: got %+v, want one error %s", tc.name, out, tc.code)
			} else if out[0].Error.Message == "" {
				t.Errorf("%s: error without a reason", tc.name)
			}
		}
	}
	out := b.Handle([]byte(`{"type":"want","cameras":["front","nope"]}`))
	if len(out) != 2 || out[0].Error == nil || out[0].Error.Code != CodeUnknownCamera || out[0].Error.Camera != "nope" || out[1].Type != TypeOffer {
		t.Errorf("unknown camera: got %+v, want an error for \"nope\" and an offer for the rest", out)
	}
	for i := range maxCandidates + 1 { // b has no answer yet: held, up to the limit
		out := b.Handle([]byte(fmt.Sprintf(`{"type":"candidate","candidate":{"candidate":"candidate:%d 1 udp 2130706431 127.0.0.1 %d typ host"}}`, i, 10000+i)))
		if i < maxCandidates && len(out) != 0 {
			t.Fatalf("candidate %d refused: %+v", i, out)
		}
		if i == maxCandidates && (len(out) != 1 || out[0].Error.Code != CodeBadCandidate) {
			t.Fatalf("candidate over the limit: %+v", out)
		}
	}
	// a's video still flows.
	readNALs(t, a, tr, 10, 5*time.Second)
	if st := a.ss.Stats(); st.BadMessages != uint64(len(cases)) || st.State != "connected" {
		t.Errorf("session a: %d bad messages counted (want %d), state %s", st.BadMessages, len(cases), st.State)
	}
}

func TestRenegotiationAddsAndRemovesCameras(t *testing.T) {
	srcs := map[string]*fakeSource{"front": newFakeSource(t), "rear": newFakeSource(t)}
	s := newServer(t, testConfig(cameras(srcs)))
	c := connect(t, s, "front")
	first := c.nextTrack(5 * time.Second)
	readNALs(t, c, first, 3, 5*time.Second)
	c.send(`{"type":"want","cameras":["front","rear"],"chosen":"rear"}`)
	second := c.nextTrack(5 * time.Second)
	if second.StreamID() != "rear" {
		t.Fatalf("second track in stream %q, want rear", second.StreamID())
	}
	sameNALs(t, srcs["rear"], readFixtureNALs(t, c, second, 12, 5*time.Second))
	readNALs(t, c, first, 5, 5*time.Second) // the first camera kept going
	st := c.ss.Stats()
	var names []string
	for _, cs := range st.Cameras {
		names = append(names, fmt.Sprintf("%s:%v", cs.Camera, cs.Chosen))
	}
	if strings.Join(names, ",") != "front:false,rear:true" {
		t.Errorf("cameras %v", names)
	}

	c.send(`{"type":"want","cameras":["rear"]}`)
	deadline := time.Now().Add(5 * time.Second)
	for len(c.ss.Stats().Cameras) != 1 || srcs["front"].activeViewers() != 0 {
		if time.Now().After(deadline) {
			t.Fatalf("front still shown: %+v, %d viewers", c.ss.Stats().Cameras, srcs["front"].activeViewers())
		}
		time.Sleep(10 * time.Millisecond)
	}
	readNALs(t, c, second, 5, 5*time.Second)

	c.send(`{"type":"want","cameras":["rear","front"]}`) // front again
	again := c.nextTrack(5 * time.Second)
	if again.StreamID() != "front" {
		t.Fatalf("re-added track in stream %q, want front", again.StreamID())
	}
	sameNALs(t, srcs["front"], readFixtureNALs(t, c, again, 6, 5*time.Second))
	if n := len(c.offers); n != 4 {
		t.Errorf("%d offers answered, want 4 (initial, add, remove, add again)", n)
	}
}

func TestLimits(t *testing.T) {
	if _, err := New(Config{}); !errors.Is(err, ErrConfig) {
		t.Errorf("no Open: %v", err)
	}
	for _, is := range []ICEServer{
		{URL: "http://example.org"}, {URL: "stun:"}, {URL: "turn:turn.example.org:3478"}, {URL: "stun:host:99999"},
	} {
		_, err := New(Config{Open: cameras(nil), ICEServers: []ICEServer{is}})
		if !errors.Is(err, ErrConfig) {
			t.Errorf("ice server %+v accepted", is)
		}
	}
	if _, err := New(Config{Open: cameras(nil), ICEServers: []ICEServer{{URL: "stun:127.0.0.1:3478"},
		{URL: "turn:127.0.0.1:3478?transport=udp", Username: "u", Credential: "p"}}}); err != nil {
		t.Errorf("valid ice servers refused: %v", err)
	}
}

func (s *fakeSource) activeViewers() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, v := range s.viewers {
		select {
		case <-v.done:
		default:
			n++
		}
	}
	return n
}

func TestCapsMoveTheCamera(t *testing.T) {
	front := newFakeSource(t)
	opened := make(chan Caps, 8)
	open := func(name string, caps Caps) (video.Source, error) {
		if name != "front" {
			return nil, errors.New("no such camera")
		}
		opened <- caps
		return front, nil
	}
	s := newServer(t, testConfig(open))
	c := connect(t, s, "front")
	tr := c.nextTrack(5 * time.Second)
	readNALs(t, c, tr, 3, 5*time.Second)
	if got := <-opened; got != (Caps{}) {
		t.Errorf("first open with caps %+v, want none", got)
	}

	c.send(`{"type":"caps","camera":"front","caps":{"maxBitrate":300000}}`)
	deadline := time.Now().Add(5 * time.Second)
	for front.want() > 300_000 || front.want() == 0 {
		if time.Now().After(deadline) {
			t.Fatalf("the viewer wants %d bit/s over the 300 kbit/s cap", front.want())
		}
		time.Sleep(10 * time.Millisecond)
	}
	if len(opened) != 0 {
		t.Errorf("a bitrate cap reopened the camera")
	}

	subs := front.subscribed.Load()
	c.send(`{"type":"caps","camera":"front","caps":{"maxBitrate":300000,"frameRate":15,"width":320,"height":240}}`)
	select {
	case got := <-opened:
		if got != (Caps{MaxBitrate: 300_000, FrameRate: 15, Width: 320, Height: 240}) {
			t.Errorf("reopened with %+v", got)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("a new resolution did not reopen the camera")
	}
	for front.subscribed.Load() == subs {
		if time.Now().After(deadline) {
			t.Fatal("the camera was not resubscribed")
		}
		time.Sleep(10 * time.Millisecond)
	}
	readNALs(t, c, tr, 6, 5*time.Second) // video goes on (from a keyframe of the new viewer or the old one)
	if st := c.ss.Stats(); st.Cameras[0].Caps.Width != 320 || st.Cameras[0].Share > 300_000 {
		t.Errorf("stats %+v", st.Cameras[0])
	}
}

// rawRTCP is an RTCP "packet" that marshals to whatever bytes it holds: a
// malformed datagram from a receiver.
type rawRTCP []byte

func (r rawRTCP) Marshal() ([]byte, error)  { return r, nil }
func (r rawRTCP) MarshalSize() int          { return len(r) }
func (r rawRTCP) Unmarshal([]byte) error    { return nil }
func (r rawRTCP) DestinationSSRC() []uint32 { return nil }

// A malformed RTCP datagram (a feedback that routes but does not parse)
// is counted and skipped: the PLI after it still asks for a
// keyframe.
func TestMalformedRTCPSkipped(t *testing.T) {
	front := newFakeSource(t)
	s := newServer(t, testConfig(cameras(map[string]*fakeSource{"front": front})))
	c := connect(t, s, "front")
	tr := c.nextTrack(5 * time.Second)
	readNALs(t, c, tr, 3, 5*time.Second)
	ssrc := binary.BigEndian.AppendUint32(nil, uint32(tr.SSRC()))
	// A transport-wide feedback to this track whose status count (65535)
	// wants more chunks than it carries: it splits and routes by its
	// header, but does not parse.
	bad := append(append([]byte{0x8F, 205, 0x00, 0x04, 0, 0, 0, 1}, ssrc...), 0, 1, 0xFF, 0xFF, 0, 0, 0, 0)
	if err := c.pc.WriteRTCP([]rtcp.Packet{rawRTCP(bad)}); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for c.ss.Stats().Cameras[0].BadRTCP == 0 {
		if time.Now().After(deadline) {
			t.Fatal("the malformed datagram was never counted")
		}
		time.Sleep(10 * time.Millisecond)
	}
	before := front.keyRequests.Load()
	if err := c.pc.WriteRTCP([]rtcp.Packet{&rtcp.PictureLossIndication{MediaSSRC: uint32(tr.SSRC())}}); err != nil {
		t.Fatal(err)
	}
	for front.keyRequests.Load() == before {
		if time.Now().After(deadline) {
			t.Fatal("a PLI after a malformed datagram did not reach the Source: the RTCP reader ended")
		}
		time.Sleep(10 * time.Millisecond)
	}
}
