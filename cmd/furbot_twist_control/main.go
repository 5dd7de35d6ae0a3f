//go:build ros2

// Command furbot_twist_control is the Twist -> control signals node of the
// Furbot stack: it subscribes cmd_vel and the bridge's TractionData, runs
// pkg/furbot/control's controller (speed PID -> throttle or brake, the seed's
// steering rule, command timeout -> brake to a stop) at 100 Hz and
// publishes ControlSignals for furbot_bridge. On SIGINT/SIGTERM it
// publishes full-brake, disabled signals before it exits. Parameters:
// pkg/furbot/node's TwistNodeBindings (params/furbot_twist_control.yaml); the
// controller's gains and limits can be set live.
package main

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	tbi "github.com/telebridge/telebridge/internal/rosmsg/telebridge_interfaces/msg"
	"github.com/telebridge/telebridge/internal/rosnode"
	"github.com/telebridge/telebridge/pkg/diag"
	furbotcontrol "github.com/telebridge/telebridge/pkg/furbot/control"
	furbotnode "github.com/telebridge/telebridge/pkg/furbot/node"
	"github.com/telebridge/telebridge/pkg/rate"
	"github.com/telebridge/telebridge/pkg/rosparam"
	"github.com/tiiuae/rclgo/pkg/rclgo"
)

func main() {
	rosnode.Run(rosnode.Spec[furbotnode.TwistNodeConfig]{
		Name: furbotnode.TwistName, Table: furbotnode.TwistNodeParameterTable(), Load: furbotnode.LoadTwistNodeConfig,
	}, setup)
}

// setup builds the controller and wires it: cmd_vel and the feedback
// reach it, a loop publishes its output at rate and the stop signals at
// the end.
func setup(n *rosnode.Node, cfg furbotnode.TwistNodeConfig) error {
	period, err := rate.Hz(cfg.Rate)
	if err != nil {
		return err
	}
	tc, err := furbotnode.NewTwistControl(cfg)
	if err != nil {
		return err
	}
	log := n.Logger()
	n.Live(nil, func(update []rosparam.Parameter) {
		if err := tc.ApplyParams(update); err != nil {
			log.Warnf("parameter change not applied: %v", err)
		}
	})
	var in inputs
	if err := subscribe(n, tc, &in); err != nil {
		return err
	}
	pub, err := tbi.NewControlSignalsPublisher(n.Node, furbotnode.TopicControl, rosnode.PubOpts(furbotnode.QoSControl))
	if err != nil {
		return fmt.Errorf("publisher %s: %w", furbotnode.TopicControl, err)
	}
	n.Go("control loop", func(ctx context.Context) error {
		var (
			msg  tbi.ControlSignals
			last furbotcontrol.Output
		)
		err := rate.Run(ctx, period, func(rate.Tick) error {
			out := tc.Step(time.Now())
			if (out.Mode == furbotcontrol.ModeDisabled) != (last.Mode == furbotcontrol.ModeDisabled) {
				if out.Mode == furbotcontrol.ModeDisabled {
					log.Warnf("vehicle not ready (no TractionData for %v, or traction not running): full brake", cfg.FeedbackTimeout)
				} else {
					log.Infof("vehicle ready: controlling")
				}
			}
			last = out
			in.mu.Lock()
			in.last = out
			in.mu.Unlock()
			rosnode.FurbotControl(&msg, last, n.Now())
			if err := pub.Publish(&msg); err != nil {
				return fmt.Errorf("publish %s: %w", furbotnode.TopicControl, err)
			}
			return nil
		})
		// Brake before leaving: the bridge would brake anyway once the
		// signals go stale, but this is immediate.
		rosnode.FurbotControl(&msg, furbotnode.StopOutput(last.Steer), n.Now())
		for i := 0; i < cfg.StopMessages; i++ {
			if err := pub.Publish(&msg); err != nil {
				log.Errorf("publish stop signals: %v", err)
				break
			}
			time.Sleep(period)
		}
		log.Infof("full-brake control signals published; shutting down")
		return err
	})
	err = n.PublishDiagnostics(func(now time.Time) []diag.Status {
		in.mu.Lock()
		out := in.last // disabled until the first step
		in.mu.Unlock()
		cmd := in.cmd.Input(furbotnode.TopicCmdVel, cfg.Controller.CommandTimeout)
		return []diag.Status{furbotnode.DiagnoseTwist(out, cmd, in.refused.Load(), now)}
	})
	if err != nil {
		return err
	}
	log.Infof("cmd_vel -> %s at %g Hz", furbotnode.TopicControl, cfg.Rate)
	return nil
}

// inputs is what the diagnostics loop reads of the node: cmd_vel's
// arrivals and refusals (subscription callbacks) and the latest output
// (control loop).
type inputs struct {
	cmd     diag.Arrivals
	refused atomic.Uint64
	mu      sync.Mutex
	last    furbotcontrol.Output // guarded by mu
}

// subscribe hands cmd_vel (cmdvel.go), the traction feedback and the
// vehicle's motion block (its e-stop) to the core. Callbacks never block:
// the core keeps only the latest of each.
func subscribe(n *rosnode.Node, tc *furbotnode.TwistControl, in *inputs) error {
	if err := subscribeCmdVel(n, tc, in); err != nil {
		return err
	}
	_, err := tbi.NewTractionDataSubscription(n.Node, furbotnode.TopicTraction, rosnode.SubOpts(furbotnode.QoSTelemetrySub),
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
	_, err = tbi.NewVehicleStatusSubscription(n.Node, furbotnode.TopicStatus, rosnode.SubOpts(furbotnode.QoSTelemetrySub),
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
