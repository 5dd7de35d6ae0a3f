package peer

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"sync/atomic"
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
	clock  time.Time
	target atomic.Int64
	w      interceptor.RTPWriter // the bound stream's writer (outward end)
	read   interceptor.RTCPReader
	rtcpIn []byte
	got    []sentPkt
}

const rigSSRC = 0x11223344

func newResendRig() *resendRig {
	g := &resendRig{r: &resender{}, clock: time.Unix(1000, 0)}
	g.target.Store(1_000_000)
	g.r.target, g.r.now = &g.target, func() time.Time { return g.clock }
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

// nackResendsNothing hands the resender the NACK in hex and fails the
// test if it resends anything (what: the case, for the message).
func (g *resendRig) nackResendsNothing(t *testing.T, hexBytes, what string) {
	t.Helper()
	g.got = nil
	if err := g.nack(t, hexBytes); err != nil {
		t.Fatal(err)
	}
	if len(g.got) != 0 {
		t.Errorf("resent %+v for %s", g.got[0].h, what)
	}
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
	if c := g.r.counts(rigSSRC); c.asked != 4 || c.resent != 4 || c.missed != 0 || c.skipped != 0 {
		t.Errorf("counts %+v, want 4 asked and resent", c)
	}

	// 1024 packets later, 65534's slot holds another packet.
	for seq := uint16(6); seq != 6+resendSlots; seq++ {
		g.send(t, seq)
	}
	g.nackResendsNothing(t, "81cd0003"+"00000001"+"11223344"+"fffe0000", "a packet no longer held")
	if c := g.r.counts(rigSSRC); c.asked != 5 || c.missed != 1 {
		t.Errorf("counts %+v, want 5 asked, 1 missed", c)
	}
	g.nackResendsNothing(t, "81cd0003"+"00000001"+"55667788"+"04000000", "another stream's NACK")
}

// TestResenderOncePerRoundTrip: a packet asked for again sooner than the
// round trip (from a reception report) plus the pacer's queue delay plus
// resendGap after its last retransmission is not sent again (a page asks
// every 100 ms whatever the round trip); later it is.
func TestResenderOncePerRoundTrip(t *testing.T) {
	g := newResendRig()
	var queued time.Duration
	g.r.queueDelay = func() time.Duration { return queued }
	g.send(t, 5)
	// A receiver report on the stream: 50 ms round trip.
	rr := &rtcp.ReceiverReport{SSRC: 1, Reports: []rtcp.ReceptionReport{{SSRC: rigSSRC,
		LastSenderReport: ntpMiddle(g.clock) - 50*65536/1000}}}
	b, err := rr.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if err := g.nack(t, hex.EncodeToString(b)); err != nil {
		t.Fatal(err)
	}
	if c := g.r.counts(rigSSRC); (c.rtt - 50*time.Millisecond).Abs() > time.Millisecond {
		t.Fatalf("RTT %v from the report, want 50 ms", c.rtt)
	}
	nack5 := "81cd0003" + "00000001" + "11223344" + "00050000"
	for _, step := range []struct {
		after  time.Duration
		queued time.Duration // the pacer's queue delay
		sent   bool
	}{
		{0, 0, true},
		{20 * time.Millisecond, 0, false},                      // within 55 ms of the last
		{36 * time.Millisecond, 0, true},                       // 56 ms after it
		{60 * time.Millisecond, 100 * time.Millisecond, false}, // 60 ms after, but the queue adds 100 ms
		{100 * time.Millisecond, 100 * time.Millisecond, true}, // 160 ms after the last
	} {
		g.clock = g.clock.Add(step.after)
		queued = step.queued
		g.got = nil
		if err := g.nack(t, nack5); err != nil {
			t.Fatal(err)
		}
		if (len(g.got) == 1) != step.sent {
			t.Fatalf("%+v: resent %d packets, want sent=%v", step, len(g.got), step.sent)
		}
	}
	if c := g.r.counts(rigSSRC); c.asked != 5 || c.resent != 3 || c.skipped != 2 {
		t.Errorf("counts %+v, want 5 asked, 3 resent, 2 skipped", c)
	}
}

// TestResenderBudget: retransmissions together take at most resendShare
// of the estimate (a bucket resendBurst deep, at least one full packet).
func TestResenderBudget(t *testing.T) {
	g := newResendRig()
	g.target.Store(100_000) // 3 125 bytes a second for retransmissions, a 1 500-byte bucket
	w := g.w
	for seq := range uint16(10) {
		h := rtp.Header{Version: 2, SequenceNumber: seq, SSRC: rigSSRC}
		if _, err := w.Write(&h, make([]byte, 1000), nil); err != nil {
			t.Fatal(err)
		}
	}
	g.got = nil
	all := "81cd0003" + "00000001" + "11223344" + "000001ff" // 0 to 9
	if err := g.nack(t, all); err != nil {
		t.Fatal(err)
	}
	if len(g.got) != 1 {
		t.Fatalf("resent %d packets of 1 012 bytes from a 1 500-byte budget, want 1", len(g.got))
	}
	g.clock = g.clock.Add(time.Second) // 3 125 more bytes, capped at the bucket's 1 500
	g.got = nil
	if err := g.nack(t, all); err != nil {
		t.Fatal(err)
	}
	if len(g.got) != 1 || g.got[0].h.SequenceNumber != 0 {
		t.Fatalf("after 1 s resent %v, want packet 0 alone (due again: no round trip known; the budget holds one)", seqs(g.got))
	}
	if c := g.r.counts(rigSSRC); c.asked != 20 || c.resent != 2 || c.skipped != 18 {
		t.Errorf("counts %+v, want 20 asked, 2 resent, 18 skipped", c)
	}
}

func seqs(ps []sentPkt) string {
	out := ""
	for _, p := range ps {
		out += fmt.Sprint(p.h.SequenceNumber, " ")
	}
	return out
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
	g.r.UnbindLocalStream(&interceptor.StreamInfo{SSRC: rigSSRC})
	g.nackResendsNothing(t, "81cd0003"+"00000001"+"11223344"+"00010000", "a NACK after unbind")
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
	for _, tc := range []struct {
		name string
		r    rtcp.ReceptionReport
		want time.Duration
		ok   bool
	}{
		{"80 ms, 20 ms of it at the receiver", rtcp.ReceptionReport{LastSenderReport: mid - 80*65536/1000, Delay: 20 * 65536 / 1000}, 60 * time.Millisecond, true},
		{"under one unit: one unit, not none", rtcp.ReceptionReport{LastSenderReport: mid}, time.Second / 65536, true},
		{"no sender report yet", rtcp.ReceptionReport{}, 0, false},
		{"negative (a report from the future)", rtcp.ReceptionReport{LastSenderReport: mid + 65536}, 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := reportRTT(tc.r, now)
			if ok != tc.ok || (ok && (got-tc.want).Abs() > 100*time.Microsecond) {
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
