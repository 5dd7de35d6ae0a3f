package kinematics

import (
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"github.com/telebridge/telebridge/pkg/geom"
	"gonum.org/v1/gonum/spatial/r3"
)

// Config tunes a Solver. The zero value gives the defaults.
type Config struct {
	// PositionTolerance is the largest accepted distance between the
	// solution's tip and the target [m]. Default 1e-5.
	PositionTolerance float64
	// RotationTolerance is the largest accepted angle between the
	// solution's tip orientation and the target's [rad]. Default 1e-5.
	RotationTolerance float64
	// MaxIterations bounds the iterations of one attempt. Default 150.
	MaxIterations int
	// MaxAttempts bounds the attempts of one Solve: the first starts from
	// the seed, the others from random in-limit configurations.
	// Default 60.
	MaxAttempts int
	// Timeout bounds the time of one Solve, checked between attempts
	// [s]. Default 0: no time bound, so results depend only on the inputs
	// and Seed.
	Timeout time.Duration
	// Seed seeds the random restarts; Solve reseeds at every call, so one
	// call does not depend on the previous ones. Default 0.
	Seed uint64
}

// Result describes how a Solve went.
type Result struct {
	Attempts   int     // attempts started, 1 if the seed converged
	Iterations int     // iterations over all attempts
	Position   float64 // final distance to the target [m]
	Rotation   float64 // final angle to the target [rad]
}

// Solver solves inverse kinematics for one chain. It owns scratch buffers:
// one goroutine at a time may use it.
type Solver struct {
	chain *Chain
	cfg   Config
	pcg   *rand.PCG
	rng   *rand.Rand

	n                int
	jac, jacCand     []float64
	axes, origins    []r3.Vec
	q, cand          []float64
	h                []float64 // n x n, row-major, factorised in place
	g, dq            []float64
	lowerIK, upperIK []float64 // limits used for clamping and sampling
	continuous, free []bool
	deadlineT        time.Time
}

// NewSolver returns a solver for chain, filling Config defaults. It fails
// for negative settings.
func NewSolver(chain *Chain, cfg Config) (*Solver, error) {
	if chain == nil {
		return nil, fmt.Errorf("kinematics: new solver: %w: nil chain", ErrBadChain)
	}
	if cfg.PositionTolerance < 0 || cfg.RotationTolerance < 0 || cfg.MaxIterations < 0 || cfg.MaxAttempts < 0 || cfg.Timeout < 0 {
		return nil, fmt.Errorf("kinematics: new solver: negative setting in %+v", cfg)
	}
	if cfg.PositionTolerance == 0 {
		cfg.PositionTolerance = 1e-5
	}
	if cfg.RotationTolerance == 0 {
		cfg.RotationTolerance = 1e-5
	}
	if cfg.MaxIterations == 0 {
		cfg.MaxIterations = 150
	}
	if cfg.MaxAttempts == 0 {
		cfg.MaxAttempts = 60
	}
	n := chain.DOF()
	s := &Solver{
		chain: chain, cfg: cfg, n: n,
		pcg:     rand.NewPCG(cfg.Seed, 0x7e1eb41d6e),
		jac:     make([]float64, 6*n),
		jacCand: make([]float64, 6*n),
		axes:    make([]r3.Vec, n), origins: make([]r3.Vec, n),
		q: make([]float64, n), cand: make([]float64, n),
		h: make([]float64, n*n),
		g: make([]float64, n), dq: make([]float64, n),
		lowerIK: make([]float64, n), upperIK: make([]float64, n),
		continuous: make([]bool, n), free: make([]bool, n),
	}
	s.rng = rand.New(s.pcg)
	for i, j := range chain.Joints {
		s.lowerIK[i], s.upperIK[i] = j.Lower, j.Upper
		if j.Type == Continuous {
			s.lowerIK[i], s.upperIK[i] = -math.Pi, math.Pi
			s.continuous[i] = true
		}
	}
	return s, nil
}

// Chain returns the solver's chain.
func (s *Solver) Chain() *Chain { return s.chain }

// Solve finds joint positions within the limits whose tip pose is target
// (T_base_tip) within the tolerances, and writes them into dst (len DOF).
// The first attempt starts from seed (len DOF, clamped into the limits);
// a nil seed starts from the middle of the limits. Errors wrap
// ErrJointCount or ErrNoSolution (dst then holds the best attempt).
func (s *Solver) Solve(dst []float64, target geom.Transform, seed []float64) (Result, error) {
	var res Result
	if len(dst) != s.n || (seed != nil && len(seed) != s.n) {
		return res, fmt.Errorf("kinematics: ik: %w: dst %d, seed %d, chain has %d", ErrJointCount, len(dst), len(seed), s.n)
	}
	if err := target.Validate(); err != nil {
		return res, fmt.Errorf("kinematics: ik: target: %w", err)
	}
	target.Rotation = target.Rotation.Normalize()
	s.pcg.Seed(s.cfg.Seed, 0x7e1eb41d6e)
	if s.cfg.Timeout > 0 {
		s.deadlineT = time.Now().Add(s.cfg.Timeout)
	}
	bestErr := math.Inf(1)
	for attempt := range s.cfg.MaxAttempts {
		if attempt > 0 && s.cfg.Timeout > 0 && time.Now().After(s.deadlineT) {
			break
		}
		res.Attempts++
		for i := range s.n {
			switch {
			case attempt > 0:
				s.q[i] = s.lowerIK[i] + s.rng.Float64()*(s.upperIK[i]-s.lowerIK[i])
			case seed != nil:
				s.q[i] = s.clamp(i, seed[i])
			default:
				s.q[i] = (s.lowerIK[i] + s.upperIK[i]) / 2
			}
		}
		ok, it, ep, eo := s.attempt(target)
		res.Iterations += it
		if e := ep + eo; e < bestErr {
			bestErr = e
			copy(dst, s.q)
			res.Position, res.Rotation = ep, eo
		}
		if ok {
			return res, nil
		}
	}
	return res, fmt.Errorf("kinematics: ik: %w after %d attempts (%d iterations): best error %.3g m, %.3g rad",
		ErrNoSolution, res.Attempts, res.Iterations, res.Position, res.Rotation)
}

