//go:build ros2

package main

import (
	"fmt"

	geometry_msgs_msg "github.com/telebridge/telebridge/internal/rosmsg/geometry_msgs/msg"
	"github.com/telebridge/telebridge/internal/rosnode"
	"github.com/telebridge/telebridge/pkg/cmdvel"
	"github.com/telebridge/telebridge/pkg/rosparam"
	"github.com/telebridge/telebridge/pkg/servosila"
	servosilanode "github.com/telebridge/telebridge/pkg/servosila/node"
	"github.com/tiiuae/rclgo/pkg/rclgo"
)

// subscribeCmdVel subscribes cmd_vel as Twist, or as TwistStamped with
// cmd_vel_stamped, whose stamp must be within the driver's command
// timeout of the node's clock (cmdvel.Check). The callbacks never block.
func subscribeCmdVel(n *rosnode.Node, drv *servosila.Driver, stamped bool) error {
	log := n.Logger()
	var refused cmdvel.Refusals
	set := func(v, w float64) {
		if err := drv.SetTwist(v, w); err != nil {
			log.Warnf("cmd_vel refused: %v", err)
		}
	}
	opts := rosnode.SubOpts(servosilanode.QoSCmdVel)
	var err error
	if stamped {
		_, err = geometry_msgs_msg.NewTwistStampedSubscription(n.Node, servosilanode.TopicCmdVel, opts,
			func(msg *geometry_msgs_msg.TwistStamped, _ *rclgo.MessageInfo, err error) {
				if err != nil {
					return
				}
				stamp := rosparam.Time{Sec: msg.Header.Stamp.Sec, Nanosec: msg.Header.Stamp.Nanosec}.Time()
				if err := cmdvel.Check(stamp, n.Now(), drv.Config().CommandTimeout); err != nil {
					if ok, count := refused.Add(); ok {
						log.Warnf("cmd_vel refused (%d so far): %v", count, err)
					}
					return
				}
				set(msg.Twist.Linear.X, msg.Twist.Angular.Z)
			})
	} else {
		_, err = geometry_msgs_msg.NewTwistSubscription(n.Node, servosilanode.TopicCmdVel, opts,
			func(msg *geometry_msgs_msg.Twist, _ *rclgo.MessageInfo, err error) {
				if err == nil {
					set(msg.Linear.X, msg.Angular.Z)
				}
			})
	}
	if err != nil {
		return fmt.Errorf("subscribe %s: %w", servosilanode.TopicCmdVel, err)
	}
	return nil
}
