package jog_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/telebridge/telebridge/pkg/armsim"
	"github.com/telebridge/telebridge/pkg/jog"
)

// realTimeRig is a controller at 100 Hz, the simulated arm at home and a
// runner between them.
func realTimeRig(t *testing.T) (*jog.Controller, *armsim.Arm, *jog.Runner) {
	t.Helper()
	chain := ur5(t)
	p := testParams()
	p.UpdateRate = 100
	ctrl, err := jog.New(jog.Config{Chain: chain, Params: p})
	if err != nil {
		t.Fatal(err)
	}
	cfg := armsim.FromChain(chain, 0.5)
	cfg.Initial = home
	arm, _ := armsim.New(cfg)
	run, err := jog.NewRunner(ctrl, arm, arm)
	if err != nil {
		t.Fatal(err)
	}
	return ctrl, arm, run
}

// TestRunnerRealTime runs the real-time loop against the simulated arm
// for a short while: targets flow, and cancelling the loop leaves a hold.
func TestRunnerRealTime(t *testing.T) {
	ctrl, arm, run := realTimeRig(t)
	ctx, cancel := context.WithCancel(context.Background())
	armDone := make(chan error, 1)
	go func() { armDone <- arm.Run(ctx, 5*time.Millisecond) }()
	done := make(chan error, 1)
	go func() { done <- run.Run(ctx) }()
	if err := ctrl.StartJointMove(time.Now(), jog.JointMoveRequest{MoveDelta: true, JointValues: []float64{1, 0, 0, 0, 0, 0}, Speed: 1}); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for run.Stats().Written < 5 && time.Now().Before(deadline) {
		ctrl.Heartbeat(time.Now())
		time.Sleep(5 * time.Millisecond)
	}
	cancel()
	<-done
	<-armDone
	s := run.Stats()
	if s.Written < 5 || s.Holds < 1 {
		t.Fatalf("stats %+v: want targets and a final hold", s)
	}
	if arm.Positions()[0] <= home[0] {
		t.Fatalf("pan did not move: %v", arm.Positions())
	}
	if _, err := jog.NewRunner(nil, arm, arm); err == nil {
		t.Fatal("nil controller accepted")
	}
}

// recorder is an Output that keeps copies of what it gets.
type recorder struct{ got []jog.JointTarget }

func (r *recorder) WriteJointTarget(t jog.JointTarget) error {
	t.Positions = append([]float64(nil), t.Positions...)
	r.got = append(r.got, t)
	return nil
}

// TestRunnerStopWritesAtOnce: the stop service's hold goes out in the
// Stop call itself, from freshly read joints, without waiting for a tick.
func TestRunnerStopWritesAtOnce(t *testing.T) {
	chain := ur5(t)
	ctrl, _ := jog.New(jog.Config{Chain: chain, Params: testParams()})
	cfg := armsim.FromChain(chain, 0.5)
	cfg.Initial = home
	arm, _ := armsim.New(cfg)
	out := &recorder{}
	run, _ := jog.NewRunner(ctrl, arm, out)
	_ = ctrl.UpdateJointState(home, arm.Now())
	_ = ctrl.StartJointMove(arm.Now(), jog.JointMoveRequest{MoveDelta: true, JointValues: []float64{1, 0, 0, 0, 0, 0}, Speed: 1})
	// The arm has moved since the controller last heard from it.
	_ = arm.WriteJointTarget(jog.JointTarget{JointNames: chain.JointNames(), Positions: []float64{0.3, -1.4, 1.6, -1.8, -1.57, 0.3}, TimeFromStart: time.Second})
	arm.Advance(time.Second)
	wrote, err := run.Stop(arm.Now())
	if err != nil || !wrote || len(out.got) != 1 {
		t.Fatalf("Stop: wrote %v, err %v, %d targets", wrote, err, len(out.got))
	}
	if h := out.got[0]; !h.Hold || h.Positions[0] != 0.3 {
		t.Fatalf("hold %+v, want the fresh position 0.3", h)
	}
	if ctrl.Status().Mode != jog.Idle {
		t.Fatalf("still moving: %+v", ctrl.Status())
	}
}

