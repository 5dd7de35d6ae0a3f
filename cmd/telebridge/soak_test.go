package main

import (
	"context"
	"io"
	"strings"
	"testing"
	"time"
)

func TestJudgeSoak(t *testing.T) {
	o := soakOptions{maxMissed: 0.01, maxGap: 200 * time.Millisecond, maxHeapGrowth: 1 << 20, maxGoroutineGrow: 2}
	flat := func() []soakSample {
		s := make([]soakSample, 9)
		for i := range s {
			s[i] = soakSample{heap: 8 << 20, goroutines: 22, furbotTick: uint64(1000 * (i + 1)), furbotGap: 30 * time.Millisecond, servoSent: uint64(50 * (i + 1))}
		}
		return s
	}
	cases := []struct {
		name string
		mod  func(s []soakSample)
		want string // "" passes
	}{
		{"flat", func([]soakSample) {}, ""},
		{"warm-up sample ignored", func(s []soakSample) { s[0].heap, s[0].goroutines = 1<<20, 10 }, ""},
		{"heap grows", func(s []soakSample) {
			for i := range s {
				s[i].heap += uint64(i) << 19
			}
		}, "live heap grew"},
		{"goroutines leak", func(s []soakSample) { s[8].goroutines = 30 }, "goroutines grew"},
		{"missed ticks", func(s []soakSample) { s[8].furbotMiss = 500 }, "missed"},
		{"long control gap", func(s []soakSample) { s[8].furbotGap = 300 * time.Millisecond }, "apart"},
		{"servosila behind", func(s []soakSample) { s[8].servoMiss = 100 }, "behind"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := flat()
			c.mod(s)
			err := judgeSoak(io.Discard, s, o)
			switch {
			case c.want == "" && err != nil:
				t.Errorf("failed: %v", err)
			case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
				t.Errorf("err %v, want one saying %q", err, c.want)
			}
		})
	}
	if err := judgeSoak(io.Discard, flat()[:2], o); err == nil {
		t.Error("2 samples judged")
	}
}

// TestSoakRuns runs a 3.5 s soak (three reports) with a blackout: both stacks come up
// through the proxies and the report has its lines.
func TestSoakRuns(t *testing.T) {
	var out strings.Builder
	err := runSoak(context.Background(), []string{"--duration", "3500ms", "--every", "1s", "--blackout-every", "1500ms", "--blackout", "300ms",
		"--max-missed", "1", "--max-gap", "10s"}, stdio{out: &out, err: &out})
	t.Log(out.String())
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(out.String(), "\n  "); n < 3 {
		t.Errorf("%d report lines, want at least 3", n)
	}
}
