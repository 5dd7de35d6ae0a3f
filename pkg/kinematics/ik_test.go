package kinematics

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/telebridge/telebridge/pkg/geom"
)

func newSolver(t testing.TB, c *Chain, cfg Config) *Solver {
	t.Helper()
	s, err := NewSolver(c, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestIKSolveRate: random reachable poses, random seeds; at least 99.5 %
// must be solved, every solution within the limits and the tolerances.
func TestIKSolveRate(t *testing.T) {
	for _, name := range []string{"ur5_like.urdf", "telescope7.urdf"} {
		t.Run(name, func(t *testing.T) {
			s := newSolver(t, loadURDF(t, name), Config{})
			res := SolveRate(s, ikTestPoses, 42)
			t.Logf("%s: %v", name, res)
			if res.LimitViolations != 0 {
				t.Fatalf("%d solutions outside the joint limits", res.LimitViolations)
			}
			if res.Rate() < 0.995 {
				t.Fatalf("solve rate %.2f %% < 99.5 %%", 100*res.Rate())
			}
		})
	}
}

func TestIKFromNearbySeedStaysNear(t *testing.T) {
	c := loadURDF(t, "ur5_like.urdf")
	s := newSolver(t, c, Config{})
	q := []float64{0.3, -1.2, 1.4, -0.5, 1.1, 0.2}
	target, _ := c.FK(q)
	// Move the target 1 cm: the solution must stay in the same branch.
	target = geom.Translation(0, 0, 0.01).Mul(target)
	sol := make([]float64, 6)
	res, err := s.Solve(sol, target, q)
	if err != nil {
		t.Fatal(err)
	}
	if res.Attempts != 1 {
		t.Errorf("needed %d attempts from a nearby seed", res.Attempts)
	}
	for i := range q {
		if math.Abs(sol[i]-q[i]) > 0.1 {
			t.Fatalf("joint %d jumped from %g to %g", i, q[i], sol[i])
		}
	}
	got, _ := c.FK(sol)
	if !closeTo(got, target, 1e-5) {
		t.Fatalf("FK(solution) = %v, want %v", got, target)
	}
}

func TestIKDeterministic(t *testing.T) {
	c := loadURDF(t, "telescope7.urdf")
	target, _ := c.FK([]float64{1, -0.5, 1, 0.2, 0.5, 0.5, 1})
	var first string
	for i := range 3 {
		s := newSolver(t, c, Config{Seed: 7})
		sol := make([]float64, 7)
		if _, err := s.Solve(sol, target, nil); err != nil {
			t.Fatal(err)
		}
		// Solving something else in between must not change the answer.
		_, _ = s.Solve(make([]float64, 7), geom.Translation(0.5, 0.5, 0.5), nil)
		_, _ = s.Solve(sol, target, nil)
		got := fmt.Sprint(sol)
		if i == 0 {
			first = got
		} else if got != first {
			t.Fatalf("run %d: %s, first %s", i, got, first)
		}
	}
}

func TestIKRespectsLimitsAndFailsClearly(t *testing.T) {
	c := loadURDF(t, "telescope7.urdf")
	s := newSolver(t, c, Config{MaxAttempts: 5})
	sol := make([]float64, 7)
	// 5 m away: out of reach.
	_, err := s.Solve(sol, geom.Translation(5, 0, 0), nil)
	if !errors.Is(err, ErrNoSolution) {
		t.Fatalf("unreachable: err = %v", err)
	}
	if err := c.CheckJoints(sol, 0); err != nil {
		t.Fatalf("best attempt outside limits: %v", err)
	}
	if _, err := s.Solve(make([]float64, 3), geom.Identity(), nil); !errors.Is(err, ErrJointCount) {
		t.Fatalf("short dst: %v", err)
	}
	if _, err := s.Solve(sol, geom.Transform{}, nil); !errors.Is(err, geom.ErrInvalid) {
		t.Fatalf("zero quaternion: %v", err)
	}
	if _, err := NewSolver(c, Config{MaxAttempts: -1}); err == nil {
		t.Fatal("negative config accepted")
	}
}

func benchmarkIK(b *testing.B, name string) {
	c := loadURDF(b, name)
	s := newSolver(b, c, Config{})
	res := SolveRate(s, 200, 1) // pose set warm-up and solve-rate figure
	b.ReportMetric(100*res.Rate(), "%solved")
	sol := make([]float64, c.DOF())
	targets := make([]geom.Transform, 256)
	seeds := make([][]float64, len(targets))
	rngQ := make([]float64, c.DOF())
	rng := rand.New(rand.NewPCG(9, 99))
	for i := range targets {
		RandomJoints(c, rng, rngQ)
		targets[i], _ = c.FK(rngQ)
		seeds[i] = make([]float64, c.DOF())
		RandomJoints(c, rng, seeds[i])
	}
	b.ReportAllocs()
	b.ResetTimer()
	i := 0
	for b.Loop() {
		_, _ = s.Solve(sol, targets[i%len(targets)], seeds[i%len(targets)])
		i++
	}
}

func BenchmarkIKUR5(b *testing.B) { benchmarkIK(b, "ur5_like.urdf") }

// BenchmarkIKSolveRate10k solves the 10,000 random reachable poses of
// each arm per iteration and reports the solve rate and the mean and p99
// time per solve.
func BenchmarkIKSolveRate10k(b *testing.B) {
	for _, name := range []string{"ur5_like.urdf", "telescope7.urdf"} {
		b.Run(strings.TrimSuffix(name, ".urdf"), func(b *testing.B) {
			s := newSolver(b, loadURDF(b, name), Config{})
			b.ReportAllocs()
			var res BenchResult
			for b.Loop() {
				res = SolveRate(s, 10000, 42)
			}
			b.ReportMetric(100*res.Rate(), "%solved")
			b.ReportMetric(float64(res.Mean.Nanoseconds())/1e3, "mean-µs")
			b.ReportMetric(float64(res.P99.Nanoseconds())/1e3, "p99-µs")
		})
	}
}
func BenchmarkIKTelescope7(b *testing.B) { benchmarkIK(b, "telescope7.urdf") }

func ExampleSolver_Solve() {
	chain, _ := FromDH("base", "tool", []DH{
		{Name: "shoulder", Type: Revolute, A: 0.5, Lower: -pi, Upper: pi},
		{Name: "elbow", Type: Revolute, A: 0.4, Lower: -pi, Upper: pi},
	})
	// A planar two-link arm can reach (0.5, 0.4) with the elbow bent 90
	// degrees, pointing up.
	s, _ := NewSolver(chain, Config{})
	q := make([]float64, 2)
	target := geom.FromXYZEuler(0.5, 0.4, 0, pi/2, 0, 0)
	if _, err := s.Solve(q, target, []float64{0.1, 1}); err != nil {
		fmt.Println(err)
	}
	round := func(x float64) float64 { return math.Round(x*1e4)/1e4 + 0 } // +0: no "-0"
	fmt.Printf("shoulder %.4f rad, elbow %.4f rad\n", round(q[0]), round(q[1]))
	// Output: shoulder 0.0000 rad, elbow 1.5708 rad
}

func TestIKAllocatesNothing(t *testing.T) {
	c := loadURDF(t, "telescope7.urdf")
	s := newSolver(t, c, Config{})
	q := []float64{0.2, -0.4, 0.9, 0.1, 0.3, -0.2, 0.5}
	target, _ := c.FK(q)
	sol := make([]float64, 7)
	if n := testing.AllocsPerRun(20, func() { _, _ = s.Solve(sol, target, nil) }); n != 0 {
		t.Fatalf("Solve allocates %v times", n)
	}
}

func TestIKContinuousJoints(t *testing.T) {
	c, err := FromDH("base", "tip", []DH{
		{Type: Continuous, A: 0.4},
		{Type: Continuous, A: 0.3},
		{Type: Prismatic, Alpha: 0, A: 0.1, Lower: 0, Upper: 0.2},
	})
	if err != nil {
		t.Fatal(err)
	}
	s := newSolver(t, c, Config{})
	for _, q := range [][]float64{{0.5, 1, 0.1}, {-3, 2.5, 0}, {1, -1, 0.2}} {
		// A planar arm: only x, y and yaw are reachable, which is all
		// FK(q) asks.
		target, _ := c.FK(q)
		sol := make([]float64, 3)
		if _, err := s.Solve(sol, target, nil); err != nil {
			t.Fatalf("q %v: %v", q, err)
		}
		if got, _ := c.FK(sol); !closeTo(got, target, 2e-5) {
			t.Fatalf("q %v: FK(solution) %v, want %v", q, got, target)
		}
	}
}
