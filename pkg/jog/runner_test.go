package jog_test

import (
	"context"
	"testing"
	"time"

	"github.com/telebridge/telebridge/pkg/armsim"
	"github.com/telebridge/telebridge/pkg/jog"
)

// TestRunnerRealTime runs the real-time loop against the simulated arm
// for a short while: targets flow, and cancelling the loop leaves a hold.
func TestRunnerRealTime(t *testing.T) {
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