func (s *Solver) clamp(i int, v float64) float64 {
	if s.continuous[i] {
		return v
	}
	return math.Max(s.lowerIK[i], math.Min(s.upperIK[i], v))
}

// poseError fills e with the 6-D error from tip to target in the base
// frame and returns the position and rotation error norms.
func poseError(e *[6]float64, tip, target geom.Transform) (float64, float64) {
	dp := r3.Sub(target.Translation, tip.Translation)
	dr := target.Rotation.Mul(tip.Rotation.Conj()).RotationVector()
	*e = [6]float64{dp.X, dp.Y, dp.Z, dr.X, dr.Y, dr.Z}
	return r3.Norm(dp), r3.Norm(dr)
}

// step solves (J^T J + lambda I) dq = J^T e into s.dq over the free
// joints (the others get dq = 0). The matrix is symmetric positive
// definite (lambda > 0), so a Cholesky factorisation in place on the
// solver's buffer does it without allocating.
func (s *Solver) step(e [6]float64, lambda float64) bool {
	n := s.n
	h := s.h
	for r := range n {
		for c := 0; c <= r; c++ {
			var sum float64
			if s.free[r] && s.free[c] {
				for k := range 6 {
					sum += s.jac[k*n+r] * s.jac[k*n+c]
				}
			}
			if r == c {
				sum += lambda
			}
			h[r*n+c] = sum
		}
		var gr float64
		if s.free[r] {
			for k := range 6 {
				gr += s.jac[k*n+r] * e[k]
			}
		}
		s.g[r] = gr
	}
	// Lower-triangular L with L L^T = H, in the lower triangle of h.
	for j := range n {
		d := h[j*n+j]
		for k := range j {
			d -= h[j*n+k] * h[j*n+k]
		}
		if !(d > 0) {
			return false
		}
		d = math.Sqrt(d)
		h[j*n+j] = d
		for i := j + 1; i < n; i++ {
			v := h[i*n+j]
			for k := range j {
				v -= h[i*n+k] * h[j*n+k]
			}
			h[i*n+j] = v / d
		}
	}
	// Forward (L y = g) then backward (L^T dq = y) substitution.
	for i := range n {
		v := s.g[i]
		for k := range i {
			v -= h[i*n+k] * s.dq[k]
		}
		s.dq[i] = v / h[i*n+i]
	}
	for i := n - 1; i >= 0; i-- {
		v := s.dq[i]
		for k := i + 1; k < n; k++ {
			v -= h[k*n+i] * s.dq[k]
		}
		s.dq[i] = v / h[i*n+i]
	}
	return true
}

// attempt runs damped least squares from s.q; on return s.q holds the
// final configuration.
func (s *Solver) attempt(target geom.Transform) (ok bool, iterations int, ep, eo float64) {
	n := s.n
	var e, eCand [6]float64
	tip := s.chain.jacobian(s.q, s.jac, s.axes, s.origins)
	ep, eo = poseError(&e, tip, target)
	energy := 0.5 * (ep*ep + eo*eo)
	damp := 1.0 // multiplies the error-dependent damping; grows on rejection
	slow := 0
	for iterations = 0; iterations < s.cfg.MaxIterations; iterations++ {
		if ep <= s.cfg.PositionTolerance && eo <= s.cfg.RotationTolerance {
			return true, iterations, ep, eo
		}
		// H = J^T J + lambda I, g = J^T e; lambda after Sugihara (2011):
		// the error energy plus a small bias keeps H well conditioned far
		// from the target and vanishes near it.
		lambda := damp*energy + 1e-6
		// Joints pinned at a limit and pushed outwards are taken out of
		// the step (an active set), and the step is solved again, so the
		// others do the work instead of the clamp eating it.
		for i := range n {
			s.free[i] = true
		}
		for pass := 0; pass < 2; pass++ {
			if !s.step(e, lambda) {
				return false, iterations, ep, eo
			}
			pinned := false
			for i := range n {
				v := s.q[i] + s.dq[i]
				if !s.continuous[i] && s.free[i] && ((v < s.lowerIK[i] && s.q[i] <= s.lowerIK[i]) || (v > s.upperIK[i] && s.q[i] >= s.upperIK[i])) {
					s.free[i], pinned = false, true
				}
			}
			if !pinned {
				break
			}
		}
		for i := range n {
			s.cand[i] = s.clamp(i, s.q[i]+s.dq[i])
		}
		tipCand := s.chain.jacobian(s.cand, s.jacCand, s.axes, s.origins)
		epc, eoc := poseError(&eCand, tipCand, target)
		energyCand := 0.5 * (epc*epc + eoc*eoc)
		if energyCand < energy {
			if energyCand > 0.995*energy {
				slow++
			} else {
				slow = 0
			}
			s.q, s.cand = s.cand, s.q
			s.jac, s.jacCand = s.jacCand, s.jac
			e, ep, eo, energy = eCand, epc, eoc, energyCand
			damp = math.Max(damp/2, 1e-3)
		} else {
			slow++
			damp *= 8
		}
		if slow > 8 || damp > 1e8 {
			break // stuck: a local minimum or pinned at a limit
		}
	}
	return ep <= s.cfg.PositionTolerance && eo <= s.cfg.RotationTolerance, iterations, ep, eo
}
