//go:build ros2

// Command arm_sim is a simulated robot arm on ROS 2 (pkg/armsim): it
// follows the trajectory_msgs/JointTrajectory targets of jog_server (a
// cycle's point and the next, stamped or not), like an arm behind a
// ros2_control trajectory controller, and
// publishes its joints as sensor_msgs/JointState, so that the jog stack runs
// without hardware. Its joint_states are the simulation's truth.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"

	sensor_msgs_msg "github.com/telebridge/telebridge/internal/rosmsg/sensor_msgs/msg"
	trajectory_msgs_msg "github.com/telebridge/telebridge/internal/rosmsg/trajectory_msgs/msg"
	"github.com/telebridge/telebridge/internal/rosnode"
	"github.com/telebridge/telebridge/pkg/armsim"
	armsimnode "github.com/telebridge/telebridge/pkg/armsim/node"
	"github.com/telebridge/telebridge/pkg/rate"
	"github.com/tiiuae/rclgo/pkg/rclgo"
)

func main() { rosnode.Main(armsimnode.Name, run) }

func run(ctx context.Context, stop context.CancelFunc) error {
	n, err := rosnode.Start(rosnode.Options{Name: armsimnode.Name, Args: os.Args[1:], Table: armsimnode.ParameterTable()})
	if err != nil {
		return err
	}
	defer n.Close()
	log := n.Logger()
	cfg, err := armsimnode.LoadConfig(n.Params)
	if err != nil {
		return err
	}
	arm, err := armsimnode.NewArm(cfg)
	if err != nil {
		return err
	}
	names := arm.Names()
	_, err = trajectory_msgs_msg.NewJointTrajectorySubscription(n.Node, cfg.TrajectoryTopic, rosnode.SubOpts(armsimnode.QoSTrajectory),
		func(msg *trajectory_msgs_msg.JointTrajectory, _ *rclgo.MessageInfo, err error) {
			if err != nil {
				return
			}
			t, err := rosnode.JointTargetOf(msg)
			late, offClock := arm.Timing()
			if err == nil {
				err = arm.WriteJointTarget(t)
			}
			if err != nil {
				log.Warnf("target refused: %v", err)
			}
			// A late target shows in the truth's accelerations, an
			// ignored stamp in its schedule: say so.
			l, o := arm.Timing()
			if l != late {
				log.Warnf("late target: its first point was due already (%d so far)", l)
			}
			if o != offClock {
				log.Warnf("stamp off the arm's clock by more than %v, ignored: the target's times count from its arrival (%d so far)", armsim.MaxStampSkew, o)
			}
		})
	if err != nil {
		return fmt.Errorf("subscribe %s: %w", cfg.TrajectoryTopic, err)
	}
	pub, err := sensor_msgs_msg.NewJointStatePublisher(n.Node, armsimnode.TopicJointStates, rosnode.PubOpts(armsimnode.QoSJointStates))
	if err != nil {
		return fmt.Errorf("publisher %s: %w", armsimnode.TopicJointStates, err)
	}

	spinDone := n.SpinAsync(ctx)
	period, err := rate.Hz(cfg.Rate)
	if err != nil {
		return err
	}
	log.Infof("simulating %d joints %v at %g Hz; targets from %s", len(names), names, cfg.Rate, cfg.TrajectoryTopic)
	msg := sensor_msgs_msg.NewJointState()
	msg.Name = names
	loopErr := rate.Run(ctx, period, func(t rate.Tick) error {
		arm.AdvanceTo(t.Now)
		msg.Header = rosnode.Header(n.Now(), "")
		msg.Position = arm.Positions()
		return pub.Publish(msg)
	})
	if loopErr != nil && !errors.Is(loopErr, context.Canceled) {
		log.Errorf("simulation loop: %v", loopErr)
		stop()
	}
	<-spinDone
	v, targets := arm.Violations()
	log.Infof("arm_sim done: %d targets, %d outside the joint limits, %d ticks with a joint over its velocity limit", targets, v, arm.OverSpeed())
	return nil
}
