package trainworld_test

import (
	"context"
	"testing"
	"time"

	"github.com/telebridge/telebridge/pkg/trainworld"
)

// TestRunDropsInsteadOfSpiralling: a world loop held up (here by a
// 300 ms Lock, as a stalled machine would) does not try to catch up
// afterwards: it steps at most MaxBatch per wake-up and counts the rest
// as dropped, so simulated time + dropped time accounts for the wall
// time and the simulated time never runs ahead of it.
func TestRunDropsInsteadOfSpiralling(t *testing.T) {
	w := course(t, trainworld.Config{})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- w.Run(ctx) }()
	waitSteps := func(n uint64) {
		t.Helper()
		deadline := time.Now().Add(time.Minute)
		for w.Stats().Steps < n {
			if time.Now().After(deadline) {
				t.Fatalf("loop stuck at %d steps", w.Stats().Steps)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	waitSteps(50)
	w.Lock()
	time.Sleep(300 * time.Millisecond)
	w.Unlock()
	s0 := w.Stats()
	waitSteps(s0.Steps + 50)
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	s := w.Stats()
	if s.Dropped < 0.2 {
		t.Errorf("dropped %.3f s after a 300 ms stall: want at least 0.2 s dropped, not caught up", s.Dropped)
	}
	if s.SimTime > s.Wall+0.01 {
		t.Errorf("simulated %.3f s in %.3f s of wall time: ahead of real time", s.SimTime, s.Wall)
	}
	if s.StepCPU <= 0 || s.Busy <= 0 {
		t.Errorf("stats %+v: want the step cost and busy share", s)
	}
}
