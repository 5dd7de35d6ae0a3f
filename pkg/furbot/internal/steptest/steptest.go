// Package steptest measures the step responses and latencies of the Furbot
// closed-loop tests (runtime, control and nodes): overshoot, settling
// time and steady-state error of a speed step [m/s, s], and percentiles
// of durations. It is shared by the tests only.
package steptest

import (
	"math"
	"sort"
	"time"
)

// StepMetrics evaluates a speed step response given as samples v at times
// ts [s] from the step: overshoot as a fraction of target, settling time
// into a band of ±band·target that is never left again [s], and the
// steady-state error (mean over the last second) [m/s].
func StepMetrics(ts, v []float64, target, band float64) (overshoot, settle, sse float64) {
	peak := math.Inf(-1)
	for _, x := range v {
		peak = math.Max(peak, x)
	}
	overshoot = math.Max(0, (peak-target)/target)
	for i, x := range v {
		if math.Abs(x-target) > band*target && i+1 < len(ts) {
			settle = ts[i+1]
		}
	}
	end := ts[len(ts)-1]
	sum, n := 0.0, 0
	for i, x := range v {
		if ts[i] >= end-1 {
			sum += x
			n++
		}
	}
	sse = math.Abs(sum/float64(n) - target)
	return overshoot, settle, sse
}

// UniformTimes returns n sample times dt apart, starting at dt.
func UniformTimes(n int, dt float64) []float64 {
	ts := make([]float64, n)
	for i := range ts {
		ts[i] = float64(i+1) * dt
	}
	return ts
}

// Percentiles returns the p50 and p99 of ds.
func Percentiles(ds []time.Duration) (p50, p99 time.Duration) {
	if len(ds) == 0 {
		return 0, 0
	}
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	at := func(p float64) time.Duration {
		return s[int(math.Min(float64(len(s)-1), math.Floor(p*float64(len(s)))))]
	}
	return at(0.50), at(0.99)
}

// T0 is the start of the tests' virtual clocks.
var T0 = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
