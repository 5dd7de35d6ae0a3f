package peer

import (
	"testing"
	"time"

	"github.com/pion/interceptor"
	"github.com/pion/rtp"
)

// pacerRig is a pacer on a fake clock whose timer the test fires.
type pacerRig struct {
	p     *pacer
	clock time.Time
	due   time.Duration // the armed timer's delay, 0 if none
	fire  func()
	got   []uint16 // sequence numbers written, in order
	at    []time.Duration
	start time.Time
}

func newPacerRig(bps int) *pacerRig {
	r := &pacerRig{clock: time.Unix(1000, 0)}
	r.start = r.clock
	r.p = newPacer(bps)
	r.p.now = func() time.Time { return r.clock }
	r.p.after = func(d time.Duration, f func()) *time.Timer {
		r.due, r.fire = d, f
		t := time.NewTimer(time.Hour)
		t.Stop()
		return t
	}
	r.p.AddStream(7, interceptor.RTPWriterFunc(func(h *rtp.Header, _ []byte, _ interceptor.Attributes) (int, error) {
		r.got = append(r.got, h.SequenceNumber)
		r.at = append(r.at, r.clock.Sub(r.start))
		return 0, nil
	}))
	return r
}

// step advances the clock to the armed timer and fires it; false if none.
func (r *pacerRig) step() bool {
	if r.fire == nil {
		return false
	}
	f := r.fire
	r.clock = r.clock.Add(r.due)
	r.due, r.fire = 0, nil
	f()
	return true
}

func (r *pacerRig) write(t *testing.T, seq uint16, size int) {
	t.Helper()
	if _, err := r.p.Write(&rtp.Header{SSRC: 7, SequenceNumber: seq}, make([]byte, size), nil); err != nil {
		t.Fatal(err)
	}
}

// TestPacerSpreadsABurst: at 1 Mbit/s (1.5 Mbit/s paced) a 24 kB burst
// in 20 packets (less than the 200 ms of queue the pacer allows) goes out
// in order over about (24e3 - 1500)*8/1.5e6 = 0.12 s, the first ones at
// once; then the bucket is idle and arms no timer.
func TestPacerSpreadsABurst(t *testing.T) {
	r := newPacerRig(1_000_000)
	for i := range 20 {
		r.write(t, uint16(i), 1200)
	}
	if len(r.got) == 0 {
		t.Fatal("nothing sent at once from a full bucket")
	}
	immediate := len(r.got)
	for r.step() {
	}
	if len(r.got) != 20 {
		t.Fatalf("sent %d of 20", len(r.got))
	}
	for i, s := range r.got {
		if s != uint16(i) {
			t.Fatalf("order %v", r.got)
		}
	}
	last := r.at[len(r.at)-1]
	want := time.Duration(float64(20*(1200+12)-1500) * 8 / 1.5e6 * float64(time.Second))
	if last < want*9/10 || last > want*11/10 {
		t.Errorf("burst took %v, want about %v", last, want)
	}
	t.Logf("%d packets at once, the last at %v", immediate, last)
	if r.fire != nil {
		t.Error("a timer armed with nothing to send")
	}
}

// TestPacerBoundsQueueDelay: at the estimate's floor (100 kbit/s) a 24 kB
// keyframe (after a blackout) would wait 24e3*8/150e3 = 1.3 s at the
// paced rate; the pacer drains it within its 200 ms instead.
func TestPacerBoundsQueueDelay(t *testing.T) {
	r := newPacerRig(100_000)
	for i := range 20 {
		r.write(t, uint16(i), 1200)
	}
	for r.step() {
	}
	if len(r.got) != 20 {
		t.Fatalf("sent %d of 20", len(r.got))
	}
	if last := r.at[len(r.at)-1]; last > maxQueueDelay+20*time.Millisecond {
		t.Fatalf("the keyframe took %v to go out, want <= %v", last, maxQueueDelay)
	}
}

