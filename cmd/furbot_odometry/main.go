//go:build ros2

// Command furbot_odometry is the odometry node of the Furbot stack: it
// integrates the rear wheel speeds of the bridge's TractionData (or, with
// odom_source 2, speed and SteeringData's angle) on the vehicle's clock and
// publishes nav_msgs/Odometry on odom, tf odom -> base_link on /tf and the
// wheel and steering joints of launch/urdf/furbot.urdf on joint_states
// (pkg/furbot/node's JointStates) with every new sample. It commands
// nothing, so it has no stop to send on exit. Parameters: pkg/furbot/node's OdomNodeBindings
// (params/furbot_odometry.yaml).
package main

import (
	"fmt"
	"sync"
	"time"

	nav_msgs_msg "github.com/telebridge/telebridge/internal/rosmsg/nav_msgs/msg"
	sensor_msgs_msg "github.com/telebridge/telebridge/internal/rosmsg/sensor_msgs/msg"
	tbi "github.com/telebridge/telebridge/internal/rosmsg/telebridge_interfaces/msg"
	tf2_msgs_msg "github.com/telebridge/telebridge/internal/rosmsg/tf2_msgs/msg"
	"github.com/telebridge/telebridge/internal/rosnode"
	"github.com/telebridge/telebridge/pkg/diag"
	furbotnode "github.com/telebridge/telebridge/pkg/furbot/node"
	"github.com/tiiuae/rclgo/pkg/rclgo"
)

func main() {
	rosnode.Run(rosnode.Spec[furbotnode.OdomNodeConfig]{
		Name: furbotnode.OdometryName, Table: furbotnode.OdomNodeParameterTable(), Load: furbotnode.LoadOdomNodeConfig,
		Publishers: furbotnode.OdometryPublishers,
	}, setup)
}

// setup wires the tracker and the joint states to the bridge's topics:
// every traction sample publishes odom, tf and joint_states from the
// spinning goroutine.
func setup(n *rosnode.Node, cfg furbotnode.OdomNodeConfig) error {
	tracker, err := furbotnode.NewOdomTracker(cfg.Odometry)
	if err != nil {
		return err
	}
	joints, err := furbotnode.NewJointStates(cfg.Odometry)
	if err != nil {
		return err
	}
	log := n.Logger()
	odomOpts, err := n.PublisherOpts(furbotnode.TopicOdom)
	if err != nil {
		return err
	}
	jointOpts, err := n.PublisherOpts(furbotnode.TopicJointStates)
	if err != nil {
		return err
	}
	odomPub, err := nav_msgs_msg.NewOdometryPublisher(n.Node, furbotnode.TopicOdom, odomOpts)
	if err != nil {
		return fmt.Errorf("publisher %s: %w", furbotnode.TopicOdom, err)
	}
	var tfPub *tf2_msgs_msg.TFMessagePublisher
	if cfg.PublishTF {
		if tfPub, err = tf2_msgs_msg.NewTFMessagePublisher(n.Node, furbotnode.TopicTF, rosnode.PubOpts(furbotnode.QoSTF)); err != nil {
			return fmt.Errorf("publisher %s: %w", furbotnode.TopicTF, err)
		}
	}
	jointPub, err := sensor_msgs_msg.NewJointStatePublisher(n.Node, furbotnode.TopicJointStates, jointOpts)
	if err != nil {
		return fmt.Errorf("publisher %s: %w", furbotnode.TopicJointStates, err)
	}
	// Both callbacks run on the spinning goroutine, one at a time: the
	// tracker, the joint states and the reused messages need no lock.
	// The diagnostics loop reads the traction arrivals and a copy of the
	// tracker's counters, both guarded (the tracker is not).
	var (
		traction diag.Arrivals
		statsMu  sync.Mutex
		stats    furbotnode.OdomStats
	)
	odomMsg := nav_msgs_msg.NewOdometry()
	tfMsg := tf2_msgs_msg.NewTFMessage()
	jointMsg := sensor_msgs_msg.NewJointState()
	_, err = tbi.NewSteeringDataSubscription(n.Node, furbotnode.TopicSteering, rosnode.SubOpts(furbotnode.QoSTelemetrySub),
		func(msg *tbi.SteeringData, _ *rclgo.MessageInfo, err error) {
			if err == nil {
				s := rosnode.FurbotSteeringOf(msg)
				tracker.Steering(s)
				joints.Steering(s)
			}
		})
	if err != nil {
		return fmt.Errorf("subscribe %s: %w", furbotnode.TopicSteering, err)
	}
	_, err = tbi.NewTractionDataSubscription(n.Node, furbotnode.TopicTraction, rosnode.SubOpts(furbotnode.QoSTelemetrySub),
		func(msg *tbi.TractionData, _ *rclgo.MessageInfo, err error) {
			if err != nil {
				return
			}
			traction.Mark(time.Now())
			tr, ms := rosnode.FurbotTractionOf(msg)
			stamp := rosnode.Time(msg.Header.Stamp)
			// The joints carry the odom's stamp, so that robot_state_publisher's
			// wheel frames and odom -> base_link agree in time.
			if joints.Traction(tr, ms) {
				jointMsg.Header = rosnode.Header(stamp, "")
				jointMsg.Name, jointMsg.Position = joints.Name, joints.Position
				if err := jointPub.Publish(jointMsg); err != nil {
					log.Errorf("publish %s: %v", furbotnode.TopicJointStates, err)
				}
			}
			st, ok := tracker.Traction(tr, ms, stamp)
			statsMu.Lock()
			stats = tracker.Stats()
			statsMu.Unlock()
			if !ok {
				return
			}
			rosnode.Odometry(odomMsg, st, stamp, cfg.OdomFrame, cfg.BaseFrame)
			if err := odomPub.Publish(odomMsg); err != nil {
				log.Errorf("publish %s: %v", furbotnode.TopicOdom, err)
			}
			if tfPub != nil {
				tfMsg.Transforms = append(tfMsg.Transforms[:0], rosnode.OdomTransform(st, stamp, cfg.OdomFrame, cfg.BaseFrame))
				if err := tfPub.Publish(tfMsg); err != nil {
					log.Errorf("publish %s: %v", furbotnode.TopicTF, err)
				}
			}
		})
	if err != nil {
		return fmt.Errorf("subscribe %s: %w", furbotnode.TopicTraction, err)
	}
	err = n.PublishDiagnostics(func(now time.Time) []diag.Status {
		statsMu.Lock()
		st := stats
		statsMu.Unlock()
		return []diag.Status{furbotnode.DiagnoseOdometry(traction.Input(furbotnode.TopicTraction, 0), st, now)}
	})
	if err != nil {
		return err
	}
	n.Finally(func() {
		s := tracker.Stats()
		log.Infof("shutting down: %d traction samples integrated, %d repeats skipped, %d gaps", s.Used, s.Old, s.Gaps)
	})
	log.Infof("%s -> %s (%s -> %s), source %d", furbotnode.TopicTraction, furbotnode.TopicOdom, cfg.OdomFrame, cfg.BaseFrame, cfg.Odometry.Source)
	return nil
}
