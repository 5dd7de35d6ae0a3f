package node_test

import (
	"fmt"
	"time"

	"github.com/telebridge/telebridge/pkg/furbot/control"
	"github.com/telebridge/telebridge/pkg/furbot/node"
	"github.com/telebridge/telebridge/pkg/furbot/wire"
)

// ExampleTwistControl shows the core of furbot_twist_control: the
// subscription callbacks hand over cmd_vel and the traction feedback, and
// the 100 Hz loop turns them into control signals for the bridge.
func ExampleTwistControl() {
	tc, err := node.NewTwistControl(node.TwistNodeConfig{})
	if err != nil {
		fmt.Println(err)
		return
	}
	now := time.Unix(1000, 0)
	tc.SetFeedback(wire.Traction{State: wire.StateRunning, Speed: 0}, now) // TractionData callback
	_ = tc.SetCommand(control.Twist{V: 1.0}, now)                          // cmd_vel callback
	out := tc.Step(now)                                                    // control loop
	c := out.Control()                                                     // ControlSignals raw fields
	fmt.Println(out.Mode, c.Flags&wire.FlagEnable != 0, c.Throttle > 0, c.Brake)
	// Output: drive true true 0
}
