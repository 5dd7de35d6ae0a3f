package peer

import (
	"math"
	"testing"
	"time"

	"github.com/pion/interceptor"
	"github.com/pion/rtcp"
	"github.com/pion/rtp"
)

// The control law's steps, as the session makes them (every 250 ms).
const ctlStep = 250 * time.Millisecond

// ctlRun steps a control by hand on a fake clock: each step's signals come
// from feed, given the time since the run's start and the estimate of the
// previous step; it returns the estimate after each step.
func ctlRun(c *control, start time.Time, d time.Duration, feed func(t time.Duration, rate int) signals) []int {
	var out []int
	rate := c.rate
	for t := ctlStep; t <= d; t += ctlStep {
		now := start.Add(t)
		s := feed(t, rate)
		if s.fed.IsZero() {
			s.fed = now // fresh feedback unless the case says otherwise
		}
		if s.sentNow == 0 {
			s.sentNow = s.sent // a steady stream unless the case says otherwise
		}
		rate = c.update(now, s)
		out = append(out, rate)
	}
	return out
}

// clean is feedback from a link that carries everything: the delay trend
// normal, pion's delay-based rate stuck at delay (it climbs only ~10
// kbit/s a second from a backoff), 3 % random loss, and cameras that send
// 90 % of the estimate (Config.Headroom).
func clean(delay int) func(time.Duration, int) signals {
	return func(_ time.Duration, rate int) signals {
		return signals{delay: delay, loss: 0.03, sent: rate * 9 / 10}
	}
}

// backedOff returns a control that sat at 2 Mbit/s and was backed off to
// the floor by a burst of overuse and loss (pion's delay-based rate at
// 100 kbit/s, the sent rate collapsed), and the time of the burst's last
// step.
func backedOff(t *testing.T) (*control, time.Time) {
	t.Helper()
	c := newControl(2_000_000, 100_000, 20_000_000)
	start := time.Unix(1000, 0)
	ctlRun(&c, start, 3*time.Second, func(time.Duration, int) signals {
		return signals{delay: 2_000_000, loss: 0.03, sent: 750_000}
	})
	if c.rate != 2_000_000 {
		t.Fatalf("before the burst: %d, want 2000000 (the sent rate's headroom holds it)", c.rate)
	}
	end := start.Add(3 * time.Second)
	got := ctlRun(&c, end, time.Second, func(time.Duration, int) signals {
		return signals{delay: 100_000, overuse: true, loss: 0.2, sent: 100_000}
	})
	if got[len(got)-1] != 100_000 {
		t.Fatalf("after the burst: %v, want the floor 100000", got)
	}
	return &c, end.Add(time.Second)
}

