package rtph264

import (
	"bytes"
	"context"
	"net"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/pion/rtp"
	"github.com/pion/rtp/codecs"

	"github.com/telebridge/telebridge/pkg/video"
)

var (
	testSPS = []byte{0x67, 0x42, 0xc0, 0x1e, 0xda, 0x02, 0x80, 0xf6, 0x84}
	testPPS = []byte{0x68, 0xce, 0x0f, 0xc8}
)

func annexB(nals ...[]byte) []byte {
	var b []byte
	for _, n := range nals {
		b = append(append(b, 0, 0, 0, 1), n...)
	}
	return b
}

func bigNAL(t byte, n int) []byte {
	b := make([]byte, n)
	b[0] = t
	for i := 1; i < n; i++ {
		b[i] = byte(i*31 + 7)
	}
	return b
}

// depacketize reassembles the NAL units of RTP packets (pion's
// H264Packet, Annex-B output).
func depacketize(t testing.TB, pkts [][]byte) []byte {
	var d codecs.H264Packet
	var out []byte
	for _, raw := range pkts {
		var p rtp.Packet
		if err := p.Unmarshal(raw); err != nil {
			t.Fatal(err)
		}
		b, err := d.Unmarshal(p.Payload)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, b...)
	}
	return out
}

func TestPacketizeKeyframe(t *testing.T) {
	pz := NewPacketizer(96, 0x1234, 1200, 65534, 1000)
	idr := bigNAL(0x65, 3000)
	t0 := time.Unix(1000, 0)
	var pkts [][]byte
	collect := func(b []byte) error { pkts = append(pkts, append([]byte(nil), b...)); return nil }
	if err := pz.Packetize(video.AccessUnit{Data: annexB(testSPS, testPPS, idr), Capture: t0, Key: true}, collect); err != nil {
		t.Fatal(err)
	}
	n1 := len(pkts)
	if err := pz.Packetize(video.AccessUnit{Data: annexB(bigNAL(0x41, 500)), Capture: t0.Add(100 * time.Millisecond)}, collect); err != nil {
		t.Fatal(err)
	}
	if n1 != 4 || len(pkts) != 5 { // STAP-A, three FU-A; one single NAL
		t.Fatalf("%d then %d packets, want 4 then 5", n1, len(pkts))
	}
	for i, raw := range pkts {
		var p rtp.Packet
		if err := p.Unmarshal(raw); err != nil {
			t.Fatal(err)
		}
		if len(raw) > 1200 || p.Version != 2 || p.PayloadType != 96 || p.SSRC != 0x1234 || p.SequenceNumber != uint16(65534+i) {
			t.Errorf("packet %d: len %d header %+v", i, len(raw), p.Header)
		}
		wantTS, wantM := uint32(1000), i == 3
		if i == 4 {
			wantTS, wantM = 1000+9000, true // 100 ms at 90 kHz
		}
		if p.Timestamp != wantTS || p.Marker != wantM {
			t.Errorf("packet %d: timestamp %d marker %v, want %d %v", i, p.Timestamp, p.Marker, wantTS, wantM)
		}
	}
	if got, want := depacketize(t, pkts[:4]), annexB(testSPS, testPPS, idr); !bytes.Equal(got, want) {
		t.Errorf("reassembled keyframe differs (%d vs %d bytes)", len(got), len(want))
	}
}

func TestSDP(t *testing.T) {
	d := SessionDescription{Name: "front\r\nx=evil", Dest: netip.MustParseAddrPort("239.1.2.3:5004"), TTL: 4,
		PayloadType: 96, SPS: testSPS, PPS: testPPS, FrameRate: 30, SessionID: 42}
	b, err := d.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	want := "v=0\r\no=- 42 1 IN IP4 127.0.0.1\r\ns=frontx=evil\r\nc=IN IP4 239.1.2.3/4\r\nt=0 0\r\n" +
		"m=video 5004 RTP/AVP 96\r\na=rtpmap:96 H264/90000\r\n" +
		"a=fmtp:96 packetization-mode=1;profile-level-id=42c01e;sprop-parameter-sets=Z0LAHtoCgPaE,aM4PyA==\r\n" +
		"a=framerate:30\r\n"
	if string(b) != want {
		t.Errorf("got\n%s\nwant\n%s", b, want)
	}
	d.Dest = netip.MustParseAddrPort("127.0.0.1:6000")
	b, _ = d.Marshal()
	if !strings.Contains(string(b), "c=IN IP4 127.0.0.1\r\n") {
		t.Errorf("unicast: %s", b)
	}
	d.Dest = netip.MustParseAddrPort("[ff05::2]:6000")
	b, _ = d.Marshal()
	if !strings.Contains(string(b), "c=IN IP6 ff05::2\r\n") || !strings.Contains(string(b), "IN IP6 ::1") {
		t.Errorf("IPv6: %s", b)
	}
	var e SessionDescription
	if err := e.ParseKeyframe(annexB(bigNAL(0x41, 10))); err == nil {
		t.Error("parameter sets from a P picture")
	}
	if _, err := e.Marshal(); err == nil {
		t.Error("SDP without parameter sets")
	}
}

