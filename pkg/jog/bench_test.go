package jog_test

import (
	"testing"

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