func TestControlRecovers(t *testing.T) {
	for _, tc := range []struct {
		name   string
		feed   func(time.Duration, int) signals
		within time.Duration
		atLeast,
		atMost int // [bit/s], over the whole run
	}{
		// The recovery: from the floor back to 1 Mbit/s within 5 s of
		// clean feedback (calm for 0.5 s, then doubling a second), to
		// the recovery level (85 % of 2 Mbit/s) within 5 s, then 8 % a
		// second (1.7 x 1.08^3.2 = 2.18 Mbit/s at 8 s).
		{"back to 1 Mbit/s within 5 s", clean(100_000), 5 * time.Second, 1_000_000, 2_000_000},
		{"back to 85 % within 5 s", clean(100_000), 5 * time.Second, 1_700_000, 2_000_000},
		{"then 8 % a second", clean(100_000), 8 * time.Second, 2_100_000, 2_250_000},
		// The delay-based rate, if higher, is followed within the
		// sent rate's headroom.
		{"the delay-based rate", clean(1_500_000), 1250 * time.Millisecond, 1_500_000, 1_700_000},
		// A still scene: the cameras send 300 kbit/s whatever the
		// estimate; it rises to 2.5 x that + 50 kbit/s and no further.
		{"application-limited", func(time.Duration, int) signals {
			return signals{delay: 100_000, loss: 0.03, sent: 300_000}
		}, 10 * time.Second, 800_000, 800_000},
		// x264 repaying a keyframe: the video sends 45 % of the
		// estimate; the rise goes on.
		{"video at 45 % of the estimate", func(_ time.Duration, rate int) signals {
			return signals{delay: 100_000, loss: 0.03, sent: rate * 45 / 100}
		}, 5 * time.Second, 1_000_000, 2_000_000},
		// Overuse all along (or pion's rate still in "decrease"): no rise.
		{"overuse", func(time.Duration, int) signals {
			return signals{delay: 100_000, overuse: true, sent: 100_000}
		}, 10 * time.Second, 100_000, 100_000},
		// pion's delay-based rate falling to 1.5 x what the cameras
		// send (its increase stops there when they send little): no
		// backoff, the rise goes on to the sent rate's headroom (2.5 x
		// 187 kbit/s + 50 kbit/s when the doubling reaches it).
		{"delay-based rate at 1.5 x sent", func(t time.Duration, _ int) signals {
			return signals{delay: 300_000 - int(t/time.Millisecond)*10, sent: 200_000 - int(t/time.Millisecond)*5}
		}, 5 * time.Second, 400_000, 550_000},
		// pion's delay-based rate falling to 0.85 x what was sent, with
		// no overuse seen at the steps (each decrease came and went
		// between two): a backoff each step.
		{"delay-based decreases between steps", func(t time.Duration, _ int) signals {
			return signals{delay: 170_000 - int(t/time.Millisecond)*10, sent: 200_000 - int(t/time.Millisecond)*10}
		}, 5 * time.Second, 100_000, 100_000},
		// pion's rate at the floor (its increase stops at 1.5 x the
		// received rate) in the lull after a keyframe: the last 0.5 s
		// sent 11 kbit/s, the last 2 s 120 kbit/s. No backoff: the rise
		// goes on to 2.5 x 120 kbit/s + 50 kbit/s.
		{"a lull after a keyframe", func(t time.Duration, _ int) signals {
			d := 120_000 - int(t/time.Millisecond)*4
			return signals{delay: max(d, 100_000), sent: 120_000, sentNow: 11_000}
		}, 5 * time.Second, 350_000, 350_000},
		// Loss above 10 %: held at the floor.
		{"11 % loss", func(time.Duration, int) signals {
			return signals{delay: 100_000, loss: 0.11, sent: 100_000}
		}, 10 * time.Second, 100_000, 100_000},
		// No TWCC feedback (a blackout): no news, no rise.
		{"no feedback", func(time.Duration, int) signals {
			return signals{delay: 100_000, sent: 100_000, fed: time.Unix(1, 0)}
		}, 10 * time.Second, 100_000, 100_000},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, end := backedOff(t)
			got := ctlRun(c, end, tc.within, tc.feed)
			hi := 0
			for _, r := range got {
				hi = max(hi, r)
			}
			last := got[len(got)-1]
			if last < tc.atLeast || hi > tc.atMost {
				t.Errorf("after %v: %d (highest %d), want in [%d, %d]; course %v",
					tc.within, last, hi, tc.atLeast, tc.atMost, got)
			}
		})
	}
}

// An overuse seen in a lull (the last 0.5 s sent 50 kbit/s, pion's rate
// at the floor) backs off to 0.85 x the recent sent rate, not to the floor.
func TestControlOveruseInALull(t *testing.T) {
	c := newControl(2_000_000, 100_000, 20_000_000)
	now := time.Unix(1000, 0)
	got := c.update(now, signals{delay: 100_000, overuse: true, sent: 1_200_000, sentNow: 50_000, fed: now})
	if got != 1_020_000 {
		t.Errorf("overuse in a lull after 1.2 Mbit/s: %d, want 1020000", got)
	}
	// And the delay-based rate decides when it is the higher.
	got = c.update(now.Add(ctlStep), signals{delay: 900_000, overuse: true, sent: 1_000_000, fed: now})
	if got != 900_000 {
		t.Errorf("overuse, delay-based 900000, sent 1000000: %d, want 900000", got)
	}
}

// Calm must last calmFor: no rise within it.
func TestControlWaitsForCalm(t *testing.T) {
	c, end := backedOff(t)
	got := ctlRun(c, end, calmFor, clean(100_000))
	for i, r := range got {
		if r != 100_000 {
			t.Fatalf("step %d within calmFor: %d, want 100000 still; course %v", i, r, got)
		}
	}
}