// failing is an Output that refuses the writes from number failAt to
// failTo and records the others.
type failing struct {
	mu              sync.Mutex
	n, failAt, upTo int
	after           int // writes accepted after the failures
}

func (f *failing) WriteJointTarget(jog.JointTarget) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.n++
	if f.n >= f.failAt && f.n <= f.upTo {
		return errors.New("e-stop latched")
	}
	if f.n > f.upTo {
		f.after++
	}
	return nil
}

// TestRunnerAbortsOnRefusedOutput: when the arm refuses a target (its
// e-stop latched), the motion ends and nothing more is sent, though
// heartbeats go on and the arm would accept targets again.
func TestRunnerAbortsOnRefusedOutput(t *testing.T) {
	chain := ur5(t)
	// Long heartbeat and joint-state timeouts: a starved goroutine on a
	// busy machine must not end the motion before the refused write.
	p := testParams()
	p.HeartbeatTimeout = 5
	ctrl, _ := jog.New(jog.Config{Chain: chain, Params: p, JointStateTimeout: 5 * time.Second})
	cfg := armsim.FromChain(chain, 0.5)
	cfg.Initial = home
	arm, _ := armsim.New(cfg)
	out := &failing{failAt: 3, upTo: 3}
	run, _ := jog.NewRunner(ctrl, arm, out)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 2)
	go func() { done <- arm.Run(ctx, 10*time.Millisecond) }()
	go func() { done <- run.Run(ctx) }()
	for start := time.Now(); ; { // the arm's clock follows the wall clock once it runs
		if at, _ := arm.JointPositions(make([]float64, 6)); time.Since(at) < time.Second {
			break
		}
		if time.Since(start) > 10*time.Second {
			t.Fatal("the arm's clock never followed the wall clock")
		}
		time.Sleep(5 * time.Millisecond)
	}
	_ = ctrl.StartJointMove(time.Now(), jog.JointMoveRequest{MoveDelta: true, JointValues: []float64{1, 0, 0, 0, 0, 0}, Speed: 1})
	deadline := time.Now().Add(10 * time.Second)
	for ctrl.Status().Mode != jog.Idle {
		if time.Now().After(deadline) {
			t.Fatalf("still %+v", ctrl.Status())
		}
		ctrl.Heartbeat(time.Now())
		time.Sleep(5 * time.Millisecond)
	}
	for range 20 { // heartbeats go on: nothing may be sent
		ctrl.Heartbeat(time.Now())
		time.Sleep(5 * time.Millisecond)
	}
	cancel()
	<-done
	<-done
	out.mu.Lock()
	after := out.after
	out.mu.Unlock()
	// Run's shutdown stop finds the controller idle: a hold at the
	// measured position is the one write allowed after the failure.
	if s := ctrl.Status(); !strings.Contains(s.Reason, "e-stop latched") || after > 1 || run.Stats().OutputErrors != 1 {
		t.Fatalf("status %+v, %d writes after the failure, stats %+v", s, after, run.Stats())
	}
}

// TestRunnerOnMotionEnd: when the heartbeats stop, the motion comes to
// rest and the hook hears why, once.
func TestRunnerOnMotionEnd(t *testing.T) {
	ctrl, arm, run := realTimeRig(t)
	ends := make(chan jog.Status, 4)
	run.OnMotionEnd(func(st jog.Status) { ends <- st })
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() { _ = arm.Run(ctx, 5*time.Millisecond) }()
	done := make(chan error, 1)
	go func() { done <- run.Run(ctx) }()
	if err := ctrl.StartJointMove(time.Now(), jog.JointMoveRequest{MoveDelta: true, JointValues: []float64{1, 0, 0, 0, 0, 0}, Speed: 1}); err != nil {
		t.Fatal(err)
	}
	ctrl.Heartbeat(time.Now()) // and no more
	select {
	case st := <-ends:
		if st.Mode != jog.Idle || !strings.Contains(st.Reason, "heartbeat") {
			t.Fatalf("motion ended with %+v, want idle for a heartbeat timeout", st)
		}
	case <-time.After(10 * time.Second):
		t.Fatalf("no motion end reported; controller %+v", ctrl.Status())
	}
	cancel()
	<-done
	select {
	case st := <-ends:
		t.Fatalf("a second motion end reported: %+v", st)
	default:
	}
}
