//go:build ros2

// Command furbot_twist_control is the Twist -> control signals node of the
// Furbot stack: it subscribes cmd_vel and the bridge's TractionData, runs
// pkg/furbot's controller (speed PID -> throttle or brake, the seed's
// steering rule, command timeout -> brake to a stop) at 100 Hz and
// publishes ControlSignals for furbot_bridge. On SIGINT/SIGTERM it
// publishes full-brake, disabled signals before it exits. Parameters:
// pkg/furbot's TwistNodeBindings (params/furbot_twist_control.yaml); the
// controller's gains and limits can be set live.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	geometry_msgs_msg "github.com/telebridge/telebridge/internal/rosmsg/geometry_msgs/msg"
	tbi "github.com/telebridge/telebridge/internal/rosmsg/telebridge_interfaces/msg"
	"github.com/telebridge/telebridge/internal/rosnode"
	furbotcontrol "github.com/telebridge/telebridge/pkg/furbot/control"
	furbotnode "github.com/telebridge/telebridge/pkg/furbot/node"
	"github.com/telebridge/telebridge/pkg/rate"
	"github.com/telebridge/telebridge/pkg/rosparam"
	"github.com/tiiuae/rclgo/pkg/rclgo"
)

func main() { rosnode.Main(furbotnode.TwistName, run) }

func run(ctx context.Context, stop context.CancelFunc) error {
	var tc *furbotnode.TwistControl
	var n *rosnode.Node
	n, err := rosnode.Start(rosnode.Options{
		Name: furbotnode.TwistName, Args: os.Args[1:], Table: furbotnode.TwistNodeParameterTable(),
		OnChange: func(update []rosparam.Parameter) {
			if tc == nil {
				return // start-up values are loaded below
			}
			if err := tc.ApplyParams(update); err != nil {
				n.Logger().Warnf("parameter change not applied: %v", err)
			}
		},
	})
	if err != nil {
		return err
	}
	defer n.Close()
	cfg, err := furbotnode.LoadTwistNodeConfig(n.Params)
	if err != nil {
		return err
	}
	if tc, err = furbotnode.NewTwistControl(cfg); err != nil {
		return err
	}
	log := n.Logger()
	if err := subscribe(n, tc); err != nil {
		return err
	}
	pub, err := tbi.NewControlSignalsPublisher(n.Node, furbotnode.TopicControl, rosnode.PubOpts(furbotnode.QoSControl))
	if err != nil {
		return fmt.Errorf("publisher %s: %w", furbotnode.TopicControl, err)
	}
	spinDone := n.SpinAsync(ctx)
	log.Infof("cmd_vel -> %s at %g Hz", furbotnode.TopicControl, cfg.Rate)

	period, err := rate.Hz(cfg.Rate)
	if err != nil {
		return err
	}
	var (
		msg  tbi.ControlSignals
		last furbotcontrol.Output
	)
	loopErr := rate.Run(ctx, period, func(rate.Tick) error {
		out := tc.Step(time.Now())
		if (out.Mode == furbotcontrol.ModeDisabled) != (last.Mode == furbotcontrol.ModeDisabled) {
			if out.Mode == furbotcontrol.ModeDisabled {
				log.Warnf("vehicle not ready (no TractionData for %v, or traction not running): full brake", cfg.FeedbackTimeout)
			} else {
				log.Infof("vehicle ready: controlling")
			}
		}
		last = out
		rosnode.FurbotControl(&msg, last, n.Now())
		if err := pub.Publish(&msg); err != nil {
			return fmt.Errorf("publish %s: %w", furbotnode.TopicControl, err)
		}
		return nil
	})
	if loopErr != nil && !errors.Is(loopErr, context.Canceled) {
		log.Errorf("control loop: %v", loopErr)
		stop()
	}
	// Brake before leaving: the bridge would brake anyway once the signals
	// go stale, but this is immediate.
	rosnode.FurbotControl(&msg, furbotnode.StopOutput(last.Steer), n.Now())
	for i := 0; i < cfg.StopMessages; i++ {
		if err := pub.Publish(&msg); err != nil {
			log.Errorf("publish stop signals: %v", err)
			break
		}
		time.Sleep(period)
	}
	log.Infof("full-brake control signals published; shutting down")
	<-spinDone
	return nil
}

// subscribe hands cmd_vel, the traction feedback and the vehicle's motion
// block (its e-stop) to the core. Callbacks never block: the core keeps
// only the latest of each.
func subscribe(n *rosnode.Node, tc *furbotnode.TwistControl) error {
	log := n.Logger()
	var refused uint64
	_, err := geometry_msgs_msg.NewTwistSubscription(n.Node, furbotnode.TopicCmdVel, rosnode.SubOpts(furbotnode.QoSCmdVel),
		func(msg *geometry_msgs_msg.Twist, _ *rclgo.MessageInfo, err error) {
			if err != nil {
				return
			}
			if err := tc.SetCommand(furbotcontrol.Twist{V: msg.Linear.X, W: msg.Angular.Z}, time.Now()); err != nil {
				refused++
				if refused&(refused-1) == 0 {
					log.Warnf("cmd_vel refused (%d so far): %v", refused, err)
				}
			}
		})
	if err != nil {
		return fmt.Errorf("subscribe %s: %w", furbotnode.TopicCmdVel, err)
	}
	_, err = tbi.NewTractionDataSubscription(n.Node, furbotnode.TopicTraction, rosnode.SubOpts(furbotnode.QoSTelemetry),
		func(msg *tbi.TractionData, _ *rclgo.MessageInfo, err error) {
			if err != nil {
				return
			}
			tr, _ := rosnode.FurbotTractionOf(msg)
			tc.SetFeedback(tr, time.Now())
		})
	if err != nil {
		return fmt.Errorf("subscribe %s: %w", furbotnode.TopicTraction, err)
	}
	_, err = tbi.NewVehicleStatusSubscription(n.Node, furbotnode.TopicStatus, rosnode.SubOpts(furbotnode.QoSTelemetry),
		func(msg *tbi.VehicleStatus, _ *rclgo.MessageInfo, err error) {
			if err == nil {
				tc.SetMotion(rosnode.FurbotMotionOf(msg), time.Now())
			}
		})
	if err != nil {
		return fmt.Errorf("subscribe %s: %w", furbotnode.TopicStatus, err)
	}
	return nil
}
