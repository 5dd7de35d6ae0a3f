package arm_test

import (
	"context"
	"errors"
	"math"
	"os"
	"testing"
	"time"

	"github.com/telebridge/telebridge/pkg/jog"
	"github.com/telebridge/telebridge/pkg/kinematics"
	"github.com/telebridge/telebridge/pkg/servosila"
	servosilaarm "github.com/telebridge/telebridge/pkg/servosila/arm"
	"github.com/telebridge/telebridge/pkg/servosila/control"
	servosilasim "github.com/telebridge/telebridge/pkg/servosila/sim"
	"github.com/telebridge/telebridge/pkg/servosila/wire"
)

// tolerance is the arm controller's arrival band [rad], and so jog's goal
// tolerance.
const tolerance = 0.005

// rig is the Servosila simulator and a driver talking over loopback UDP,
// with the adapter on the driver.
type rig struct {
	sim *servosilasim.Sim
	drv *servosila.Driver
	arm *servosilaarm.Arm
}

func startRig(t testing.TB, initial [wire.NumJoints]float64) *rig {
	t.Helper()
	return startRigGain(t, initial, 5)
}

// startRigGain is startRig with the driver's position gain [1/s].
func startRigGain(t testing.TB, initial [wire.NumJoints]float64, gain float64) *rig {
	t.Helper()
	sim, err := servosilasim.New(servosilasim.Config{TelemetryRate: 50, PhysicsRate: 200, Initial: initial})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	simDone, drvDone := make(chan error, 1), make(chan error, 1)
	go func() { simDone <- sim.Run(ctx) }()
	drv, err := servosila.New(servosila.Config{
		Robot: sim.Addr().String(), Local: "127.0.0.1:0", SendRate: 50,
		CommandTimeout: 300 * time.Millisecond,
		MaxJoint:       [wire.NumJoints]float64{1, 1, 1, 1, 1, 1},
		Arm:            control.ArmConfig{Gain: gain, Tolerance: tolerance, Timeout: 10 * time.Second},
	})
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	go func() { drvDone <- drv.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-drvDone; err != nil {
			t.Errorf("driver: %v", err)
		}
		if err := <-simDone; err != nil {
			t.Errorf("simulator: %v", err)
		}
	})
	arm, err := servosilaarm.New(servosilaarm.Config{Driver: drv})
	if err != nil {
		t.Fatal(err)
	}
	r := &rig{sim: sim, drv: drv, arm: arm}
	q := make([]float64, 4)
	r.waitFor(t, "first telemetry", 2*time.Second, func() bool { _, err := arm.JointPositions(q); return err == nil })
	return r
}