// A backoff during the recovery lowers the recovery level to where the
// link refused more: above it, the estimate rises by 8 % a second only.
func TestControlBackoffDuringRecovery(t *testing.T) {
	c, end := backedOff(t)
	got := ctlRun(c, end, 4*time.Second, clean(100_000))
	at := got[len(got)-1]
	if at < 500_000 || at >= 1_700_000 {
		t.Fatalf("4 s into the recovery: %d, want between 500000 and the level", at)
	}
	end = end.Add(4 * time.Second)
	cut := at * 85 / 100
	ctlRun(c, end, ctlStep, func(time.Duration, int) signals {
		return signals{delay: cut, overuse: true, sent: at}
	})
	end = end.Add(ctlStep)
	got = ctlRun(c, end, 6*time.Second, clean(cut))
	level := int(recoveryShare * float64(at))
	// At the new level at once, then calm for 0.5 s and 8 % a second:
	// under level x 1.08^6 (the old level, 1.7 Mbit/s, would be reached
	// within a second by doubling).
	if hi := got[len(got)-1]; hi < level || hi > int(float64(level)*math.Pow(growth, 6)) {
		t.Errorf("6 s after a backoff at %d: %d, want from the new level %d to 8 %% a second above it; course %v",
			at, hi, level, got)
	}
}

// The loss part: above 10 % loss, down by half the loss at most every 200 ms
// (once a step); not faster than one change per step.
func TestControlLoss(t *testing.T) {
	c := newControl(2_500_000, 100_000, 20_000_000)
	now := time.Unix(1000, 0)
	step := func(d time.Duration, delay int, loss float64) int {
		now = now.Add(d)
		return c.update(now, signals{delay: delay, loss: loss, sent: c.rate, fed: now})
	}
	a := step(lossStep, 2_500_000, 0.3)
	b := step(lossStep, 2_500_000, 0.3)
	if a != 2_125_000 || b != 1_806_250 {
		t.Errorf("30 %% loss: %d then %d, want 2125000 then 1806250", a, b)
	}
	if got := step(lossStep/2, 2_500_000, 0.3); got != b {
		t.Errorf("a second change within a step: %d, want %d", got, b)
	}
	// Bounds: never under min, never over max.
	for range 100 {
		b = step(lossStep, 50_000, 0.9)
	}
	if b != 100_000 {
		t.Errorf("at 90 %% loss: %d, want the floor 100000", b)
	}
	for range 400 {
		b = step(ctlStep, 50_000_000, 0)
	}
	if b != 20_000_000 {
		t.Errorf("clean for 100 s with the delay-based rate over the maximum: %d, want the maximum", b)
	}
}

// The sent rate over the last sentSpan or so, from a running count.
func TestSentWindow(t *testing.T) {
	var w sentWindow
	start := time.Unix(1000, 0)
	if last, got := w.rate(start, 0); last != 0 || got != 0 {
		t.Errorf("first sample: %d, %d, want 0", last, got)
	}
	// 1 Mbit/s (125 kB/s) for 2 s in 250 ms steps.
	var last, got int
	for i := 1; i <= 8; i++ {
		last, got = w.rate(start.Add(time.Duration(i)*ctlStep), uint64(i)*125_000/4)
	}
	if last != 1_000_000 || got != 1_000_000 {
		t.Errorf("steady 1 Mbit/s: %d, %d", last, got)
	}
	// Then nothing for 250 ms: over the last 500 ms, half; over the
	// last 2 s, 7/8: the higher.
	if last, got = w.rate(start.Add(9*ctlStep), 8*125_000/4); last != 500_000 || got != 875_000 {
		t.Errorf("250 ms of nothing after 1 Mbit/s: %d, %d, want 500000 and 875000 (the last 2 s)", last, got)
	}
	// Then a burst, 62.5 kB in 250 ms: over the last 500 ms, 1 Mbit/s;
	// over the last 2 s, (6 x 31.25 + 62.5) kB = 1 Mbit/s too; another
	// burst: the last 500 ms (2 Mbit/s) is the higher.
	if _, got = w.rate(start.Add(10*ctlStep), 8*125_000/4+62_500); got != 1_000_000 {
		t.Errorf("a burst of 62.5 kB: %d, want 1000000", got)
	}
	if _, got = w.rate(start.Add(11*ctlStep), 8*125_000/4+125_000); got != 2_000_000 {
		t.Errorf("two bursts of 62.5 kB: %d, want 2000000 (the last 500 ms)", got)
	}
	start = start.Add(2 * ctlStep)
	// Calls faster than sentSpan/4 add no sample: the span stays.
	for i := range 100 {
		_, got = w.rate(start.Add(9*ctlStep+time.Duration(i)*time.Millisecond), 8*125_000/4)
	}
	if got < 250_000 {
		t.Errorf("100 calls within 100 ms: %d, the span shrank", got)
	}
}

