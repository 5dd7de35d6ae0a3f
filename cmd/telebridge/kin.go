package main

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/telebridge/telebridge/pkg/geom"
	"github.com/telebridge/telebridge/pkg/kinematics"
)

func init() {
	register(command{
		name:    "kin",
		summary: "forward/inverse kinematics of a URDF arm (fk, ik, bench)",
		run:     runKin,
	})
}

const kinUsage = "telebridge kin fk|ik|bench --urdf FILE [flags]"

func runKin(ctx context.Context, args []string, io stdio) error {
	if len(args) == 0 || strings.HasPrefix(args[0], "-") {
		return fmt.Errorf("%w: %s", errUsage, kinUsage)
	}
	switch args[0] {
	case "fk":
		return runKinFK(args[1:], io)
	case "ik":
		return runKinIK(args[1:], io)
	case "bench":
		return runKinBench(args[1:], io)
	}
	return fmt.Errorf("%w: unknown kin subcommand %q: %s", errUsage, args[0], kinUsage)
}

// chainFlags are the flags that pick a chain out of a URDF.
type chainFlags struct {
	urdf, base, tip *string
}

func addChainFlags(fs interface {
	String(name, value, usage string) *string
}) chainFlags {
	return chainFlags{
		urdf: fs.String("urdf", "", "robot description (URDF) `file` (required)"),
		base: fs.String("base", "", "base `link` (default: the root link)"),
		tip:  fs.String("tip", "", "tip `link` (default: the end of the longest chain)"),
	}
}

func (f chainFlags) load() (*kinematics.Chain, error) {
	if *f.urdf == "" {
		return nil, fmt.Errorf("--urdf is required")
	}
	r, err := os.Open(*f.urdf)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	c, err := kinematics.ParseURDF(r, *f.base, *f.tip)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", *f.urdf, err)
	}
	return c, nil
}

// parseFloats parses "a,b,c" into exactly n finite numbers (n < 0: any).
func parseFloats(flag, s string, n int) ([]float64, error) {
	if strings.TrimSpace(s) == "" {
		return nil, fmt.Errorf("--%s is required", flag)
	}
	parts := strings.Split(s, ",")
	if n >= 0 && len(parts) != n {
		return nil, fmt.Errorf("--%s: %d values, want %d", flag, len(parts), n)
	}
	out := make([]float64, len(parts))
	for i, p := range parts {
		v, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("--%s: value %d: %q is not a finite number", flag, i+1, p)
		}
		out[i] = v
	}
	return out, nil
}

// poseJSON is a pose as printed by kin fk and read back by kin ik: x, y, z
// [m] and intrinsic ZYX Euler angles [rad], plus the quaternion.
type poseJSON struct {
	Base       string     `json:"base"`
	Tip        string     `json:"tip"`
	XYZ        [3]float64 `json:"xyz"`
	RZYX       [3]float64 `json:"rzyx"`
	Quaternion [4]float64 `json:"quaternion_wxyz"`
}

