package jog_test

import (
	"math"
	"os"
	"testing"
	"time"

	"github.com/telebridge/telebridge/pkg/armsim"
	"github.com/telebridge/telebridge/pkg/jog"
	"github.com/telebridge/telebridge/pkg/kinematics"
)

// ur5 loads the UR5-sized test arm from base_link to tool0.
func ur5(t testing.TB) *kinematics.Chain {
	t.Helper()
	f, err := os.Open("../../launch/urdf/ur5_like.urdf")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	c, err := kinematics.ParseURDF(f, "base_link", "tool0")
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// home is a comfortable UR5 pose away from singularities and limits.
var home = []float64{0.2, -1.4, 1.6, -1.8, -1.57, 0.3}

// testParams are the defaults with the test arm's frame names.
func testParams() *jog.Params {
	p := jog.DefaultParams()
	p.RobotData.FixedFrame = "base_link"
	p.RobotData.FlangeFrame = "tool0"
	return &p
}

// rig is a controller driving a simulated arm with a simulated clock:
// each cycle reads the arm, steps the controller at the arm's time,
// writes the target and advances the arm one period.
type rig struct {
	t       testing.TB
	ctrl    *jog.Controller
	arm     *armsim.Arm
	period  time.Duration
	q       []float64
	targets []jog.JointTarget // copies of what was sent
	aims    [][]float64       // the controller's successive Targets
	truth   [][]float64       // the arm's joints after every cycle
	// sub > 1 advances the arm in sub steps per cycle and records the
	// truth after each in fine (from the start).
	sub  int
	fine [][]float64
	// With lateEvery > 0, every lateEvery-th target reaches the arm lateBy
	// after its cycle began (the arm moves on meanwhile), as a message
	// delayed by the loop or the transport; noNext strips the lookahead
	// point from every target.
	lateEvery int
	lateBy    time.Duration
	noNext    bool
	cycles    int
}

func newRig(t testing.TB, cfg jog.Config, initial []float64) *rig {
	t.Helper()
	return newRigArm(t, cfg, initial, nil)
}

// newRigArm is newRig with the simulated arm's configuration changed by
// arm (if not nil) before it is made.
func newRigArm(t testing.TB, cfg jog.Config, initial []float64, arm func(*armsim.Config)) *rig {
	t.Helper()
	if cfg.Chain == nil {
		cfg.Chain = ur5(t)
	}
	if cfg.Params == nil {
		cfg.Params = testParams()
	}
	ctrl, err := jog.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	lo, hi := ctrl.Limits()
	acfg := armsim.FromChain(cfg.Chain, 0.5)
	acfg.Lower, acfg.Upper = lo, hi
	acfg.Initial = initial
	if arm != nil {
		arm(&acfg)
	}
	sim, err := armsim.New(acfg)
	if err != nil {
		t.Fatal(err)
	}
	r := &rig{t: t, ctrl: ctrl, arm: sim, period: ctrl.Period(), q: make([]float64, cfg.Chain.DOF())}
	r.truth = append(r.truth, sim.Positions())
	r.sense()
	return r
}

func (r *rig) now() time.Time { return r.arm.Now() }

// sense feeds the arm's joints to the controller.
func (r *rig) sense() {
	at, err := r.arm.JointPositions(r.q)
	if err != nil {
		r.t.Fatal(err)
	}
	if err := r.ctrl.UpdateJointState(r.q, at); err != nil {
		r.t.Fatal(err)
	}
}

// cycle runs one loop iteration and returns the target sent, if any.
func (r *rig) cycle() (jog.JointTarget, bool, error) {
	r.sense()
	r.cycles++
	tg, ok, err := r.ctrl.Step(r.now())
	late := time.Duration(0)
	if r.lateEvery > 0 && r.cycles%r.lateEvery == 0 {
		late = r.lateBy
		r.advance(late)
	}
	if ok {
		tg.Positions = append([]float64(nil), tg.Positions...)
		tg.Velocities = append([]float64(nil), tg.Velocities...)
		tg.Next = append([]float64(nil), tg.Next...)
		tg.NextVelocities = append([]float64(nil), tg.NextVelocities...)
		if r.noNext {
			tg.Next, tg.NextVelocities, tg.NextTimeFromStart = nil, nil, 0
		}
		if werr := jog.Write(r.arm, tg); werr != nil {
			r.t.Fatal(werr)
		}
		r.targets = append(r.targets, tg)
	}
	if aim, has := r.ctrl.Target(); has && (len(r.aims) == 0 || maxAbsDiff(aim, r.aims[len(r.aims)-1]) != 0) {
		r.aims = append(r.aims, aim)
	}
	r.advance(r.period - late)
	r.truth = append(r.truth, r.arm.Positions())
	return tg, ok, err
}

// advance moves the arm on by d, in steps of period/sub recorded in fine
// when sub > 1 (d a multiple of the step).
func (r *rig) advance(d time.Duration) {
	if r.sub <= 1 {
		r.arm.Advance(d)
		return
	}
	h := r.period / time.Duration(r.sub)
	if d%h != 0 {
		r.t.Fatalf("advance %v: not a multiple of %v", d, h)
	}
	for range d / h {
		r.arm.Advance(h)
		r.fine = append(r.fine, r.arm.Positions())
	}
}

// untilIdle cycles (no heartbeats) until the controller is idle, at most
// n cycles; it reports the cycles run.
func (r *rig) untilIdle(n int) int {
	r.t.Helper()
	for i := range n {
		if r.ctrl.Status().Mode == jog.Idle {
			return i
		}
		r.cycle()
	}
	r.t.Fatalf("still %v after %d cycles", r.ctrl.Status().Mode, n)
	return n
}

// fineDynamics is dynamics over the sub-cycle samples.
func (r *rig) fineDynamics() (vel, acc []float64) {
	n := len(r.q)
	vel, acc = make([]float64, n), make([]float64, n)
	dt := r.period.Seconds() / float64(r.sub)
	for k := 2; k < len(r.fine); k++ {
		for j := range n {
			vel[j] = math.Max(vel[j], math.Abs(r.fine[k][j]-r.fine[k-1][j])/dt)
			acc[j] = math.Max(acc[j], math.Abs(r.fine[k][j]-2*r.fine[k-1][j]+r.fine[k-2][j])/(dt*dt))
		}
	}
	return vel, acc
}

// dynamics returns the largest finite-difference velocity and
// acceleration of each joint over the truth recorded from cycle from on,
// sampled once per period [rad/s, rad/s²].
func (r *rig) dynamics(from int) (vel, acc []float64) {
	n := len(r.q)
	vel, acc = make([]float64, n), make([]float64, n)
	dt := r.period.Seconds()
	for k := from + 1; k < len(r.truth); k++ {
		for j := range n {
			v := (r.truth[k][j] - r.truth[k-1][j]) / dt
			vel[j] = math.Max(vel[j], math.Abs(v))
			if k >= from+2 {
				a := (r.truth[k][j] - 2*r.truth[k-1][j] + r.truth[k-2][j]) / (dt * dt)
				acc[j] = math.Max(acc[j], math.Abs(a))
			}
		}
	}
	return vel, acc
}

// beatAndCycle sends a heartbeat, then runs a cycle.
func (r *rig) beatAndCycle() (jog.JointTarget, bool, error) {
	r.ctrl.Heartbeat(r.now())
	return r.cycle()
}

// runUntilIdle cycles with heartbeats until the controller is idle.
func (r *rig) runUntilIdle(maxCycles int) int {
	r.t.Helper()
	for i := range maxCycles {
		if _, _, err := r.beatAndCycle(); err != nil {
			r.t.Fatalf("cycle %d: %v", i, err)
		}
		if r.ctrl.Status().Mode == jog.Idle {
			return i + 1
		}
	}
	r.t.Fatalf("still %v after %d cycles", r.ctrl.Status().Mode, maxCycles)
	return 0
}

func maxAbsDiff(a, b []float64) float64 {
	var m float64
	for i := range a {
		m = math.Max(m, math.Abs(a[i]-b[i]))
	}
	return m
}
