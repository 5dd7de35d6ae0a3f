package arm_test

import (
	"context"
	"fmt"
	"time"

	"github.com/telebridge/telebridge/pkg/jog"
	"github.com/telebridge/telebridge/pkg/kinematics"
	"github.com/telebridge/telebridge/pkg/servosila"
	servosilaarm "github.com/telebridge/telebridge/pkg/servosila/arm"
)

// Example drives a Servosila arm with the jog loop: the driver talks to
// the robot, the adapter is both the joint source and the output of
// jog.Runner, and the caller's requests (here one incremental waist move)
// go to the controller. Heartbeats must keep coming while it moves.
func Example() {
	drv, err := servosila.New(servosila.Config{Robot: "10.42.0.1:10000"})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer drv.Close()
	arm, err := servosilaarm.New(servosilaarm.Config{Driver: drv}) // waist, shoulder, elbow, neck
	if err != nil {
		fmt.Println(err)
		return
	}
	chain, err := kinematics.ParseURDFString(robotURDF, "base_link", "camera")
	if err != nil {
		fmt.Println(err)
		return
	}
	p := jog.DefaultParams()
	p.RobotData.FixedFrame, p.RobotData.FlangeFrame = "base_link", "camera"
	ctrl, err := jog.New(jog.Config{Chain: chain, Params: &p, GoalTolerance: 0.01})
	if err != nil {
		fmt.Println(err)
		return
	}
	runner, err := jog.NewRunner(ctrl, arm, arm)
	if err != nil {
		fmt.Println(err)
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	go func() { _ = drv.Run(ctx) }()
	_ = ctrl.StartJointMove(time.Now(), jog.JointMoveRequest{MoveDelta: true, JointValues: []float64{1, 0, 0, 0}, Speed: 0.5})
	_ = runner.Run(ctx) // ends with a hold target when ctx is done
}

// robotURDF would be the robot's description (testdata/servosila_arm.urdf).
var robotURDF string