// One step allocates nothing.
func TestControlAllocs(t *testing.T) {
	c := newControl(1_000_000, 100_000, 20_000_000)
	var w sentWindow
	now := time.Unix(1000, 0)
	var total uint64
	n := testing.AllocsPerRun(1000, func() {
		now = now.Add(ctlStep)
		total += 30_000
		s := signals{delay: 900_000, loss: 0.03, fed: now}
		s.sentNow, s.sent = w.rate(now, total)
		c.update(now, s)
	})
	if n != 0 {
		t.Errorf("%v allocations per step, want 0", n)
	}
}

func BenchmarkControlUpdate(b *testing.B) {
	c := newControl(1_000_000, 100_000, 20_000_000)
	var w sentWindow
	now := time.Unix(1000, 0)
	var total uint64
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		now = now.Add(ctlStep)
		total += 30_000
		s := signals{delay: 900_000, overuse: i%50 == 0, loss: 0.03, fed: now}
		s.sentNow, s.sent = w.rate(now, total)
		c.update(now, s)
	}
}

// The estimator's plumbing: packets that leave the pacer are counted for
// the sent rate, and TWCC feedback is noted as fresh.
func TestEstimatorCountsSentAndFeedback(t *testing.T) {
	e, err := newEstimator(1_000_000, 100_000, 20_000_000)
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := e.Close(); err != nil {
			t.Errorf("close: %v", err)
		}
	}()
	var wrote int
	w := e.AddStream(&interceptor.StreamInfo{SSRC: 7}, interceptor.RTPWriterFunc(
		func(h *rtp.Header, p []byte, _ interceptor.Attributes) (int, error) {
			wrote++
			return h.MarshalSize() + len(p), nil
		}))
	h := rtp.Header{Version: 2, SSRC: 7, SequenceNumber: 1}
	if _, err := w.Write(&h, make([]byte, 1000), nil); err != nil {
		t.Fatal(err)
	}
	if got, want := e.sent.Load(), uint64(h.MarshalSize()+1000); wrote != 1 || got != want {
		t.Errorf("after one packet out of a full bucket: %d written, %d bytes counted, want 1 and %d", wrote, got, want)
	}
	if e.fed.Load() != 0 {
		t.Fatal("feedback noted before any")
	}
	if err := e.WriteRTCP([]rtcp.Packet{&rtcp.ReceiverReport{}}, nil); err != nil {
		t.Fatal(err)
	}
	if e.fed.Load() != 0 {
		t.Error("a receiver report noted as congestion-control feedback")
	}
	fb := &rtcp.TransportLayerCC{MediaSSRC: 7, BaseSequenceNumber: 0, PacketStatusCount: 1,
		PacketChunks: []rtcp.PacketStatusChunk{&rtcp.RunLengthChunk{PacketStatusSymbol: rtcp.TypeTCCPacketReceivedSmallDelta, RunLength: 1}},
		RecvDeltas:   []*rtcp.RecvDelta{{Type: rtcp.TypeTCCPacketReceivedSmallDelta, Delta: 250}}}
	if err := e.WriteRTCP([]rtcp.Packet{fb}, nil); err != nil {
		t.Fatal(err)
	}
	if e.fed.Load() == 0 {
		t.Error("TWCC feedback not noted")
	}
}
