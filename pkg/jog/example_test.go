package jog_test

import (
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/telebridge/telebridge/pkg/armsim"
	"github.com/telebridge/telebridge/pkg/jog"
	"github.com/telebridge/telebridge/pkg/kinematics"
)

// Example jogs the third joint of an arm in the negative direction for
// three cycles, then lets the heartbeat lapse: the last heartbeat is at
// cycle 2 (150 ms), and at cycle 7 (400 ms) more than the 0.2 s timeout has
// passed, so the stop begins: its rest point goes out (hold), with zero
// velocity at the braking time, and nothing more. The elbow
// accelerates at 2 rad/s² to 5 % of its 3.15 rad/s limit.
func Example() {
	f, _ := os.Open("../../launch/urdf/ur5_like.urdf")
	chain, err := kinematics.ParseURDF(f, "base_link", "tool0")
	f.Close()
	if err != nil {
		fmt.Println(err)
		return
	}
	ctrl, _ := jog.New(jog.Config{Chain: chain})
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	q := []float64{0, -1.5, 1.5, -1.5, -1.5, 0}
	_ = ctrl.UpdateJointState(q, now)
	_ = ctrl.StartJointMove(now, jog.JointMoveRequest{MoveDelta: true, JointValues: []float64{0, 0, -1, 0, 0, 0}, Speed: 1})
	for i := range 11 {
		now = now.Add(ctrl.Period())
		if i < 3 {
			ctrl.Heartbeat(now) // the GUI's deadman
		}
		_ = ctrl.UpdateJointState(q, now) // a real arm would report motion
		t, ok, _ := ctrl.Step(now)
		if ok {
			fmt.Printf("cycle %d: elbow -> %.4f rad at %.3f rad/s in %v, hold %v\n", i, t.Positions[2], t.Velocities[2], t.TimeFromStart.Round(time.Millisecond), t.Hold)
		}
	}
	fmt.Println(ctrl.Status().Reason)
	// Output:
	// cycle 0: elbow -> 1.4975 rad at -0.100 rad/s in 50ms, hold false
	// cycle 1: elbow -> 1.4911 rad at -0.158 rad/s in 50ms, hold false
	// cycle 2: elbow -> 1.4832 rad at -0.158 rad/s in 50ms, hold false
	// cycle 3: elbow -> 1.4753 rad at -0.158 rad/s in 50ms, hold false
	// cycle 4: elbow -> 1.4674 rad at -0.158 rad/s in 50ms, hold false
	// cycle 5: elbow -> 1.4596 rad at -0.158 rad/s in 50ms, hold false
	// cycle 6: elbow -> 1.4517 rad at -0.158 rad/s in 50ms, hold false
	// cycle 7: elbow -> 1.4455 rad at 0.000 rad/s in 79ms, hold true
	// heartbeat timeout
}

// ExampleController_StartCartesianMove_lin moves the tool of a simulated
// arm 10 cm up along the straight line (command type LIN) at 0.1 m/s, then
// asks for a goal out of reach, which is refused before anything moves.
func ExampleController_StartCartesianMove_lin() {
	f, _ := os.Open("../../launch/urdf/ur5_like.urdf")
	chain, err := kinematics.ParseURDF(f, "base_link", "tool0")
	f.Close()
	if err != nil {
		fmt.Println(err)
		return
	}
	p := jog.DefaultParams()
	p.RobotData.FixedFrame, p.RobotData.FlangeFrame = "base_link", "tool0"
	p.CartesianGoalCommandTypeTranslational = jog.CommandLIN
	ctrl, _ := jog.New(jog.Config{Chain: chain, Params: &p})
	acfg := armsim.FromChain(chain, 0.5)
	acfg.Initial = []float64{0.2, -1.4, 1.6, -1.8, -1.57, 0.3}
	arm, _ := armsim.New(acfg)
	q := make([]float64, chain.DOF())
	cycle := func() {
		at, _ := arm.JointPositions(q)
		_ = ctrl.UpdateJointState(q, at)
		ctrl.Heartbeat(at)
		if t, ok, _ := ctrl.Step(at); ok {
			_ = arm.WriteJointTarget(t)
		}
		arm.Advance(ctrl.Period())
	}
	cycle() // the controller learns where the arm is
	start, _ := chain.FK(arm.Positions())
	goal := start
	goal.Translation.Z += 0.1
	err = ctrl.StartCartesianMove(arm.Now(), jog.CartesianMoveRequest{PoseReference: "base_link", Pose: jog.EulerPoseOf(goal), Speed: 1})
	fmt.Println("start:", err, ctrl.Status().Mode)
	n := 0
	for ; ctrl.Status().Mode != jog.Idle; n++ {
		cycle()
	}
	cycle()
	end, _ := chain.FK(arm.Positions())
	fmt.Printf("%s after %d cycles, %.1f mm up\n", ctrl.Status().Reason, n, 1000*(end.Translation.Z-start.Translation.Z))
	goal.Translation.X += 2
	err = ctrl.StartCartesianMove(arm.Now(), jog.CartesianMoveRequest{PoseReference: "base_link", Pose: jog.EulerPoseOf(goal), Speed: 1})
	fmt.Println(errors.Is(err, jog.ErrUnreachable), ctrl.Status().Mode)
	// Output:
	// start: <nil> cartesian line
	// goal reached after 28 cycles, 100.0 mm up
	// true idle
}
