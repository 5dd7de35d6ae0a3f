package control

import (
	"testing"
	"time"
)

func TestDemand(t *testing.T) {
	// Each step: counts in, action out; the loop performs it (ok) or fails.
	type step struct {
		images, infos int
		want          Action
		ok            bool
	}
	steps := []step{
		{0, 0, Hold, true},  // nobody: stay off
		{1, 0, Start, true}, // first subscriber
		{2, 0, Hold, true},  // second one: already on
		{2, 1, Hold, true},
		{0, 1, Hold, true}, // camera_info alone keeps it on
		{0, 0, Stop, true}, // last one left
		{0, 0, Hold, true},
		{-3, 0, Hold, true},  // nonsense counts are zero
		{0, 2, Start, false}, // start fails (device busy)
		{0, 2, Start, true},  // retried on the next update
		{1, 2, Hold, true},
		{0, 0, Stop, true},
	}
	var d Demand
	for i, s := range steps {
		got := d.Update(s.images, s.infos)
		if got != s.want {
			t.Fatalf("step %d (%d,%d): %v, want %v", i, s.images, s.infos, got, s.want)
		}
		switch {
		case got == Start && s.ok:
			d.Started()
		case got == Start:
			d.Failed()
		case got == Stop:
			d.Stopped()
		}
		if d.Streaming() != (d.Wanted() && s.ok) {
			t.Fatalf("step %d: streaming %v, wanted %v", i, d.Streaming(), d.Wanted())
		}
	}
	// Device lost while streaming: Stopped, then Retry asks to start again.
	d.Update(1, 0)
	d.Started()
	d.Stopped()
	if a := d.Retry(); a != Start {
		t.Errorf("after loss with a subscriber, Retry = %v, want start", a)
	}
	for a, s := range map[Action]string{Hold: "hold", Start: "start", Stop: "stop", 9: "invalid"} {
		if a.String() != s {
			t.Errorf("%d.String() = %q", a, a.String())
		}
	}
}

func TestClockOffset(t *testing.T) {
	// Wall clock 1.7e9 s ahead of the monotonic clock; the second sample was
	// preempted (wide bracket) and must not be chosen.
	const off = int64(1_700_000_000_000_000_000)
	samples := []ClockSample{
		{RealBefore: off + 1000, Mono: 1500, RealAfter: off + 2000},   // span 1000, mid off+1500 -> offset off
		{RealBefore: off + 5000, Mono: 5000, RealAfter: off + 905000}, // span 900000 (preempted)
		{RealBefore: off + 3000, Mono: 3400, RealAfter: off + 3900},   // span 900, mid off+3450 -> off+50
		{RealBefore: 10, Mono: 0, RealAfter: 5},                       // inverted: ignored
	}
	o, ok := EstimateClockOffset(samples)
	if !ok || int64(o) != off+50 {
		t.Fatalf("offset %d, %v; want %d", int64(o), ok, off+50)
	}
	if _, ok := EstimateClockOffset(nil); ok {
		t.Error("offset from no samples")
	}
	// A buffer stamped at monotonic 12.345678 s.
	got := ClockOffset(off).Wall(12, 345678)
	want := time.Unix(0, off+12_345_678_000)
	if !got.Equal(want) {
		t.Errorf("Wall = %v, want %v", got, want)
	}
}

func TestBackoff(t *testing.T) {
	b := Backoff{Min: 100 * time.Millisecond, Max: time.Second}
	want := []time.Duration{100, 200, 400, 800, 1000, 1000}
	for i, w := range want {
		if got := b.Next(); got != w*time.Millisecond {
			t.Fatalf("wait %d = %v, want %v", i, got, w*time.Millisecond)
		}
	}
	b.Reset()
	if got := b.Next(); got != 100*time.Millisecond {
		t.Errorf("after Reset: %v", got)
	}
	var z Backoff
	if got := z.Next(); got != 100*time.Millisecond {
		t.Errorf("zero Backoff first wait %v", got)
	}
}

func TestSequenceGap(t *testing.T) {
	cases := []struct {
		last, seq uint32
		want      uint64
	}{
		{0, 1, 0}, {5, 6, 0}, {5, 8, 2}, {0xffffffff, 0, 0}, {0xfffffffe, 1, 2},
		{7, 7, 0}, // repeated number
		{9, 3, 0}, // counter restarted
		{0, 1 << 31, 0},
	}
	for _, tc := range cases {
		if got := SequenceGap(tc.last, tc.seq); got != tc.want {
			t.Errorf("SequenceGap(%d, %d) = %d, want %d", tc.last, tc.seq, got, tc.want)
		}
	}
}
