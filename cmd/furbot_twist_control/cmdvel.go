//go:build ros2

package main

import (
	"fmt"
	"time"

	geometry_msgs_msg "github.com/telebridge/telebridge/internal/rosmsg/geometry_msgs/msg"
	"github.com/telebridge/telebridge/internal/rosnode"
	"github.com/telebridge/telebridge/pkg/cmdvel"
	furbotcontrol "github.com/telebridge/telebridge/pkg/furbot/control"
	furbotnode "github.com/telebridge/telebridge/pkg/furbot/node"
	"github.com/telebridge/telebridge/pkg/rosparam"
	"github.com/tiiuae/rclgo/pkg/rclgo"
)

// subscribeCmdVel subscribes cmd_vel as Twist, or as TwistStamped with
// cmd_vel_stamped, whose stamp must be within command_timeout of the
// node's clock (cmdvel.Check). Refusals are logged at powers of two and
// counted, accepted commands marked, in in (the diagnostics).
func subscribeCmdVel(n *rosnode.Node, tc *furbotnode.TwistControl, in *inputs) error {
	log := n.Logger()
	var refused cmdvel.Refusals
	refuse := func(err error) {
		in.refused.Add(1)
		if ok, count := refused.Add(); ok {
			log.Warnf("cmd_vel refused (%d so far): %v", count, err)
		}
	}
	set := func(v, w float64) {
		in.cmd.Mark(time.Now())
		if err := tc.SetCommand(furbotcontrol.Twist{V: v, W: w}, time.Now()); err != nil {
			refuse(err)
		}
	}
	opts := rosnode.SubOpts(furbotnode.QoSCmdVel)
	var err error
	if tc.Config().CmdVelStamped {
		_, err = geometry_msgs_msg.NewTwistStampedSubscription(n.Node, furbotnode.TopicCmdVel, opts,
			func(msg *geometry_msgs_msg.TwistStamped, _ *rclgo.MessageInfo, err error) {
				if err != nil {
					return
				}
				stamp := rosparam.Time{Sec: msg.Header.Stamp.Sec, Nanosec: msg.Header.Stamp.Nanosec}.Time()
				if err := cmdvel.Check(stamp, n.Now(), tc.Config().Controller.CommandTimeout); err != nil {
					refuse(err)
					return
				}
				set(msg.Twist.Linear.X, msg.Twist.Angular.Z)
			})
	} else {
		_, err = geometry_msgs_msg.NewTwistSubscription(n.Node, furbotnode.TopicCmdVel, opts,
			func(msg *geometry_msgs_msg.Twist, _ *rclgo.MessageInfo, err error) {
				if err == nil {
					set(msg.Linear.X, msg.Angular.Z)
				}
			})
	}
	if err != nil {
		return fmt.Errorf("subscribe %s: %w", furbotnode.TopicCmdVel, err)
	}
	return nil
}