// waitFor polls cond until it holds or within passes.
func (r *rig) waitFor(t testing.TB, what string, within time.Duration, cond func() bool) {
	t.Helper()
	end := time.Now().Add(within)
	for !cond() {
		if time.Now().After(end) {
			t.Fatalf("%s: not within %v; simulator joints %v", what, within, r.sim.State().Joints)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// settle waits until the robot's arm joints have stayed within 1e-4 rad
// while it received 10 remote-control packets (heartbeats going on if
// beat), and returns where they are. It counts the robot's packets, not a
// wall-clock window, so a loaded machine (where 100 ms can pass without a
// physics step) slows it down without fooling it.
func (r *rig) settle(t *testing.T, what string, beat func()) []float64 {
	t.Helper()
	from, since := r.truth(), r.sim.State().Packets
	r.waitFor(t, what, 10*time.Second, func() bool {
		beat()
		now, st := r.truth(), r.sim.State()
		if maxAbsDiff(now, from) >= 1e-4 {
			from, since = now, st.Packets
			return false
		}
		return st.Packets >= since+10
	})
	return from
}

// packets waits until the robot has received n more remote-control
// packets (calling beat meanwhile).
func (r *rig) packets(t *testing.T, n uint64, beat func()) {
	t.Helper()
	p := r.sim.State().Packets
	r.waitFor(t, "more packets at the robot", 10*time.Second, func() bool {
		beat()
		return r.sim.State().Packets >= p+n
	})
}

func (r *rig) truth() []float64 {
	j := r.sim.State().Joints
	return []float64{j[wire.Waist], j[wire.Shoulder], j[wire.Elbow], j[wire.Neck]}
}

func chain(t *testing.T) *kinematics.Chain {
	t.Helper()
	f, err := os.Open("testdata/servosila_arm.urdf")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	c, err := kinematics.ParseURDF(f, "base_link", "camera")
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func maxAbsDiff(a, b []float64) float64 {
	var m float64
	for i := range a {
		m = math.Max(m, math.Abs(a[i]-b[i]))
	}
	return m
}

// jogRig runs jog.Runner on the adapter.
func jogRig(t *testing.T, r *rig) (*jog.Controller, *jog.Runner) {
	t.Helper()
	return jogRigOut(t, r, r.arm)
}

// jogRigOut runs jog.Runner with the adapter's joints and out as output.
func jogRigOut(t *testing.T, r *rig, out jog.Output) (*jog.Controller, *jog.Runner) {
	t.Helper()
	p := jog.DefaultParams()
	p.RobotData.FixedFrame, p.RobotData.FlangeFrame = "base_link", "camera"
	// Half the 1 rad/s limits, so the tests take seconds; the driver
	// follows the profile's points (accelerating at 2 rad/s²).
	p.JointsGoal.Velocity, p.JointsDelta.Velocity = 50, 50
	// A generous joint-state timeout: under -race on a busy machine the
	// telemetry can lag by more than the default 0.5 s, which would end
	// the motion (the stale-state stop is tested in package jog).
	ctrl, err := jog.New(jog.Config{Chain: chain(t), Params: &p, GoalTolerance: tolerance, JointStateTimeout: 3 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	runner, err := jog.NewRunner(ctrl, r.arm, out)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- runner.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; !errors.Is(err, context.Canceled) {
			t.Errorf("runner: %v", err)
		}
	})
	return ctrl, runner
}

// TestAbsoluteGoalOnTheSimulator: an absolute joint goal sent through
// jog.Runner and the adapter is reached by the simulated robot.
func TestAbsoluteGoalOnTheSimulator(t *testing.T) {
	r := startRig(t, [wire.NumJoints]float64{})
	ctrl, _ := jogRig(t, r)
	// This test is about reaching the goal; the heartbeat deadman has its
	// own test below. A 10 s timeout keeps a CPU stall of this goroutine
	// (the heartbeat source) from ending the motion on a loaded machine.
	if err := ctrl.SetHeartbeatTimeout(10); err != nil {
		t.Fatal(err)
	}
	goal := []float64{0.4, -0.3, 0.5, 0.2}
	if err := ctrl.StartJointMove(time.Now(), jog.JointMoveRequest{JointValues: goal, Speed: 1}); err != nil {
		t.Fatal(err)
	}
	r.waitFor(t, "goal reached", 20*time.Second, func() bool {
		ctrl.Heartbeat(time.Now())
		return ctrl.Status().Mode == jog.Idle
	})
	// Idle is judged from telemetry, which lags the truth: the robot may
	// still be closing in on the hold target. Judge it at rest.
	got := r.settle(t, "arm at rest", func() { ctrl.Heartbeat(time.Now()) })
	if d := maxAbsDiff(got, goal); d > 2*tolerance {
		t.Fatalf("robot at %v, goal %v: %.4f rad off (%+v)", got, goal, d, ctrl.Status())
	}
	if s := ctrl.Status(); s.Reason != "goal reached" {
		t.Fatalf("motion ended by %q", s.Reason)
	}
	t.Logf("goal %v reached: robot at %v", goal, got)
}

// TestStopAndHeartbeatOnTheSimulator: an incremental move runs while
// heartbeats come, stops when they lapse, and the stop service ends the
// next one at once; the robot then stays where it stopped.
func TestStopAndHeartbeatOnTheSimulator(t *testing.T) {
	r := startRig(t, [wire.NumJoints]float64{})
	ctrl, runner := jogRig(t, r)
	// While the test wants motion, a 10 s heartbeat timeout keeps a CPU
	// stall of this goroutine (the heartbeat source) from ending it; the
	// timeout phase below sets the real 0.2 s.
	setTimeout := func(s float64) {
		t.Helper()
		if err := ctrl.SetHeartbeatTimeout(s); err != nil {
			t.Fatal(err)
		}
	}
	setTimeout(10)
	start := r.truth()
	if err := ctrl.StartJointMove(time.Now(), jog.JointMoveRequest{MoveDelta: true, JointValues: []float64{1, 0, 0, 0}, Speed: 1}); err != nil {
		t.Fatal(err)
	}
	r.waitFor(t, "waist moving", 3*time.Second, func() bool {
		ctrl.Heartbeat(time.Now())
		return r.truth()[0] > start[0]+0.1
	})
	// No more heartbeats: the controller stops on its 0.2 s timeout. How
	// soon is logged, not asserted: on a loaded machine the runner's loop
	// can stall longer than that; the latency itself is asserted on an
	// injected clock in pkg/jog (TestHeartbeatTimeoutStopsMotion).
	setTimeout(0.2)
	lapse := time.Now()
	r.waitFor(t, "heartbeat timeout", 10*time.Second, func() bool { return ctrl.Status().Mode == jog.Idle })
	latency := time.Since(lapse)
	if s := ctrl.Status(); s.Reason != "heartbeat timeout" {
		t.Fatalf("ended by %q after %v", s.Reason, latency)
	}
	r.waitFor(t, "stop ends", time.Second, func() bool { return ctrl.Status().Mode == jog.Idle })
	atLapse := r.truth()
	rest := r.settle(t, "waist at rest", func() {})
	r.packets(t, 15, func() {}) // 300 ms at 50 Hz
	if d := maxAbsDiff(r.truth(), rest); d > 1e-4 {
		t.Fatalf("robot moved %.4f rad after settling (no stale motion allowed)", d)
	}
	// The stop decelerates from where the profile was: the robot ends
	// within a step of where it was when the timeout was seen.
	if d := maxAbsDiff(rest, atLapse); d > jog.DefaultParams().StepJoints {
		t.Fatalf("robot went on %.4f rad after the heartbeat timeout", d)
	}

	// Stop: immediate, although heartbeats go on.
	setTimeout(10)
	if err := ctrl.StartJointMove(time.Now(), jog.JointMoveRequest{MoveDelta: true, JointValues: []float64{0, 0, -1, 0}, Speed: 1}); err != nil {
		t.Fatal(err)
	}
	r.waitFor(t, "elbow moving", 3*time.Second, func() bool {
		ctrl.Heartbeat(time.Now())
		return r.truth()[2] < rest[2]-0.1
	})
	atStop := r.truth()
	cmdAtStop, _ := ctrl.Commanded()
	held, err := runner.Stop(time.Now())
	if err != nil || !held {
		t.Fatalf("stop: held %v, %v", held, err)
	}
	beat := func() { ctrl.Heartbeat(time.Now()) }
	stopped := r.settle(t, "elbow at rest", beat)
	r.packets(t, 15, beat) // 300 ms at 50 Hz, beyond the 0.2 s heartbeat timeout
	if d := maxAbsDiff(r.truth(), stopped); d > 1e-4 {
		t.Fatalf("robot moved %.4f rad after the stop although heartbeats went on", d)
	}
	// The robot rests where the profile's deceleration ends: the
	// braking distance 0.5²/(2·2) = 0.0625 rad beyond the commanded
	// position, which the driver's controller follows with some lag.
	r.waitFor(t, "stop ends", time.Second, func() bool { return ctrl.Status().Mode == jog.Idle })
	restPoint, _ := ctrl.Commanded()
	if d := maxAbsDiff(stopped, restPoint); d > 2*tolerance {
		t.Fatalf("robot at rest %.4f rad from the stop's rest point", d)
	}
	lag := math.Abs(cmdAtStop[2] - atStop[2])
	// Margin: one cycle of motion (0.025 rad) between the reads and Stop.
	if d := maxAbsDiff(stopped, atStop); d > lag+0.0625+0.04 {
		t.Fatalf("robot went on %.4f rad after the stop (lag %.4f rad)", d, lag)
	}
	t.Logf("heartbeat timeout seen %v after the last heartbeat (timeout 0.2 s)", latency)
	t.Logf("waist jogged %.3f -> %.3f rad (%.4f rad after the timeout was seen); elbow stopped at %.3f rad (%.4f rad after the stop)",
		start[0], rest[0], rest[0]-atLapse[0], stopped[2], stopped[2]-atStop[2])
}

func TestRefusedTargets(t *testing.T) {
	r := startRig(t, [wire.NumJoints]float64{0.1, 0.2, 0.3, 0.4})
	names := r.arm.JointNames()
	for _, tc := range []struct {
		name string
		t    jog.JointTarget
	}{
		{"short", jog.JointTarget{JointNames: names[:3], Positions: []float64{0, 0, 0}}},
		{"wrong order", jog.JointTarget{JointNames: []string{"shoulder", "waist", "elbow", "neck"}, Positions: make([]float64, 4)}},
		{"NaN", jog.JointTarget{JointNames: names, Positions: []float64{0, math.NaN(), 0, 0}}},
		{"NaN velocity", jog.JointTarget{JointNames: names, Positions: make([]float64, 4), Velocities: []float64{0, 0, 0, math.NaN()}}},
		{"infinite next point", jog.JointTarget{JointNames: names, Positions: make([]float64, 4), Velocities: make([]float64, 4),
			Next: []float64{math.Inf(-1), 0, 0, 0}, NextVelocities: make([]float64, 4)}},
	} {
		if err := r.arm.WriteJointTarget(tc.t); !errors.Is(err, servosilaarm.ErrTarget) {
			t.Errorf("%s: %v, want ErrTarget", tc.name, err)
		}
	}
	// Beyond the driver's limits (default +-pi): refused by the driver.
	if err := r.arm.WriteJointTarget(jog.JointTarget{JointNames: names, Positions: []float64{4, 0, 0, 0}}); err == nil {
		t.Error("a waist target of 4 rad was accepted")
	}
	// A profile point due seconds ahead is a clock error: refused by the
	// driver (control.MaxLead).
	if err := r.arm.WriteJointTarget(jog.JointTarget{JointNames: names, Positions: make([]float64, 4), Velocities: make([]float64, 4),
		Stamp: time.Now(), TimeFromStart: 5 * time.Second}); !errors.Is(err, wire.ErrInvalidCommand) {
		t.Errorf("a point due in 5 s: %v, want servosila.ErrInvalidCommand", err)
	}
	q := make([]float64, 4)
	if _, err := r.arm.JointPositions(q); err != nil || maxAbsDiff(q, []float64{0.1, 0.2, 0.3, 0.4}) > 1e-3 {
		t.Fatalf("joint positions %v (%v), want the simulator's initial 0.1 0.2 0.3 0.4", q, err)
	}
	if n := testing.AllocsPerRun(50, func() { _, _ = r.arm.JointPositions(q) }); n != 0 {
		t.Fatalf("%v allocations per JointPositions", n)
	}
}

func TestNewRefuses(t *testing.T) {
	r := startRig(t, [wire.NumJoints]float64{})
	for _, joints := range [][]string{{"waist", "waist"}, {"flippers"}, {"wrist"}} {
		if _, err := servosilaarm.New(servosilaarm.Config{Driver: r.drv, Joints: joints}); err == nil {
			t.Errorf("joints %v accepted", joints)
		}
	}
	if _, err := servosilaarm.New(servosilaarm.Config{}); err == nil {
		t.Error("no driver accepted")
	}
}

// BenchmarkJointPositions reads the arm's joints from the driver's latest
// telemetry (the jog loop does it every cycle), with the simulator
// sending telemetry at 50 Hz.
func BenchmarkJointPositions(b *testing.B) {
	r := startRig(b, [wire.NumJoints]float64{0.1, 0.2, 0.3, 0.4})
	q := make([]float64, 4)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := r.arm.JointPositions(q); err != nil {
			b.Fatal(err)
		}
	}
}
