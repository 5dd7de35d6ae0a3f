package kinematics

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/telebridge/telebridge/pkg/geom"
)

// BenchResult summarises SolveRate.
type BenchResult struct {
	Poses, Solved int // poses tried, and solved within tolerance
	// LimitViolations counts solutions outside the joint limits (must be 0).
	LimitViolations int
	Mean, P99, Max  time.Duration // time per Solve, solved or not
	MeanAttempts    float64       // restarts per Solve, on average
}

// Rate returns the fraction of poses solved.
func (r BenchResult) Rate() float64 {
	if r.Poses == 0 {
		return 0
	}
	return float64(r.Solved) / float64(r.Poses)
}

// String formats the result on one line.
func (r BenchResult) String() string {
	return fmt.Sprintf("%d/%d solved (%.2f %%), mean %v, p99 %v, max %v, %.2f attempts/solve, %d limit violations",
		r.Solved, r.Poses, 100*r.Rate(), r.Mean, r.P99, r.Max, r.MeanAttempts, r.LimitViolations)
}

// RandomJoints writes into q uniformly random positions within the limits
// of c (continuous joints in [-pi, pi]).
func RandomJoints(c *Chain, rng *rand.Rand, q []float64) {
	for i, j := range c.Joints {
		lo, hi := j.Lower, j.Upper
		if j.Type == Continuous {
			lo, hi = -math.Pi, math.Pi
		}
		q[i] = lo + rng.Float64()*(hi-lo)
	}
}

// SolveRate measures the solver on n reachable poses: the forward
// kinematics of random in-limit joints. Each pose is solved from an
// independent random in-limit seed, not from the joints that made it. The
// poses and seeds depend only on seed, so runs are reproducible (timings
// aside). A solution counts if Solve reports success and its FK is within
// the solver's tolerances of the pose.
func SolveRate(s *Solver, n int, seed uint64) BenchResult {
	c := s.Chain()
	rng := rand.New(rand.NewPCG(seed, 99))
	q := make([]float64, c.DOF())
	start := make([]float64, c.DOF())
	sol := make([]float64, c.DOF())
	times := make([]time.Duration, 0, n)
	res := BenchResult{Poses: n}
	var attempts int
	for range n {
		RandomJoints(c, rng, q)
		RandomJoints(c, rng, start)
		target := c.fk(q)
		t0 := time.Now()
		r, err := s.Solve(sol, target, start)
		times = append(times, time.Since(t0))
		attempts += r.Attempts
		if err != nil {
			continue
		}
		if c.CheckJoints(sol, 1e-12) != nil {
			res.LimitViolations++
			continue
		}
		got := c.fk(sol)
		dp, dr := geom.Distance(got, target)
		if dp <= s.cfg.PositionTolerance*1.0001 && dr <= s.cfg.RotationTolerance*1.0001 {
			res.Solved++
		}
	}
	if n == 0 {
		return res
	}
	var sum time.Duration
	for _, t := range times {
		sum += t
	}
	slices.Sort(times)
	res.Mean = sum / time.Duration(n)
	res.P99 = times[min(n-1, int(math.Ceil(0.99*float64(n)))-1)]
	res.Max = times[n-1]
	res.MeanAttempts = float64(attempts) / float64(n)
	return res
}
