package impair

import (
	"bytes"
	"errors"
	"math"
	"testing"
	"time"
)

// decide runs n packets of size bytes through a fresh chain.
func decide(t *testing.T, im Impairment, seed uint64, n, size int) []Decision {
	t.Helper()
	c, err := NewChain(im, seed)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]Decision, n)
	for i := range out {
		out[i] = c.Decide(size)
	}
	return out
}

func TestChainStatistics(t *testing.T) {
	const n = 20000
	cases := []struct {
		name  string
		im    Impairment
		check func(t *testing.T, ds []Decision)
	}{
		{"zero forwards all at once", Impairment{}, func(t *testing.T, ds []Decision) {
			for i, d := range ds {
				if d.Fate != Forward || d.Delay != 0 || d.Dup || d.Reord || d.Cut != -1 || d.NFlip != 0 {
					t.Fatalf("packet %d: %+v", i, d)
				}
			}
		}},
		{"independent loss 20 %", Impairment{Loss: 0.2}, func(t *testing.T, ds []Decision) {
			share(t, ds, func(d Decision) bool { return d.Fate == LostRandom }, 0.2, 0.01)
		}},
		{"burst loss Gilbert-Elliott", Impairment{Burst: &GilbertElliott{P: 0.05, R: 0.25, LossBad: 1}}, func(t *testing.T, ds []Decision) {
			// Stationary share of Bad: P/(P+R) = 1/6; mean burst 1/R = 4.
			share(t, ds, func(d Decision) bool { return d.Fate == LostBurst }, 1.0/6, 0.015)
			runs, total, cur := 0, 0, 0
			for _, d := range ds {
				if d.Fate == LostBurst {
					cur++
					continue
				}
				if cur > 0 {
					runs++
					total += cur
					cur = 0
				}
			}
			if mean := float64(total) / float64(runs); math.Abs(mean-4) > 0.3 {
				t.Errorf("mean burst %.2f packets, want 4 ± 0.3", mean)
			}
		}},
		{"delay and jitter bounds", Impairment{Delay: 10 * time.Millisecond, Jitter: 20 * time.Millisecond}, func(t *testing.T, ds []Decision) {
			var lo, hi time.Duration = time.Hour, 0
			for _, d := range ds {
				lo, hi = min(lo, d.Delay), max(hi, d.Delay)
			}
			if lo < 10*time.Millisecond || hi >= 30*time.Millisecond || hi-lo < 19*time.Millisecond {
				t.Errorf("delays in [%v, %v], want to cover [10ms, 30ms)", lo, hi)
			}
		}},
		{"duplicates 5 %", Impairment{Duplicate: 0.05}, func(t *testing.T, ds []Decision) {
			share(t, ds, func(d Decision) bool { return d.Dup }, 0.05, 0.006)
		}},
		{"reorder holds back", Impairment{Reorder: 0.1, ReorderDelay: 7 * time.Millisecond}, func(t *testing.T, ds []Decision) {
			share(t, ds, func(d Decision) bool { return d.Reord }, 0.1, 0.01)
			for _, d := range ds {
				if d.Reord != (d.Delay == 7*time.Millisecond) {
					t.Fatalf("reordered %v with delay %v", d.Reord, d.Delay)
				}
			}
		}},
		{"truncation shorter", Impairment{Truncate: 0.1}, func(t *testing.T, ds []Decision) {
			share(t, ds, func(d Decision) bool { return d.Cut >= 0 }, 0.1, 0.01)
			for _, d := range ds {
				if d.Cut >= 57 {
					t.Fatalf("cut to %d of 57 bytes", d.Cut)
				}
			}
		}},
		{"bit flips", Impairment{BitFlip: 0.1, FlipBits: 3}, func(t *testing.T, ds []Decision) {
			share(t, ds, func(d Decision) bool { return d.NFlip == 3 }, 0.1, 0.01)
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { c.check(t, decide(t, c.im, 42, n, 57)) })
	}
}

func share(t *testing.T, ds []Decision, f func(Decision) bool, want, tol float64) {
	t.Helper()
	k := 0
	for _, d := range ds {
		if f(d) {
			k++
		}
	}
	if got := float64(k) / float64(len(ds)); math.Abs(got-want) > tol {
		t.Errorf("share %.4f, want %.4f ± %.4f", got, want, tol)
	}
}

func TestChainDeterministic(t *testing.T) {
	im := Impairment{Loss: 0.1, Burst: &GilbertElliott{P: 0.02, R: 0.3, LossBad: 0.9}, Jitter: 30 * time.Millisecond,
		Duplicate: 0.05, Reorder: 0.05, Truncate: 0.05, BitFlip: 0.05}
	a := decide(t, im, 7, 5000, 100)
	b := decide(t, im, 7, 5000, 100)
	c := decide(t, im, 8, 5000, 100)
	same := func(x, y []Decision) bool {
		for i := range x {
			if x[i] != y[i] {
				return false
			}
		}
		return true
	}
	if !same(a, b) {
		t.Error("same seed gave different decisions")
	}
	if same(a, c) {
		t.Error("different seeds gave the same decisions")
	}
}

func TestValidate(t *testing.T) {
	bad := []Impairment{
		{Loss: -0.1}, {Loss: 1.5}, {Loss: math.NaN()}, {Duplicate: 2}, {Reorder: -1}, {Truncate: 3}, {BitFlip: math.Inf(1)},
		{Burst: &GilbertElliott{P: 2}}, {Burst: &GilbertElliott{LossBad: -1}},
		{Delay: -1}, {Jitter: -1}, {ReorderDelay: -1}, {FlipBits: -1},
		{Blackouts: []Window{{From: 2 * time.Second, To: time.Second}}}, {Blackouts: []Window{{From: -1}}},
	}
	for i, im := range bad {
		if _, err := NewChain(im, 1); !errors.Is(err, ErrConfig) {
			t.Errorf("case %d %+v: err %v, want ErrConfig", i, im, err)
		}
	}
	if _, err := NewChain(Impairment{Loss: 1, Blackouts: []Window{{0, time.Second}}}, 1); err != nil {
		t.Errorf("valid impairment refused: %v", err)
	}
}

func TestApply(t *testing.T) {
	cases := []struct {
		name string
		d    Decision
		in   []byte
		want []byte
	}{
		{"unchanged", Decision{Cut: -1}, []byte{1, 2, 3}, []byte{1, 2, 3}},
		{"cut", Decision{Cut: 1}, []byte{1, 2, 3}, []byte{1}},
		{"cut empty", Decision{Cut: 0}, []byte{1, 2, 3}, []byte{}},
		{"flip bit 0 and 9", Decision{Cut: -1, NFlip: 2, Flips: [8]int{0, 9}}, []byte{0, 0, 0}, []byte{1, 2, 0}},
		{"flip beyond cut is lost", Decision{Cut: 1, NFlip: 1, Flips: [8]int{20}}, []byte{0, 0, 0}, []byte{0}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := c.d.Apply(append([]byte(nil), c.in...)); !bytes.Equal(got, c.want) {
				t.Errorf("got % x, want % x", got, c.want)
			}
		})
	}
}

