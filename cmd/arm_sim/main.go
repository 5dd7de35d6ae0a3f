//go:build ros2

// Command arm_sim is a simulated robot arm on ROS 2 (pkg/armsim): it
// follows the trajectory_msgs/JointTrajectory targets of jog_server (a
// cycle's point and the next, stamped or not) and the goals of its
// control_msgs/action/FollowJointTrajectory server ~/follow_joint_trajectory
// (every point with its timing, as a ros2_control
// joint_trajectory_controller: pkg/trajectory), and publishes its joints
// as sensor_msgs/JointState, so that the jog stack and MoveIt run without
// hardware. Its joint_states are the simulation's truth.
package main

import (
	"context"
	"fmt"
	"time"

	"github.com/telebridge/telebridge/internal/rosfjt"
	sensor_msgs_msg "github.com/telebridge/telebridge/internal/rosmsg/sensor_msgs/msg"
	trajectory_msgs_msg "github.com/telebridge/telebridge/internal/rosmsg/trajectory_msgs/msg"
	"github.com/telebridge/telebridge/internal/rosnode"
	"github.com/telebridge/telebridge/pkg/armsim"
	armsimnode "github.com/telebridge/telebridge/pkg/armsim/node"
	"github.com/telebridge/telebridge/pkg/diag"
	"github.com/telebridge/telebridge/pkg/rate"
	"github.com/telebridge/telebridge/pkg/trajectory/server"
	"github.com/tiiuae/rclgo/pkg/rclgo"
)

func main() {
	rosnode.Run(rosnode.Spec[armsimnode.Config]{
		Name: armsimnode.Name, Table: armsimnode.ParameterTable(), Load: armsimnode.LoadConfig,
		Publishers: armsimnode.Publishers,
	}, setup)
}

// setup builds the arm and wires it: targets in, a loop that advances the
// simulation and publishes its joints at rate.
func setup(n *rosnode.Node, cfg armsimnode.Config) error {
	period, err := rate.Hz(cfg.Rate)
	if err != nil {
		return err
	}
	log := n.Logger()
	arm, err := armsimnode.NewArm(cfg)
	if err != nil {
		return err
	}
	names := arm.Names()
	// Targets and goals go through the trajectory follower, as to a
	// ros2_control joint_trajectory_controller: every point with its
	// timing.
	srv, err := server.New(server.Config{Arm: arm, Follower: arm.TrajectoryConfig(), Period: period})
	if err != nil {
		return err
	}
	// Topic targets (jog_server's: a cycle's point and the next, stamped
	// or not) go to the arm as they are, as before the action server came;
	// action goals go through the follower. Between goals the follower
	// leaves the arm alone.
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
	if _, err := rosfjt.Serve(n.Node, srv); err != nil {
		return err
	}
	n.Go("trajectory server", srv.Run)
	opts, err := n.PublisherOpts(armsimnode.TopicJointStates)
	if err != nil {
		return err
	}
	pub, err := sensor_msgs_msg.NewJointStatePublisher(n.Node, armsimnode.TopicJointStates, opts)
	if err != nil {
		return fmt.Errorf("publisher %s: %w", armsimnode.TopicJointStates, err)
	}
	n.Go("simulation loop", func(ctx context.Context) error {
		msg := sensor_msgs_msg.NewJointState()
		msg.Name = names
		return rate.Run(ctx, period, func(t rate.Tick) error {
			arm.AdvanceTo(t.Now)
			msg.Header = rosnode.Header(n.Now(), "")
			msg.Position = arm.Positions()
			msg.Velocity = arm.Velocities()
			return pub.Publish(msg)
		})
	})
	var prev armsimnode.Counts // touched by the diagnostics loop only
	err = n.PublishDiagnostics(func(time.Time) []diag.Status {
		var cur armsimnode.Counts
		cur.Violations, cur.Targets = arm.Violations()
		cur.Late, cur.OffClock = arm.Timing()
		s := armsimnode.Diagnose(cfg, len(names), cur, prev)
		prev = cur
		return []diag.Status{s}
	})
	if err != nil {
		return err
	}
	n.Finally(func() {
		v, targets := arm.Violations()
		log.Infof("arm_sim done: %d targets, %d outside the joint limits, %d ticks with a joint over its velocity limit", targets, v, arm.OverSpeed())
	})
	log.Infof("simulating %d joints %v at %g Hz; targets from %s and the action %s", len(names), names, cfg.Rate, cfg.TrajectoryTopic, rosfjt.ActionName)
	return nil
}