// TestPacerQuietStreamPassesThrough: a 30 fps stream well under the rate
// never waits: every packet goes out in the Write call, no timer armed.
func TestPacerQuietStreamPassesThrough(t *testing.T) {
	r := newPacerRig(1_000_000)
	seq := uint16(0)
	for frame := range 30 {
		r.clock = r.start.Add(time.Duration(frame) * time.Second / 30)
		for range 2 {
			r.write(t, seq, 1000)
			seq++
		}
		if len(r.got) != int(seq) || r.fire != nil {
			t.Fatalf("frame %d: %d of %d sent, timer armed %v", frame, len(r.got), seq, r.fire != nil)
		}
	}
}

// TestPacerFollowsTheRate: a lower target stretches the same burst.
func TestPacerFollowsTheRate(t *testing.T) {
	took := func(bps int) time.Duration {
		r := newPacerRig(1_000_000)
		r.p.SetTargetBitrate(bps)
		for i := range 10 { // 12 kB: within the queue's 200 ms at either rate
			r.write(t, uint16(i), 1200)
		}
		for r.step() {
		}
		return r.at[len(r.at)-1]
	}
	fast, slow := took(2_000_000), took(500_000)
	if slow < 3*fast {
		t.Errorf("at 0.5 Mbit/s the burst took %v, at 2 Mbit/s %v: want about 4x", slow, fast)
	}
}

// held counts Retain and Release calls, as the NACK responder's Resend.
type held struct{ retained, sent, dropped int }

func (h *held) Retain() { h.retained++ }
func (h *held) Release(sent bool) {
	if sent {
		h.sent++
	} else {
		h.dropped++
	}
}

type heldKey struct{}

// TestPacerRetainsQueuedResends: a retransmission that has to wait is
// held until it went out; Close releases what still waits as not sent,
// and Write after Close fails.
func TestPacerRetainsQueuedResends(t *testing.T) {
	r := newPacerRig(100_000)
	r.write(t, 0, 1500) // spends the credit (a full bucket holds 1500 bytes at this rate)
	a, b := &held{}, &held{}
	if _, err := r.p.Write(&rtp.Header{SSRC: 7, SequenceNumber: 1}, make([]byte, 1200), interceptor.Attributes{heldKey{}: a}); err != nil {
		t.Fatal(err)
	}
	if _, err := r.p.Write(&rtp.Header{SSRC: 7, SequenceNumber: 2}, make([]byte, 1200), interceptor.Attributes{heldKey{}: b}); err != nil {
		t.Fatal(err)
	}
	if a.retained != 1 || b.retained != 1 {
		t.Fatalf("queued resends not retained: %+v %+v", a, b)
	}
	r.step()
	if a.sent != 1 || b.sent+b.dropped != 0 {
		t.Fatalf("after one drain: %+v %+v (want the first sent, the second still waiting)", a, b)
	}
	if err := r.p.Close(); err != nil {
		t.Fatal(err)
	}
	if b.dropped != 1 {
		t.Fatalf("close did not release the waiting resend: %+v", b)
	}
	if _, err := r.p.Write(&rtp.Header{SSRC: 7}, nil, nil); err == nil {
		t.Fatal("write after close accepted")
	}
}

// TestPacerUnknownStream: a packet of a stream never added is an error,
// not a panic.
func TestPacerUnknownStream(t *testing.T) {
	p := newPacer(1_000_000)
	if _, err := p.Write(&rtp.Header{SSRC: 9}, make([]byte, 10), nil); err == nil {
		t.Fatal("unknown SSRC accepted")
	}
}

// BenchmarkPacerPassThrough: the path of a packet that finds credit (the
// steady state of a stream under its estimate) allocates nothing.
func BenchmarkPacerPassThrough(b *testing.B) {
	p := newPacer(10_000_000)
	clock := time.Unix(1000, 0)
	p.now = func() time.Time { clock = clock.Add(time.Millisecond); return clock } // 1200 B/ms: 9.6 of 15 Mbit/s
	p.AddStream(7, interceptor.RTPWriterFunc(func(*rtp.Header, []byte, interceptor.Attributes) (int, error) { return 0, nil }))
	h := &rtp.Header{SSRC: 7}
	payload := make([]byte, 1200)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := p.Write(h, payload, nil); err != nil {
			b.Fatal(err)
		}
	}
}