func TestBlackoutWindows(t *testing.T) {
	c, err := NewChain(Impairment{Blackouts: []Window{{time.Second, 2 * time.Second}, {5 * time.Second, 6 * time.Second}}}, 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		at   time.Duration
		want bool
	}{{0, false}, {time.Second, true}, {1999 * time.Millisecond, true}, {2 * time.Second, false}, {5500 * time.Millisecond, true}, {7 * time.Second, false}} {
		if got := c.InBlackout(tc.at); got != tc.want {
			t.Errorf("InBlackout(%v) = %v, want %v", tc.at, got, tc.want)
		}
	}
}

func TestDecideAllocatesNothing(t *testing.T) {
	c, _ := NewChain(Impairment{Loss: 0.1, Jitter: time.Millisecond, BitFlip: 0.5, Burst: &GilbertElliott{P: 0.1, R: 0.5, LossBad: 1}}, 1)
	if a := testing.AllocsPerRun(1000, func() { _ = c.Decide(100) }); a != 0 {
		t.Errorf("Decide allocates %v per call", a)
	}
}

func BenchmarkDecide(b *testing.B) {
	c, _ := NewChain(Impairment{Loss: 0.1, Jitter: time.Millisecond, Duplicate: 0.01, BitFlip: 0.01}, 1)
	b.ReportAllocs()
	for b.Loop() {
		_ = c.Decide(275)
	}
}

// A wandering jitter stays in [0, Jitter), covers most of it, changes by
// at most Jitter per Wander, and is the same for the same seed.
func TestWanderDelay(t *testing.T) {
	im := Impairment{Delay: 20 * time.Millisecond, Jitter: 40 * time.Millisecond, Wander: 500 * time.Millisecond}
	c, err := NewChain(im, 3)
	if err != nil {
		t.Fatal(err)
	}
	c2, _ := NewChain(im, 3)
	c3, _ := NewChain(im, 4)
	if !c.Wandering() {
		t.Fatal("not wandering")
	}
	var lo, hi time.Duration = time.Hour, -1
	prev := c.WanderDelay(0)
	step := time.Millisecond
	differs := false
	for at := time.Duration(0); at < 60*time.Second; at += step {
		w := c.WanderDelay(at)
		if w != c2.WanderDelay(at) {
			t.Fatalf("same seed, different delay at %v", at)
		}
		if w != c3.WanderDelay(at) {
			differs = true
		}
		lo, hi = min(lo, w), max(hi, w)
		if d := (w - prev).Abs(); d > im.Jitter*step/im.Wander+time.Microsecond {
			t.Fatalf("delay jumps by %v in %v at %v", d, step, at)
		}
		prev = w
	}
	if lo < 0 || hi >= im.Jitter || hi-lo < 30*time.Millisecond {
		t.Errorf("wander in [%v, %v], want within [0, 40ms) and covering 30 ms", lo, hi)
	}
	if !differs {
		t.Error("another seed gave the same wander")
	}
	// Decide leaves the jitter to WanderDelay: every packet gets Delay.
	for _, d := range decide(t, im, 1, 100, 10) {
		if d.Delay != im.Delay {
			t.Fatalf("decision delay %v with Wander, want %v", d.Delay, im.Delay)
		}
	}
	if _, err := NewChain(Impairment{Wander: -1}, 1); !errors.Is(err, ErrConfig) {
		t.Errorf("negative wander: %v", err)
	}
	if a := testing.AllocsPerRun(1000, func() { _ = c.WanderDelay(1234 * time.Millisecond) }); a != 0 {
		t.Errorf("WanderDelay allocates %v per call", a)
	}
}
