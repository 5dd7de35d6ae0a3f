package peer

import (
	"maps"
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
	drain := r.p.drain
	r.p.arm = func(d time.Duration) { r.due, r.fire = d, drain }
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
// in order, the first 7.5 kB (40 ms of credit) at once and the rest over
// about (24e3 - 7.5e3)*8/1.5e6 = 88 ms; then the bucket is idle and arms
// no timer.
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
	want := time.Duration(float64(20*(1200+12)-7500) * 8 / 1.5e6 * float64(time.Second))
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

// TestPacerQuietStreamPassesThrough: a 30 fps stream at its estimate
// (1 Mbit/s: pictures of 4.4 kB, 4 packets) never waits: every packet
// goes out in the Write call, no timer armed.
func TestPacerQuietStreamPassesThrough(t *testing.T) {
	r := newPacerRig(1_000_000)
	seq := uint16(0)
	for frame := range 30 {
		r.clock = r.start.Add(time.Duration(frame) * time.Second / 30)
		for range 4 {
			r.write(t, seq, 1100)
			seq++
		}
		if len(r.got) != int(seq) || r.fire != nil {
			t.Fatalf("frame %d: %d of %d sent, timer armed %v", frame, len(r.got), seq, r.fire != nil)
		}
	}
}

// TestPacerBurstCap: at 20 Mbit/s, 40 ms of credit would be 150 kB; the
// burst that goes out at once stops at maxBurst (63 kB), the rest waits.
func TestPacerBurstCap(t *testing.T) {
	r := newPacerRig(20_000_000)
	for i := range 100 {
		r.write(t, uint16(i), 1200)
	}
	// Every packet that finds credit above 0 goes: the last one overdraws.
	if want := maxBurst/(1200+12) + 1; len(r.got) != want {
		t.Fatalf("%d packets at once, want %d (63 kB of credit)", len(r.got), want)
	}
	for r.step() {
	}
	if len(r.got) != 100 {
		t.Fatalf("sent %d of 100", len(r.got))
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

type attrKey struct{}

// TestPacerAttributes: a queued packet's attributes go inward with it as
// given; a packet that came without any gets the pacer's one map, emptied
// of what the previous packet's writer set (GCC sets its extension id in
// every packet's); Write after Close fails.
func TestPacerAttributes(t *testing.T) {
	r := newPacerRig(100_000)
	var got []interceptor.Attributes
	r.p.AddStream(7, interceptor.RTPWriterFunc(func(h *rtp.Header, _ []byte, a interceptor.Attributes) (int, error) {
		got = append(got, maps.Clone(a))
		if a != nil {
			a[attrKey{}] = "set inward"
		}
		return 0, nil
	}))
	r.write(t, 0, 1500) // spends the credit (a full bucket holds 1500 bytes at this rate)
	if _, err := r.p.Write(&rtp.Header{SSRC: 7, SequenceNumber: 1}, make([]byte, 1200), interceptor.Attributes{attrKey{}: "mine"}); err != nil {
		t.Fatal(err)
	}
	r.write(t, 2, 1200)
	for r.step() {
	}
	if len(got) != 3 {
		t.Fatalf("%d packets written, want 3", len(got))
	}
	if got[0] == nil || len(got[0]) != 0 {
		t.Errorf("first packet's attributes %v, want an empty map", got[0])
	}
	if got[1][attrKey{}] != "mine" {
		t.Errorf("queued packet's attributes %v, want its own", got[1])
	}
	if got[2] == nil || len(got[2]) != 0 {
		t.Errorf("third packet's attributes %v, want an empty map (not what was set inward before)", got[2])
	}
	if err := r.p.Close(); err != nil {
		t.Fatal(err)
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

// TestPacerQueuedPacketIntact: a packet that waits goes out with the
// header (extensions included) and payload it was written with, though
// the writer reused both meanwhile.
func TestPacerQueuedPacketIntact(t *testing.T) {
	r := newPacerRig(100_000)
	var got []rtp.Packet
	r.p.AddStream(7, interceptor.RTPWriterFunc(func(h *rtp.Header, payload []byte, _ interceptor.Attributes) (int, error) {
		got = append(got, rtp.Packet{Header: h.Clone(), Payload: append([]byte(nil), payload...)})
		return 0, nil
	}))
	h := &rtp.Header{Version: 2, SSRC: 7, SequenceNumber: 40, Timestamp: 9000, Marker: true, PayloadType: 102}
	if err := h.SetExtension(3, []byte{0xab, 0xcd}); err != nil {
		t.Fatal(err)
	}
	payload := make([]byte, 1500)
	for i := range payload {
		payload[i] = byte(i)
	}
	r.write(t, 0, 1500) // spends the credit
	if _, err := r.p.Write(h, payload, nil); err != nil {
		t.Fatal(err)
	}
	h.SequenceNumber, h.Marker = 41, false // the caller's next packet
	_ = h.SetExtension(3, []byte{0, 0})
	clear(payload)
	for r.step() {
	}
	if len(got) != 2 {
		t.Fatalf("%d packets out, want 2", len(got))
	}
	q := got[1]
	if q.SequenceNumber != 40 || q.Timestamp != 9000 || !q.Marker || q.PayloadType != 102 || q.SSRC != 7 {
		t.Errorf("queued header came out as %+v", q.Header)
	}
	if e := q.GetExtension(3); len(e) != 2 || e[0] != 0xab || e[1] != 0xcd {
		t.Errorf("queued extension came out as %x", e)
	}
	for i, b := range q.Payload {
		if b != byte(i) {
			t.Fatalf("queued payload differs at byte %d (%d bytes)", i, len(q.Payload))
		}
	}
}

// TestPacerQueueAllocs: once its buffers exist, a burst that waits for
// the timer allocates nothing per packet (the steady state of a session:
// each picture's last packets wait).
func TestPacerQueueAllocs(t *testing.T) {
	r := newPacerRig(1_000_000)
	r.p.AddStream(7, interceptor.RTPWriterFunc(func(*rtp.Header, []byte, interceptor.Attributes) (int, error) { return 0, nil }))
	h := &rtp.Header{Version: 2, SSRC: 7}
	_ = h.SetExtension(3, extension)
	payload := make([]byte, 1100)
	burst := func() {
		for range 10 { // 11 kB: over the bucket's 7.5 kB of credit, the rest waits
			if _, err := r.p.Write(h, payload, nil); err != nil {
				t.Fatal(err)
			}
		}
		for r.step() {
		}
		r.clock = r.clock.Add(33 * time.Millisecond)
	}
	burst()
	if n := testing.AllocsPerRun(50, burst); n != 0 {
		t.Errorf("%v allocations per burst, want 0", n)
	}
}

// BenchmarkPacerBurst: a picture's 10 packets (above the estimate of
// 1 Mbit/s) of which the last ones wait for the timer (the rig fires it),
// per picture.
func BenchmarkPacerBurst(b *testing.B) {
	r := newPacerRig(1_000_000)
	r.p.AddStream(7, interceptor.RTPWriterFunc(func(*rtp.Header, []byte, interceptor.Attributes) (int, error) { return 0, nil }))
	h := &rtp.Header{Version: 2, SSRC: 7}
	_ = h.SetExtension(3, extension)
	payload := make([]byte, 1100)
	b.ReportAllocs()
	for b.Loop() {
		for range 10 {
			if _, err := r.p.Write(h, payload, nil); err != nil {
				b.Fatal(err)
			}
		}
		for r.step() {
		}
		r.clock = r.clock.Add(33 * time.Millisecond)
	}
}

// TestPacerLargerPacketThanItsBuffers: a waiting packet larger than the
// buffers kept from earlier ones gets a buffer of its own, whole.
func TestPacerLargerPacketThanItsBuffers(t *testing.T) {
	r := newPacerRig(100_000)
	var sizes []int
	r.p.AddStream(7, interceptor.RTPWriterFunc(func(_ *rtp.Header, payload []byte, _ interceptor.Attributes) (int, error) {
		sizes = append(sizes, len(payload))
		return 0, nil
	}))
	for i, size := range []int{1500, 100, 100, 3000} { // the first spends the credit
		if _, err := r.p.Write(&rtp.Header{Version: 2, SSRC: 7, SequenceNumber: uint16(i)}, make([]byte, size), nil); err != nil {
			t.Fatal(err)
		}
		for size == 100 && r.step() { // the small ones go out: their buffers are kept
		}
	}
	for r.step() {
	}
	if len(sizes) != 4 || sizes[3] != 3000 {
		t.Fatalf("payloads out %v, want the last of 3000 bytes", sizes)
	}
}

// TestPacerQueueThatNeverEmpties: a stream that always has a packet
// waiting (written as fast as the pacer sends) keeps the queue's array
// bounded: the sent entries at its front are let go, not kept for the
// session's life.
func TestPacerQueueThatNeverEmpties(t *testing.T) {
	r := newPacerRig(1_000_000)
	for i := range 200 { // a backlog first
		r.write(t, uint16(i), 1200)
	}
	emptied := 0
	for i := range 20_000 {
		r.write(t, uint16(200+i), 1200)
		if !r.step() {
			t.Fatalf("packet %d: no timer armed with %d bytes waiting", i, r.p.queued)
		}
		if r.p.head == 0 && len(r.p.queue) == 0 {
			emptied++
		}
	}
	if emptied != 0 {
		t.Fatalf("the queue emptied %d times: the test needs one that never does", emptied)
	}
	if c := cap(r.p.queue); c > 2*maxQueue {
		t.Fatalf("queue array of %d entries for %d waiting after 20 000 packets: the sent ones are kept", c, len(r.p.queue)-r.p.head)
	}
	t.Logf("%d packets sent, %d waiting, array %d", len(r.got), len(r.p.queue)-r.p.head, cap(r.p.queue))
}

// TestPacerQueuedBytes: what the session reads as its queue (queued,
// queueDelay) is what waits in the pacer, also after the queue
// overflowed and dropped its oldest packets (two counters around the
// pacer, which this replaced, kept a dropped packet as queued for good).
func TestPacerQueuedBytes(t *testing.T) {
	r := newPacerRig(100_000)
	var own sessionInterceptors
	own.pacer.Store(r.p)
	own.target.Store(100_000)
	r.write(t, 0, 1500) // spends the credit
	for i := range maxQueue + 100 {
		r.write(t, uint16(i+1), 1000)
	}
	want := maxQueue * (1000 + 12)
	if got := own.queued(); got != want {
		t.Fatalf("queued %d bytes after the overflow, want %d (the %d waiting)", got, want, maxQueue)
	}
	if d, want := own.queueDelay(), time.Duration(float64(want)*8/150_000*float64(time.Second)); (d - want).Abs() > time.Millisecond {
		t.Fatalf("queue delay %v, want %v at 1.5 x 100 kbit/s", d, want)
	}
	for r.step() {
	}
	if got := own.queued(); got != 0 {
		t.Fatalf("queued %d bytes after draining", got)
	}
}
