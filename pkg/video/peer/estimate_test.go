package peer

import (
	"testing"
	"time"
)

// The loss part of the estimate, stepped by hand every 200 ms.
func TestEstimatorLossPart(t *testing.T) {
	e := &estimator{min: 100_000, max: 20_000_000, lossCap: 20_000_000}
	now := time.Unix(0, 0)
	step := func(delay int, loss float64) int {
		now = now.Add(lossStep)
		return e.update(now, delay, loss)
	}
	// A steady 3 % random loss while the delay-based rate dips and comes
	// back: the estimate follows it back (pion's own loss part would
	// keep the dip).
	for _, d := range []int{2_000_000, 1_200_000, 600_000, 1_500_000, 2_500_000} {
		if got := step(d, 0.03); got != d {
			t.Fatalf("3 %% loss, delay-based %d: estimate %d, want the delay-based rate", d, got)
		}
	}
	// 30 % loss: down by 15 % a step, below the delay-based rate.
	a := step(2_500_000, 0.3)
	b := step(2_500_000, 0.3)
	if a != 2_125_000 || b != 1_806_250 {
		t.Errorf("30 %% loss: %d then %d, want 2125000 then 1806250", a, b)
	}
	// Not faster than one change per step.
	if got := e.update(now.Add(lossStep/2), 2_500_000, 0.3); got != b {
		t.Errorf("a second change within a step: %d, want %d", got, b)
	}
	// Loss gone: back up by 8 % a step, to the delay-based rate.
	c := step(2_500_000, 0)
	if c != int(float64(b)*lossRaise) {
		t.Errorf("after the loss: %d, want %d", c, int(float64(b)*lossRaise))
	}
	for range 10 {
		c = step(2_500_000, 0)
	}
	if c != 2_500_000 {
		t.Errorf("10 steps later: %d, want the delay-based 2500000", c)
	}
	// Bounds: never under min, never over max.
	for range 100 {
		c = step(50_000, 0.9)
	}
	if c != 100_000 {
		t.Errorf("at 90 %% loss: %d, want the floor 100000", c)
	}
	if got := step(50_000_000, 0); got > 20_000_000 {
		t.Errorf("over the maximum: %d", got)
	}
}
