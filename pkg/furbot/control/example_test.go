package control_test

import (
	"fmt"
	"time"

	"github.com/telebridge/telebridge/pkg/furbot/control"
)

func ExampleController() {
	ctl, _ := control.NewController(control.ControllerConfig{})
	now := time.Now()
	// 100 Hz: the vehicle stands still, 1 m/s and a gentle left turn wanted.
	var out control.Output
	for i := 0; i < 50; i++ {
		out = ctl.Step(now, 0.01, control.Input{Cmd: control.Twist{V: 1, W: 0.1}, CmdAt: now, Ready: true})
		now = now.Add(10 * time.Millisecond)
	}
	fmt.Printf("mode %v, throttle > 0: %v, brake %.0f, steer %.3f rad\n", out.Mode, out.Throttle > 0, out.Brake, out.Steer)
	// Output: mode drive, throttle > 0: true, brake 0, steer 0.197 rad
}
