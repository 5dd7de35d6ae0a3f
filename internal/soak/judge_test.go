package soak

import (
	"io"
	"strings"
	"testing"
	"time"
)

// TestJudge: flat samples pass (the warm-up sample left out); growth of the
// heap or the goroutines, missed ticks, a long control gap or a Servosila
// behind its schedule fail, each with its reason; two samples are too few.
func TestJudge(t *testing.T) {
	o := Options{MaxMissed: 0.01, MaxGap: 200 * time.Millisecond, MaxHeapGrowth: 1 << 20, MaxGoroutineGrowth: 2}
	flat := func() []sample {
		s := make([]sample, 9)
		for i := range s {
			s[i] = sample{heap: 8 << 20, goroutines: 22, furbotTick: uint64(1000 * (i + 1)), furbotGap: 30 * time.Millisecond, servoSent: uint64(50 * (i + 1))}
		}
		return s
	}
	cases := []struct {
		name string
		mod  func(s []sample)
		want string // "" passes
	}{
		{"flat", func([]sample) {}, ""},
		{"warm-up sample ignored", func(s []sample) { s[0].heap, s[0].goroutines = 1<<20, 10 }, ""},
		{"heap grows", func(s []sample) {
			for i := range s {
				s[i].heap += uint64(i) << 19
			}
		}, "live heap grew"},
		{"goroutines leak", func(s []sample) { s[8].goroutines = 30 }, "goroutines grew"},
		{"missed ticks", func(s []sample) { s[8].furbotMiss = 500 }, "missed"},
		{"long control gap", func(s []sample) { s[8].furbotGap = 300 * time.Millisecond }, "apart"},
		{"servosila behind", func(s []sample) { s[8].servoMiss = 100 }, "behind"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := flat()
			c.mod(s)
			err := judge(io.Discard, s, o)
			switch {
			case c.want == "" && err != nil:
				t.Errorf("failed: %v", err)
			case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
				t.Errorf("err %v, want one saying %q", err, c.want)
			}
		})
	}
	if err := judge(io.Discard, flat()[:2], o); err == nil {
		t.Error("2 samples judged")
	}
}
