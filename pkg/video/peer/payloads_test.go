package peer

import (
	"bytes"
	"testing"
	"time"

	"github.com/pion/rtp"

	"github.com/telebridge/telebridge/pkg/video"
)

// headerLog records the headers and payloads written to it.
type headerLog struct {
	headers  []rtp.Header
	payloads [][]byte
}

func (l *headerLog) WriteRTP(p *rtp.Packet) error {
	// What the interceptors do to the header: it must not reach the
	// next packet.
	err := p.Header.SetExtension(3, extension)
	l.headers = append(l.headers, p.Header.Clone())
	l.payloads = append(l.payloads, p.Payload)
	return err
}

// extension is a header extension's payload, as an interceptor sets one.
var extension = []byte{1, 2}

// discard counts packets and keeps nothing.
type discard struct{ n int }

func (d *discard) WriteRTP(p *rtp.Packet) error {
	d.n++
	return p.Header.SetExtension(3, extension)
}

// accessUnit returns an IDR access unit (SPS, PPS, an IDR slice of size
// bytes) in a new buffer, as the encoder makes one.
func accessUnit(size int) video.AccessUnit {
	au := []byte{0, 0, 0, 1, 0x67, 0x42, 0xe0, 0x1f, 0, 0, 0, 1, 0x68, 0xce, 0x38, 0x80, 0, 0, 0, 1, 0x65}
	for i := range size {
		au = append(au, byte(i%251)+1)
	}
	return video.AccessUnit{Data: au, Key: true, Duration: time.Second / 30}
}

func TestPayloadsShared(t *testing.T) {
	var p payloads
	src := video.Source(nil)
	a := p.acquire(src)
	b := p.acquire(src)
	if a != b {
		t.Fatal("two users of one Source got two packetizers")
	}
	au := accessUnit(3000)
	first := a.of(au)
	if len(first) != 4 { // STAP-A (SPS+PPS), then the IDR in three FU-A
		t.Fatalf("%d payloads, want 4", len(first))
	}
	for i, pl := range first {
		if len(pl) > rtpMTU-12 {
			t.Errorf("payload %d: %d bytes over the MTU", i, len(pl))
		}
	}
	again := b.of(au)
	if &again[0][0] != &first[0][0] {
		t.Error("the same access unit was packetized twice")
	}
	other := accessUnit(3000) // equal bytes, another unit
	if o := a.of(other); &o[0][0] == &first[0][0] {
		t.Error("another access unit got the first one's payloads")
	}
	// A lagging session still finds an older unit among the recent ones.
	for range recentUnits - 2 {
		a.of(accessUnit(100))
	}
	if late := b.of(au); &late[0][0] != &first[0][0] {
		t.Error("a unit within recentUnits was packetized again")
	}
	p.release(src)
	p.release(src)
	if len(p.sources) != 0 {
		t.Errorf("%d sources kept after the last release", len(p.sources))
	}
}

func TestStamper(t *testing.T) {
	s := newStamper()
	seq0, ts0 := s.seq, s.ts
	var l headerLog
	pls := [][]byte{{1}, {2}, {3}}
	if err := s.write(&l, pls, 100*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	if err := s.write(&l, pls[:1], 100*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	for i, h := range l.headers {
		if h.Version != 2 || h.SequenceNumber != seq0+uint16(i) {
			t.Errorf("packet %d: version %d sequence %d, want 2 and %d", i, h.Version, h.SequenceNumber, seq0+uint16(i))
		}
		if len(h.Extensions) != 1 {
			t.Errorf("packet %d: %d extensions, want only the one its writer set", i, len(h.Extensions))
		}
		if want := pls[i%3]; !bytes.Equal(l.payloads[i], want) {
			t.Errorf("packet %d: payload %v", i, l.payloads[i])
		}
	}
	marks := []bool{false, false, true, true}
	stamps := []uint32{ts0, ts0, ts0, ts0 + 9000}
	for i := range marks {
		if l.headers[i].Marker != marks[i] || l.headers[i].Timestamp != stamps[i] {
			t.Errorf("packet %d: marker %v timestamp %d, want %v and %d", i, l.headers[i].Marker, l.headers[i].Timestamp, marks[i], stamps[i])
		}
	}
	// A duration that is not a whole number of ticks (50 us: 4.5 ticks):
	// the fraction is carried, so two units advance 9 ticks, not 8.
	s = newStamper()
	ts0 = s.ts
	for range 2 {
		_ = s.write(&discard{}, pls, 50*time.Microsecond)
	}
	if got := s.ts - ts0; got != 9 {
		t.Errorf("two units of 4.5 ticks advanced %d ticks, want 9", got)
	}
}

func TestStamperAllocs(t *testing.T) {
	s := newStamper()
	pls := accessUnitPayloads()
	var d discard
	if n := testing.AllocsPerRun(100, func() { _ = s.write(&d, pls, time.Second/30) }); n != 0 {
		t.Errorf("%v allocations per access unit, want 0", n)
	}
}

func accessUnitPayloads() [][]byte {
	var p payloads
	return p.acquire(nil).of(accessUnit(3000))
}

// BenchmarkStamperWrite is one session's part of sending an access unit
// of 4 packets (the payloads are shared): headers only.
func BenchmarkStamperWrite(b *testing.B) {
	b.ReportAllocs()
	s := newStamper()
	pls := accessUnitPayloads()
	var d discard
	for b.Loop() {
		_ = s.write(&d, pls, time.Second/30)
	}
}

// BenchmarkPayloadsShared is the second and later session's lookup of an
// access unit's payloads.
func BenchmarkPayloadsShared(b *testing.B) {
	b.ReportAllocs()
	var p payloads
	sp := p.acquire(nil)
	au := accessUnit(3000)
	sp.of(au)
	for b.Loop() {
		sp.of(au)
	}
}
