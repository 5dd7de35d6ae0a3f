package crawler_test

import (
	"math"
	"testing"

	"github.com/telebridge/telebridge/pkg/physics/crawler"
	"github.com/telebridge/telebridge/pkg/servosila/wire"
)

// Each motored joint follows its velocity command (the URDF's 0.5 rad/s
// cap applies) and holds when commanded zero.
func TestJointsFollowVelocity(t *testing.T) {
	w, r := flat(t, groundFriction, crawler.Config{})
	must(t, w.Step(300))
	s0 := state(t, r)
	cmd := map[wire.Joint]float64{wire.Waist: 0.3, wire.Shoulder: -0.2, wire.Elbow: 0.25, wire.Neck: -0.3, wire.Flippers: 0.8}
	for j, v := range cmd {
		must(t, r.SetJointVelocity(j, v))
	}
	must(t, w.Step(1000))
	for j := range cmd {
		must(t, r.SetJointVelocity(j, 0))
	}
	must(t, w.Step(500))
	s1 := state(t, r)
	must(t, w.Step(500))
	s2 := state(t, r)
	for j, v := range cmd {
		want := math.Max(-0.5, math.Min(0.5, v)) // 1 s at the capped velocity
		got := s1.Joints[j] - s0.Joints[j]
		if math.Abs(got-want) > 0.03 {
			t.Errorf("%v: moved %.3f rad in 1 s at %.2f rad/s, want %.3f", j, got, v, want)
		}
		// Judged by the angle (the instantaneous rate jitters by a few
		// 0.01 rad/s with the iterative solver while the angle holds).
		if d := s2.Joints[j] - s1.Joints[j]; math.Abs(d) > 2e-3 {
			t.Errorf("%v: moved %.4f rad in the 0.5 s after the stop", j, d)
		}
	}
	if err := r.SetJointVelocity(wire.Gripper, 1); err == nil {
		t.Error("the gripper is not simulated, but a command for it was accepted")
	}
}

// Flippers down (negative) lift the front of the robot: the 100 N m motor
// carries part of the robot's weight on the flipper tips.
func TestFlippersLiftTheFront(t *testing.T) {
	w, r := flat(t, groundFriction, crawler.Config{})
	must(t, w.Step(300))
	must(t, r.SetJointVelocity(wire.Flippers, -0.5))
	must(t, w.Step(1500))
	s := state(t, r)
	pitch := -math.Asin(s.Base.Rot.Rotate([3]float64{1, 0, 0})[2]) * 180 / math.Pi
	t.Logf("flippers at %.3f rad: pitch %.1f deg (nose up negative), flipper torque %.1f N m", s.Joints[wire.Flippers], pitch, s.Torques[wire.Flippers])
	if pitch > -3 {
		t.Errorf("flippers at %.2f rad did not lift the front: pitch %.1f deg", s.Joints[wire.Flippers], pitch)
	}
}

// The arm's motors hold the stowed arm; the shoulder's torque is what the
// arm's weight asks of it.
func TestArmHoldsAgainstGravity(t *testing.T) {
	w, r := flat(t, groundFriction, crawler.Config{})
	must(t, w.Step(300))
	s0 := state(t, r)
	must(t, w.Step(1000))
	s1 := state(t, r)
	for _, j := range []wire.Joint{wire.Waist, wire.Shoulder, wire.Elbow, wire.Neck} {
		if d := math.Abs(s1.Joints[j] - s0.Joints[j]); d > 1e-3 {
			t.Errorf("%v sagged %.4f rad in 1 s", j, d)
		}
	}
	if math.Abs(s1.Torques[wire.Shoulder]) < 1 {
		t.Errorf("shoulder torque %.3f N m: the arm's weight should load it", s1.Torques[wire.Shoulder])
	}
	t.Logf("holding torques: shoulder %.2f, elbow %.2f, neck %.2f N m", s1.Torques[wire.Shoulder], s1.Torques[wire.Elbow], s1.Torques[wire.Neck])
}
