package furbot_test

import (
	"math"
	"time"
)

// stepMetrics evaluates a speed step response sampled every dt [s]:
// overshoot as a fraction of target, settling time into a band of
// ±band·target that is never left again [s], and the steady-state error
// (mean of the last second) [m/s].
func stepMetrics(v []float64, dt, target, band float64) (overshoot, settle, sse float64) {
	peak := math.Inf(-1)
	for _, x := range v {
		peak = math.Max(peak, x)
	}
	overshoot = math.Max(0, (peak-target)/target)
	settle = 0
	for i, x := range v {
		if math.Abs(x-target) > band*target {
			settle = float64(i+1) * dt
		}
	}
	n := int(math.Round(1 / dt))
	if n > len(v) {
		n = len(v)
	}
	sum := 0.0
	for _, x := range v[len(v)-n:] {
		sum += x
	}
	sse = math.Abs(sum/float64(n) - target)
	return overshoot, settle, sse
}

var t0 = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
