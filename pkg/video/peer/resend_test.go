package peer

import (
	"bytes"
	"encoding/hex"
	"testing"
	"time"

	"github.com/pion/interceptor"
	"github.com/pion/rtcp"
	"github.com/pion/rtp"
)

// sentPkt is a packet a resender wrote inward, copied.
type sentPkt struct {
	h       rtp.Header
	payload []byte
}

// resendRig is a resender with one bound stream (SSRC 0x11223344) whose
// inward writer records, and an RTCP reader that returns rtcpIn.
type resendRig struct {
	r      *resender
	w      interceptor.RTPWriter // the bound stream's writer (outward end)
	read   interceptor.RTCPReader
	rtcpIn []byte
	got    []sentPkt
}

const rigSSRC = 0x11223344

func newResendRig() *resendRig {
	g := &resendRig{r: &resender{}}
	g.w = g.r.BindLocalStream(&interceptor.StreamInfo{SSRC: rigSSRC}, interceptor.RTPWriterFunc(
		func(h *rtp.Header, payload []byte, _ interceptor.Attributes) (int, error) {
			g.got = append(g.got, sentPkt{h: *h, payload: payload})
			return len(payload), nil
		}))
	g.read = g.r.BindRTCPReader(interceptor.RTCPReaderFunc(func(b []byte, a interceptor.Attributes) (int, interceptor.Attributes, error) {
		return copy(b, g.rtcpIn), a, nil
	}))
	return g
}

// send writes packet seq (payload: its sequence number, marker on odd
// ones) as the stamper would.
func (g *resendRig) send(t *testing.T, seq uint16) {
	t.Helper()
	h := rtp.Header{Version: 2, PayloadType: 102, SequenceNumber: seq, Timestamp: 9000 * uint32(seq/2), SSRC: rigSSRC, Marker: seq%2 == 1}
	if _, err := g.w.Write(&h, []byte{byte(seq >> 8), byte(seq)}, nil); err != nil {
		t.Fatal(err)
	}
}

// nack hands the resender the RTCP datagram given in hex.
func (g *resendRig) nack(t *testing.T, hexBytes string) error {
	t.Helper()
	b, err := hex.DecodeString(hexBytes)
	if err != nil {
		t.Fatal(err)
	}
	g.rtcpIn = b
	_, _, err = g.read.Read(make([]byte, 1500), nil)
	return err
}

// TestResenderAnswersNACK: a generic NACK (golden bytes: PT 205 FMT 1)
// for packets around the sequence numbers' wrap gets exactly those
// packets again, with their own sequence numbers, timestamps, markers,
// payload type and payloads; packets no longer held and other streams'
// NACKs send nothing.
func TestResenderAnswersNACK(t *testing.T) {
	g := newResendRig()
	for seq := uint16(65530); seq != 6; seq++ {
		g.send(t, seq)
	}
	g.got = nil
	// Sender SSRC 1, media SSRC 0x11223344; PID 65534 with BLP 0x0009
	// (65535 and 2, across the wrap); PID 5 with no BLP.
	if err := g.nack(t, "81cd0004"+"00000001"+"11223344"+"fffe0009"+"00050000"); err != nil {
		t.Fatal(err)
	}
	want := []uint16{65534, 65535, 2, 5}
	if len(g.got) != len(want) {
		t.Fatalf("resent %d packets, want %v", len(g.got), want)
	}
	for i, p := range g.got {
		seq := want[i]
		if p.h.SequenceNumber != seq || p.h.SSRC != rigSSRC || p.h.PayloadType != 102 || p.h.Version != 2 ||
			p.h.Timestamp != 9000*uint32(seq/2) || p.h.Marker != (seq%2 == 1) ||
			!bytes.Equal(p.payload, []byte{byte(seq >> 8), byte(seq)}) {
			t.Errorf("resend %d: %+v payload %x, want packet %d as sent", i, p.h, p.payload, seq)
		}
	}
	if resent, missed := g.r.counts(rigSSRC); resent != 4 || missed != 0 {
		t.Errorf("counts: resent %d missed %d, want 4 and 0", resent, missed)
	}

	// 1024 packets later, 65534's slot holds another packet.
	for seq := uint16(6); seq != 6+resendSlots; seq++ {
		g.send(t, seq)
	}
	g.got = nil
	if err := g.nack(t, "81cd0003"+"00000001"+"11223344"+"fffe0000"); err != nil {
		t.Fatal(err)
	}
	if len(g.got) != 0 {
		t.Errorf("resent %+v for a packet no longer held", g.got[0].h)
	}
	if _, missed := g.r.counts(rigSSRC); missed != 1 {
		t.Errorf("missed %d, want 1", missed)
	}
	// Another stream's NACK.
	if err := g.nack(t, "81cd0003"+"00000001"+"55667788"+"04000000"); err != nil {
		t.Fatal(err)
	}
	if len(g.got) != 0 {
		t.Errorf("resent %+v for another stream's NACK", g.got[0].h)
	}
}