func writeJSON(io stdio, v any) error {
	enc := json.NewEncoder(io.out)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

func runKinFK(args []string, io stdio) error {
	fs := newFlagSet("kin fk", io)
	cf := addChainFlags(fs)
	joints := fs.String("joints", "", "joint `positions` q1,q2,... [rad, or m for prismatic joints] (required)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	c, err := cf.load()
	if err != nil {
		return fmt.Errorf("fk: %w", err)
	}
	q, err := parseFloats("joints", *joints, c.DOF())
	if err != nil {
		return fmt.Errorf("fk: %w (joints: %s)", err, strings.Join(c.JointNames(), ","))
	}
	if err := c.CheckJoints(q, 0); err != nil {
		return fmt.Errorf("fk: %w", err)
	}
	t, err := c.FK(q)
	if err != nil {
		return fmt.Errorf("fk: %w", err)
	}
	return writeJSON(io, poseOf(c, t))
}

func poseOf(c *kinematics.Chain, t geom.Transform) poseJSON {
	x, y, z, rz, ry, rx := t.XYZEuler()
	q := t.Rotation
	return poseJSON{Base: c.Base, Tip: c.TipName, XYZ: [3]float64{x, y, z}, RZYX: [3]float64{rz, ry, rx},
		Quaternion: [4]float64{q.W, q.X, q.Y, q.Z}}
}

// ikJSON is the answer of kin ik.
type ikJSON struct {
	JointNames []string  `json:"joint_names"`
	Joints     []float64 `json:"joints"`
	// PositionError [m] and RotationError [rad] are what is left between
	// the solution's pose and the requested one.
	PositionError float64  `json:"position_error"`
	RotationError float64  `json:"rotation_error"`
	Attempts      int      `json:"attempts"`
	Iterations    int      `json:"iterations"`
	Pose          poseJSON `json:"pose"`
}

func runKinIK(args []string, io stdio) error {
	fs := newFlagSet("kin ik", io)
	cf := addChainFlags(fs)
	pose := fs.String("pose", "", "tool `pose` x,y,z,rz,ry,rx in the base [m, rad; Euler intrinsic ZYX] (required)")
	seed := fs.String("seed", "", "start `joints` q1,q2,... (default: the middle of the limits)")
	rnd := fs.Uint64("random-seed", 0, "seed of the random restarts")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	c, err := cf.load()
	if err != nil {
		return fmt.Errorf("ik: %w", err)
	}
	p, err := parseFloats("pose", *pose, 6)
	if err != nil {
		return fmt.Errorf("ik: %w", err)
	}
	var start []float64
	if *seed != "" {
		if start, err = parseFloats("seed", *seed, c.DOF()); err != nil {
			return fmt.Errorf("ik: %w (joints: %s)", err, strings.Join(c.JointNames(), ","))
		}
	}
	s, err := kinematics.NewSolver(c, kinematics.Config{Seed: *rnd})
	if err != nil {
		return fmt.Errorf("ik: %w", err)
	}
	target := geom.FromXYZEuler(p[0], p[1], p[2], p[3], p[4], p[5])
	q := make([]float64, c.DOF())
	res, err := s.Solve(q, target, start)
	if err != nil {
		return fmt.Errorf("ik: %w", err)
	}
	got, _ := c.FK(q)
	return writeJSON(io, ikJSON{JointNames: c.JointNames(), Joints: q, PositionError: res.Position,
		RotationError: res.Rotation, Attempts: res.Attempts, Iterations: res.Iterations, Pose: poseOf(c, got)})
}

// benchJSON is the answer of kin bench.
type benchJSON struct {
	Base            string  `json:"base"`
	Tip             string  `json:"tip"`
	DOF             int     `json:"dof"`
	Poses           int     `json:"poses"`
	Solved          int     `json:"solved"`
	SolveRate       float64 `json:"solve_rate_percent"`
	MeanMicros      float64 `json:"mean_us"`
	P99Micros       float64 `json:"p99_us"`
	MaxMicros       float64 `json:"max_us"`
	MeanAttempts    float64 `json:"mean_attempts"`
	LimitViolations int     `json:"limit_violations"`
}

func runKinBench(args []string, io stdio) error {
	fs := newFlagSet("kin bench", io)
	cf := addChainFlags(fs)
	n := fs.Int("poses", 10000, "number of random reachable poses")
	seed := fs.Uint64("seed", 42, "seed of the poses and of the solver starts")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *n <= 0 {
		return fmt.Errorf("bench: --poses must be positive")
	}
	c, err := cf.load()
	if err != nil {
		return fmt.Errorf("bench: %w", err)
	}
	s, err := kinematics.NewSolver(c, kinematics.Config{})
	if err != nil {
		return fmt.Errorf("bench: %w", err)
	}
	r := kinematics.SolveRate(s, *n, *seed)
	us := func(d interface{ Microseconds() int64 }) float64 { return float64(d.Microseconds()) }
	return writeJSON(io, benchJSON{Base: c.Base, Tip: c.TipName, DOF: c.DOF(), Poses: r.Poses, Solved: r.Solved,
		SolveRate: 100 * r.Rate(), MeanMicros: us(r.Mean), P99Micros: us(r.P99), MaxMicros: us(r.Max),
		MeanAttempts: r.MeanAttempts, LimitViolations: r.LimitViolations})
}
