package jog_test

import (
	"testing"
	"time"

	"github.com/telebridge/telebridge/pkg/jog"
)

func benchmarkStep(b *testing.B, start func(r *rig) error) {
	r := newRig(b, jog.Config{}, home)
	if err := start(r); err != nil {
		b.Fatal(err)
	}
	now := r.now()
	b.ReportAllocs()
	for b.Loop() {
		r.ctrl.Heartbeat(now)
		_ = r.ctrl.UpdateJointState(home, now)
		if _, ok, err := r.ctrl.Step(now); !ok || err != nil {
			b.Fatal(ok, err)
		}
	}
}

func BenchmarkStepJointDelta(b *testing.B) {
	benchmarkStep(b, func(r *rig) error {
		return r.ctrl.StartJointMove(r.now(), jog.JointMoveRequest{MoveDelta: true, JointValues: []float64{1, 1, 0, 0, 0, 0}, Speed: 1})
	})
}

func BenchmarkStepCartesianDelta(b *testing.B) {
	benchmarkStep(b, func(r *rig) error {
		return r.ctrl.StartCartesianMove(r.now(), jog.CartesianMoveRequest{MoveDelta: true, Pose: jog.EulerPose{X: 1, RZ: 1}, Speed: 1})
	})
}

// BenchmarkJointStatesStore is the jog_server's joint_states callback:
// a message with the chain's joints in another order plus a gripper.
func BenchmarkJointStatesStore(b *testing.B) {
	s := jog.NewJointStates([]string{"a", "b", "c", "d", "e", "f"})
	names := []string{"gripper", "f", "e", "d", "c", "b", "a"}
	pos := []float64{0, 6, 5, 4, 3, 2, 1}
	q := make([]float64, 6)
	at := time.Unix(1, 0)
	b.ReportAllocs()
	for b.Loop() {
		if err := s.Store(names, pos, at); err != nil {
			b.Fatal(err)
		}
		if _, err := s.JointPositions(q); err != nil {
			b.Fatal(err)
		}
	}
}