// TestResenderBadRTCP: a datagram that does not parse is Read's error
// (the camera counts and skips it) and resends nothing.
func TestResenderBadRTCP(t *testing.T) {
	g := newResendRig()
	g.send(t, 1)
	g.got = nil
	for _, bad := range []string{"81cd0004000000011122", "ff", "81cd0009" + "00000001" + "11223344" + "00010000"} {
		if err := g.nack(t, bad); err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
	if len(g.got) != 0 {
		t.Errorf("resent on bad input: %+v", g.got)
	}
}

// TestResenderUnbind: a stream unbound is forgotten (its NACKs send
// nothing).
func TestResenderUnbind(t *testing.T) {
	g := newResendRig()
	g.send(t, 1)
	g.got = nil
	g.r.UnbindLocalStream(&interceptor.StreamInfo{SSRC: rigSSRC})
	if err := g.nack(t, "81cd0003"+"00000001"+"11223344"+"00010000"); err != nil {
		t.Fatal(err)
	}
	if len(g.got) != 0 {
		t.Errorf("resent %+v after unbind", g.got[0].h)
	}
}

// TestResenderHoldAllocs: holding a packet allocates nothing (it keeps
// the shared payload, no copy).
func TestResenderHoldAllocs(t *testing.T) {
	write := holdOne()
	if n := testing.AllocsPerRun(1000, write); n != 0 {
		t.Fatalf("%v allocations per packet, want 0", n)
	}
}

// BenchmarkResenderHold is the resender's cost per packet sent.
func BenchmarkResenderHold(b *testing.B) {
	write := holdOne()
	b.ReportAllocs()
	for b.Loop() {
		write()
	}
}

// holdOne returns a function that writes the next packet of a full-size
// stream through a resender into nothing.
func holdOne() func() {
	r := &resender{}
	w := r.BindLocalStream(&interceptor.StreamInfo{SSRC: 1}, interceptor.RTPWriterFunc(
		func(*rtp.Header, []byte, interceptor.Attributes) (int, error) { return 0, nil }))
	h := rtp.Header{Version: 2, SSRC: 1}
	payload := make([]byte, 1188)
	return func() {
		h.SequenceNumber++
		_, _ = w.Write(&h, payload, nil)
	}
}

// TestReportRTT: the round-trip time of a reception report (RFC 3550
// 6.4.1, in 1/65536 s), table-driven.
func TestReportRTT(t *testing.T) {
	now := time.Date(2026, 11, 26, 10, 0, 0, 500_000_000, time.UTC)
	mid := ntpMiddle(now)
	const ssrc = 42
	for _, tc := range []struct {
		name string
		r    rtcp.ReceptionReport
		want time.Duration
		ok   bool
	}{
		{"80 ms, 20 ms of it at the receiver", rtcp.ReceptionReport{SSRC: ssrc, LastSenderReport: mid - 80*65536/1000, Delay: 20 * 65536 / 1000}, 60 * time.Millisecond, true},
		{"no sender report yet", rtcp.ReceptionReport{SSRC: ssrc}, 0, false},
		{"another stream", rtcp.ReceptionReport{SSRC: 7, LastSenderReport: mid - 65536}, 0, false},
		{"negative (a report from the future)", rtcp.ReceptionReport{SSRC: ssrc, LastSenderReport: mid + 65536}, 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := reportRTT(tc.r, ssrc, now)
			if ok != tc.ok || (ok && (got-tc.want).Abs() > time.Millisecond) {
				t.Fatalf("got %v %v, want %v %v", got, ok, tc.want, tc.ok)
			}
		})
	}
	// The NTP middle word of a known instant: 1970 is 2208988800 s after
	// 1900; half a second is 0x8000.
	if got := ntpMiddle(time.Unix(0, 500_000_000)); got != uint32(2208988800&0xffff)<<16|0x8000 {
		t.Fatalf("ntpMiddle(1970 + 0.5 s) = %#x", got)
	}
}

// FuzzResenderRTCP: any RTCP the receiver sends (what the resender reads
// from the network) either fails to parse, with an error, or resends only
// packets that were sent, each exactly as it was sent; nothing panics.
func FuzzResenderRTCP(f *testing.F) {
	for _, seed := range []string{
		"81cd0004" + "00000001" + "11223344" + "fffe0009" + "00050000",                                        // NACK across the wrap
		"81cd0003" + "00000001" + "11223344" + "0010ffff",                                                     // NACK with every BLP bit
		"81c90007" + "00000001" + "11223344" + "00000000" + "00000000" + "00000000" + "00000000" + "00000000", // RR
		"81cd0003" + "00000001" + "55667788" + "00010000",                                                     // another stream
		"81cd0009" + "00000001" + "11223344" + "00010000",                                                     // length beyond the datagram
	} {
		b, err := hex.DecodeString(seed)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) > 1500 {
			return
		}
		g := newResendRig()
		for seq := uint16(65530); seq != 20; seq++ {
			g.send(t, seq)
		}
		g.got = nil
		g.rtcpIn = b
		if _, _, err := g.read.Read(make([]byte, 1500), nil); err != nil {
			if len(g.got) != 0 {
				t.Fatalf("resent %d packets from RTCP that failed to parse: %v", len(g.got), err)
			}
			return
		}
		for _, p := range g.got {
			seq := p.h.SequenceNumber
			if seq >= 20 && seq < 65530 {
				t.Fatalf("resent packet %d, never sent", seq)
			}
			if p.h.SSRC != rigSSRC || p.h.Timestamp != 9000*uint32(seq/2) || !bytes.Equal(p.payload, []byte{byte(seq >> 8), byte(seq)}) {
				t.Fatalf("resent %+v payload %x, not as sent", p.h, p.payload)
			}
		}
	})
}
