package control

import (
	"fmt"
	"math"

	"github.com/telebridge/telebridge/pkg/geom"
	"github.com/telebridge/telebridge/pkg/kinematics"
	"gonum.org/v1/gonum/spatial/r3"
)

// Straight-line (LIN) goals. The line from the tool to the goal (position
// interpolated linearly, orientation by slerp) is sampled every
// LineResolution metres (LineRotationResolution radians for a
// rotation-only line) and every sample is solved by inverse kinematics
// from the previous sample's solution, so the arm never changes branch.
// The whole line is solved and checked before anything moves (PlanLine);
// the controller then follows the joint polyline with a trapezoidal
// profile of the path length (Line.Advance, Line.Point).
const (
	// LineResolution is the spacing of a LIN path's samples [m].
	LineResolution = 1e-3
	// LineRotationResolution is the spacing of a rotation-only LIN path's
	// samples [rad].
	LineRotationResolution = 1e-3
	// LinMinTranslation: a goal closer than this to the tool only turns
	// it: a rotation-only move [m].
	LinMinTranslation = 1e-6
	// lineAccelerationShare is the share of each joint's acceleration
	// limit the path acceleration may use; the rest is left to the
	// curvature of the joint path at cruise speed.
	lineAccelerationShare = 0.5
	// maxLineSamples bounds a line's samples (131 m at LineResolution;
	// 7.3 MB for a six-joint arm) where the reach does not.
	maxLineSamples = 1 << 17
)

// Line is a planned straight line: joint samples at path positions, with
// the path's speed and acceleration limits. It is read only once planned,
// so one Line may be read concurrently.
type Line struct {
	n      int       // joints
	s      []float64 // path position of each sample [m, or rad if rotational]
	q      []float64 // samples × n joint positions
	length float64   // [m or rad]
	vmax   float64   // path speed [m/s or rad/s]
	amax   float64   // path acceleration [m/s² or rad/s²]
	rot    bool      // rotation-only: s is the angle
}

