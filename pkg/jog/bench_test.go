package jog_test

import (
	"testing"
	"time"

	"github.com/telebridge/telebridge/pkg/jog"
	"github.com/telebridge/telebridge/pkg/jog/control"
)

func benchmarkStep(b *testing.B, start func(r *rig) error) {
	benchmarkStepWith(b, nil, start)
}

func benchmarkStepWith(b *testing.B, p *jog.Params, start func(r *rig) error) {
	r := newRig(b, jog.Config{Params: p, Relative: p != nil && control.IsRelative(p.CartesianDelta.CommandType)}, home)
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

// BenchmarkStepCartesianDeltaRELW: the same with every point also sent
// as a relative command in the world's axes (two more FK and a tf lookup).
func BenchmarkStepCartesianDeltaRELW(b *testing.B) {
	benchmarkStepWith(b, relParams(control.CommandRELW), func(r *rig) error {
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

func BenchmarkStepJointGoal(b *testing.B) {
	benchmarkStep(b, func(r *rig) error {
		return r.ctrl.StartJointMove(r.now(), jog.JointMoveRequest{JointValues: []float64{1, -1, 1, -1, -1, 1}, Speed: 1})
	})
}

// BenchmarkStepLIN is one cycle of a LIN move (the path profile and the
// interpolation of the joint samples).
func BenchmarkStepLIN(b *testing.B) {
	benchmarkStepWith(b, linParams(), func(r *rig) error {
		return r.ctrl.StartCartesianMove(r.now(), line500mm(b, r))
	})
}

// line500mm is a LIN request 0.5 m up and along x from home.
func line500mm(tb testing.TB, r *rig) jog.CartesianMoveRequest {
	start, err := r.ctrl.Chain().FK(home)
	if err != nil {
		tb.Fatal(err)
	}
	goal := start
	goal.Translation.X += 0.4
	goal.Translation.Z += 0.3
	return jog.CartesianMoveRequest{PoseReference: "base_link", Pose: jog.EulerPoseOf(goal), Speed: 1}
}

// BenchmarkPlanLIN500mm plans (solves and checks) a 0.5 m LIN move at
// 1 mm resolution: 500 IK solutions from the previous one, the joint
// speed check and the path limits.
func BenchmarkPlanLIN500mm(b *testing.B) {
	r := newRig(b, jog.Config{Params: linParams()}, home)
	req := line500mm(b, r)
	b.ReportAllocs()
	for b.Loop() {
		if err := r.ctrl.StartCartesianMove(r.now(), req); err != nil {
			b.Fatal(err)
		}
		r.ctrl.Stop(r.now()) // idle again: a LIN starts from rest
	}
}
