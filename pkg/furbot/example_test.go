package furbot_test

import (
	"context"
	"encoding/hex"
	"fmt"
	"net/netip"
	"time"

	"github.com/telebridge/telebridge/pkg/furbot"
)

func ExampleDecodeStatus() {
	raw, _ := hex.DecodeString("41545346000000640200000003110201" + "05dc01f401f6009600000000003039" + "040502fe0cfe0c")
	var s furbot.Status
	if err := furbot.DecodeStatus(raw, &s); err != nil {
		fmt.Println(err)
		return
	}
	l, r := s.Traction.WheelRates()
	fmt.Printf("t=%d ms speed %.3f m/s wheels %.2f/%.2f rad/s steering %.2f deg\n",
		s.Timestamp, s.Traction.SpeedMPS(), l, r, float64(s.Steering.Angle)/100)
	// Output: t=100 ms speed 1.500 m/s wheels 5.00/5.02 rad/s steering -5.00 deg
}

func ExampleAppendControl() {
	c := furbot.Control{Seq: 1, Timestamp: 1000, Steer: 1500, Throttle: 250, Flags: furbot.FlagEnable}
	buf := furbot.AppendControl(make([]byte, 0, furbot.ControlSize), &c)
	fmt.Printf("% x\n", buf)
	// Output: 41 54 43 46 00 00 00 01 00 00 03 e8 00 00 05 dc 00 00 00 fa 00 00 01 00
}

func ExampleController() {
	ctl, _ := furbot.NewController(furbot.ControllerConfig{})
	now := time.Now()
	// 100 Hz: the vehicle stands still, 1 m/s and a gentle left turn wanted.
	var out furbot.ControlOutput
	for i := 0; i < 50; i++ {
		out = ctl.Step(now, 0.01, furbot.ControlInput{Cmd: furbot.Twist{V: 1, W: 0.1}, CmdAt: now, Ready: true})
		now = now.Add(10 * time.Millisecond)
	}
	fmt.Printf("mode %v, throttle > 0: %v, brake %.0f, steer %.3f rad\n", out.Mode, out.Throttle > 0, out.Brake, out.Steer)
	// Output: mode drive, throttle > 0: true, brake 0, steer 0.197 rad
}

func ExampleNewBridge() {
	b, err := furbot.NewBridge(furbot.BridgeConfig{
		Listen:     "127.0.0.1:0",                                // ":18003" on the vehicle network
		Vehicle:    netip.MustParseAddrPort("127.0.0.1:18004"),   // the vehicle's control port
		OnSnapshot: func(s *furbot.Snapshot) { _ = s.Odom.Pose }, // publish odom, tf, telemetry
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	_ = b.SetCommand(furbot.Twist{V: 1}) // from cmd_vel
	err = b.Run(ctx)                     // sends stop frames on the way out
	fmt.Println(err, b.Started())
	// Output: <nil> false
}

// ExampleTwistControl shows the core of furbot_twist_control: the
// subscription callbacks hand over cmd_vel and the traction feedback, and
// the 100 Hz loop turns them into control signals for the bridge.
func ExampleTwistControl() {
	tc, err := furbot.NewTwistControl(furbot.TwistNodeConfig{})
	if err != nil {
		fmt.Println(err)
		return
	}
	now := time.Unix(1000, 0)
	tc.SetFeedback(furbot.Traction{State: furbot.StateRunning, Speed: 0}, now) // TractionData callback
	_ = tc.SetCommand(furbot.Twist{V: 1.0}, now)                               // cmd_vel callback
	out := tc.Step(now)                                                        // control loop
	c := out.Control()                                                         // ControlSignals raw fields
	fmt.Println(out.Mode, c.Flags&furbot.FlagEnable != 0, c.Throttle > 0, c.Brake)
	// Output: drive true true 0
}
