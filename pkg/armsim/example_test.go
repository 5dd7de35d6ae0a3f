package armsim_test

import (
	"fmt"
	"time"

	"github.com/telebridge/telebridge/pkg/armsim"
	"github.com/telebridge/telebridge/pkg/jog"
)

// Example sends one target to a two-joint arm and advances time.
func Example() {
	arm, _ := armsim.New(armsim.Config{Names: []string{"pan", "lift"}, MaxVelocity: []float64{1, 1}})
	_ = arm.WriteJointTarget(jog.JointTarget{
		JointNames: []string{"pan", "lift"}, Positions: []float64{0.4, -0.2}, TimeFromStart: 2 * time.Second,
	})
	for range 3 {
		arm.Advance(time.Second)
		fmt.Println(arm.Positions())
	}
	// Output:
	// [0.2 -0.1]
	// [0.4 -0.2]
	// [0.4 -0.2]
}
