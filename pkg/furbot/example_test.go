package furbot_test

import (
	"context"
	"fmt"
	"net/netip"
	"time"

	"github.com/telebridge/telebridge/pkg/furbot"
	"github.com/telebridge/telebridge/pkg/furbot/control"
)

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
	_ = b.SetCommand(control.Twist{V: 1}) // from cmd_vel
	err = b.Run(ctx)                      // sends stop frames on the way out
	fmt.Println(err, b.Started())
	// Output: <nil> false
}