// PlanLine solves and checks the straight line from the tool at joints
// q0 to goal (T_base_tool) with solver (one attempt from the seed: each
// sample from the previous one's solution) on chain, at the path speed
// velocity [m/s; for a rotation-only line the same number in rad/s] with
// accelerationPercent of each joint's acceleration limit amax [rad/s² or
// m/s²]; vmax are the joints' velocity limits [rad/s or m/s]. It refuses,
// wrapping ErrUnreachable, a line with a pose that has no in-limit
// solution near the previous one, and one on which a joint would need
// more than its velocity limit; a line of length zero wraps ErrRequest.
// The solver is used, so the caller serialises calls that share it.
func PlanLine(chain *kinematics.Chain, solver *kinematics.Solver, q0 []float64, goal geom.Transform, vmax, amax []float64, velocity, accelerationPercent float64) (*Line, error) {
	n := len(q0)
	start, err := chain.FK(q0)
	if err != nil {
		return nil, err
	}
	// A goal beyond the arm's reach is refused before the line is
	// sampled: the samples are allocated up front, and a far goal from
	// the network must not cost gigabytes.
	if d, reach := r3.Norm(goal.Translation), chain.Reach(); d > reach+LineResolution {
		return nil, fmt.Errorf("%w: the goal is %.3f m from %s, beyond the arm's reach (%.3f m at most)", ErrUnreachable, d, chain.Base, reach)
	}
	dT, dR := geom.Distance(start, goal)
	lp := &Line{n: n, length: dT, vmax: velocity}
	samples := int(math.Ceil(dT / LineResolution))
	if dT < LinMinTranslation {
		lp.rot, lp.length = true, dR
		samples = int(math.Ceil(dR / LineRotationResolution))
	} else {
		samples = max(samples, int(math.Ceil(dR/LineRotationResolution)))
	}
	if lp.length == 0 || samples == 0 {
		return nil, fmt.Errorf("%w: the tool is at the goal already", ErrRequest)
	}
	if samples > maxLineSamples { // a prismatic joint without limits
		return nil, fmt.Errorf("%w: a line of %.3f m needs %d samples, more than %d", ErrUnreachable, lp.length, samples, maxLineSamples)
	}
	lp.s = make([]float64, samples+1)
	lp.q = make([]float64, (samples+1)*n)
	copy(lp.q, q0)
	for k := 1; k <= samples; k++ {
		f := float64(k) / float64(samples)
		pose := geom.Interpolate(start, goal, f)
		prev, cur := lp.q[(k-1)*n:k*n], lp.q[k*n:(k+1)*n]
		if _, err := solver.Solve(cur, pose, prev); err != nil {
			x := pose.Translation
			return nil, fmt.Errorf("%w: the line leaves the reachable joint range at %.0f %% of the way, (%.3f, %.3f, %.3f) m: %w",
				ErrUnreachable, 100*f, x.X, x.Y, x.Z, err)
		}
		lp.s[k] = f * lp.length
	}
	// Joint speeds: |dq/ds| · path speed within each joint's limit.
	unit := "m/s"
	if lp.rot {
		unit = "rad/s"
	}
	ds := lp.length / float64(samples)
	accel := math.Inf(1)
	for k := 1; k <= samples; k++ {
		for i := range n {
			slope := math.Abs(lp.q[k*n+i]-lp.q[(k-1)*n+i]) / ds
			if slope*lp.vmax > vmax[i]*(1+1e-9) {
				x := geom.Interpolate(start, goal, float64(k)/float64(samples)).Translation
				return nil, fmt.Errorf("%w: joint %q would need %.3g %s/s, over its limit %.3g, at %.0f %% of the line, (%.3f, %.3f, %.3f) m (a singularity or the edge of the workspace near the line): lower the speed (%.3g %s) or go point to point",
					ErrUnreachable, chain.Joints[i].Name, slope*lp.vmax, chain.Joints[i].Unit(), vmax[i], 100*float64(k)/float64(samples), x.X, x.Y, x.Z, lp.vmax, unit)
			}
			if slope > 0 {
				accel = math.Min(accel, amax[i]/slope)
			}
		}
	}
	share := accelerationPercent / 100 * lineAccelerationShare
	lp.amax = share * accel
	if math.IsInf(lp.amax, 1) {
		lp.amax = lp.vmax / 0.1
	}
	// The curvature of the joint path adds |d²q/ds²|·v² at cruise speed:
	// lower the path speed so that it stays within the other share.
	// Second differences over ~1 cm smooth the solver's tolerance.
	stride := max(1, int(math.Round(0.01/LineResolution)))
	if lp.rot {
		stride = max(1, int(math.Round(0.01/LineRotationResolution)))
	}
	h := float64(stride) * ds
	for k := stride; k+stride <= samples; k++ {
		for i := range n {
			curv := math.Abs(lp.q[(k+stride)*n+i]-2*lp.q[k*n+i]+lp.q[(k-stride)*n+i]) / (h * h)
			if limit := share * amax[i]; curv*lp.vmax*lp.vmax > limit {
				lp.vmax = math.Sqrt(limit / curv)
			}
		}
	}
	return lp, nil
}

// Advance moves the path position s [m or rad] at speed sv [m/s or
// rad/s] one cycle of dt [s] along the line's trapezoid (AxisStep toward
// the line's end); done reports arrival at rest.
func (lp *Line) Advance(s, sv, dt float64) (ns, nsv float64, done bool) {
	return AxisStep(s, sv, lp.length, lp.vmax, lp.amax, dt)
}

// Start returns the joints the line starts from [rad or m]; read only.
func (lp *Line) Start() []float64 { return lp.q[:lp.n] }

// End returns the joints at the line's end [rad or m]; read only.
func (lp *Line) End() []float64 { return lp.q[len(lp.q)-lp.n:] }

// Point writes into q and v the joints [rad or m] and joint velocities
// [rad/s or m/s] at path position s [m or rad] moving at sv along the
// line, interpolated in the segment found from k on (the previous call's
// result, 0 at first), and returns that segment. It allocates nothing.
func (lp *Line) Point(s, sv float64, k int, q, v []float64) int {
	n := lp.n
	for k+1 < len(lp.s)-1 && s > lp.s[k+1] {
		k++
	}
	for k > 0 && s < lp.s[k] {
		k--
	}
	ds := lp.s[k+1] - lp.s[k]
	f := (s - lp.s[k]) / ds
	for i := range n {
		a, b := lp.q[k*n+i], lp.q[(k+1)*n+i]
		q[i] = a + f*(b-a)
		v[i] = (b - a) / ds * sv
	}
	return k
}