func TestSenderLoopback(t *testing.T) {
	rx, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	defer rx.Close()
	s, err := Dial(Config{Dest: rx.LocalAddr().String()})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	v := &chanViewer{ch: make(chan video.AccessUnit, 2)}
	v.ch <- video.AccessUnit{Data: annexB(testSPS, testPPS, bigNAL(0x65, 2000)), Capture: time.Now(), Key: true}
	close(v.ch)
	var keys int
	if err := s.Run(context.Background(), v, func(video.AccessUnit) { keys++ }); err != ErrStopped {
		t.Fatalf("run: %v", err)
	}
	var pkts [][]byte
	buf := make([]byte, 2000)
	for len(pkts) < 3 {
		_ = rx.SetReadDeadline(time.Now().Add(5 * time.Second))
		n, err := rx.Read(buf)
		if err != nil {
			t.Fatal(err)
		}
		pkts = append(pkts, append([]byte(nil), buf[:n]...))
	}
	if got := depacketize(t, pkts); !bytes.Equal(got, annexB(testSPS, testPPS, bigNAL(0x65, 2000))) {
		t.Error("received access unit differs")
	}
	if st := s.Stats(); st.AccessUnits != 1 || st.Keyframes != 1 || st.Packets != 3 || keys != 1 {
		t.Errorf("stats %+v, onKey %d", st, keys)
	}
}

func TestDialRejects(t *testing.T) {
	for _, c := range []Config{{Dest: "nohost"}, {Dest: "127.0.0.1:0"}, {Dest: "0.0.0.0:5004"},
		{Dest: "127.0.0.1:5004", MTU: 100}, {Dest: "127.0.0.1:5004", PayloadType: 33}, {Dest: "127.0.0.1:5004", TTL: 300}} {
		if s, err := Dial(c); err == nil {
			s.Close()
			t.Errorf("%+v accepted", c)
		}
	}
}

type chanViewer struct{ ch chan video.AccessUnit }

func (v *chanViewer) AccessUnits() <-chan video.AccessUnit { return v.ch }
func (v *chanViewer) WantBitrate(int)                      {}
func (v *chanViewer) RequestKeyFrame()                     {}
func (v *chanViewer) Close()                               {}

// FuzzPacketize: any access unit bytes packetize without panic into
// packets no larger than the MTU, which pion's depacketizer reads.
func FuzzPacketize(f *testing.F) {
	f.Add(annexB(testSPS, testPPS, bigNAL(0x65, 3000)), uint16(300))
	f.Add([]byte{0, 0, 1}, uint16(200))
	f.Fuzz(func(t *testing.T, au []byte, mtu uint16) {
		m := 200 + int(mtu)%1300
		pz := NewPacketizer(96, 1, m, 0, 0)
		_ = pz.Packetize(video.AccessUnit{Data: au, Capture: time.Unix(0, 0)}, func(b []byte) error {
			if len(b) > m {
				t.Fatalf("packet of %d bytes over MTU %d", len(b), m)
			}
			var p rtp.Packet
			if err := p.Unmarshal(b); err != nil {
				t.Fatalf("unmarshal own packet: %v", err)
			}
			return nil
		})
	})
}

// BenchmarkPacketize packetizes a 20 kB access unit (17 FU-A packets at
// MTU 1200) into RTP packets.
func BenchmarkPacketize(b *testing.B) {
	pz := NewPacketizer(96, 1, 1200, 0, 0)
	au := video.AccessUnit{Data: annexB(bigNAL(0x41, 20000)), Capture: time.Unix(0, 0)}
	b.ReportAllocs()
	b.SetBytes(int64(len(au.Data)))
	for b.Loop() {
		_ = pz.Packetize(au, func([]byte) error { return nil })
	}
}

// TestDialMulticast opens a sender to an IPv4 multicast group with a hop
// limit and checks its SDP; nothing is sent (tests stay on loopback).
func TestDialMulticast(t *testing.T) {
	s, err := Dial(Config{Dest: "239.1.2.3:5004", TTL: 4})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	d := s.Description("front", 30)
	if err := d.ParseKeyframe(annexB(testSPS, testPPS, bigNAL(0x65, 10))); err != nil {
		t.Fatal(err)
	}
	b, err := d.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), "c=IN IP4 239.1.2.3/4\r\n") || !strings.Contains(string(b), "m=video 5004 RTP/AVP 96\r\n") {
		t.Errorf("SDP:\n%s", b)
	}
}
