//go:build ros2

// Command jog_server is the ROS 2 node of the drag&bot-style jog services:
// start joint and Cartesian moves, stop, heartbeat (service and topic) and
// its timeout, in; one joint target per cycle out, as a
// trajectory_msgs/JointTrajectory of the cycle's point and the next one,
// for a ros2_control trajectory controller.
// The arm comes from robot_description (URDF), its joints from
// joint_states, reference frames from /tf and /tf_static. Every decision is
// in pkg/jog and its ROS contract in pkg/jog/node; this file only wires
// them.
package main

import (
	"fmt"
	"time"

	sensor_msgs_msg "github.com/telebridge/telebridge/internal/rosmsg/sensor_msgs/msg"
	std_msgs_msg "github.com/telebridge/telebridge/internal/rosmsg/std_msgs/msg"
	std_srvs_srv "github.com/telebridge/telebridge/internal/rosmsg/std_srvs/srv"
	telebridge_interfaces_msg "github.com/telebridge/telebridge/internal/rosmsg/telebridge_interfaces/msg"
	telebridge_interfaces_srv "github.com/telebridge/telebridge/internal/rosmsg/telebridge_interfaces/srv"
	tf2_msgs_msg "github.com/telebridge/telebridge/internal/rosmsg/tf2_msgs/msg"
	trajectory_msgs_msg "github.com/telebridge/telebridge/internal/rosmsg/trajectory_msgs/msg"
	"github.com/telebridge/telebridge/internal/rosnode"
	"github.com/telebridge/telebridge/pkg/diag"
	"github.com/telebridge/telebridge/pkg/jog"
	jognode "github.com/telebridge/telebridge/pkg/jog/node"
	"github.com/telebridge/telebridge/pkg/rosparam"
	"github.com/telebridge/telebridge/pkg/tf"
	"github.com/tiiuae/rclgo/pkg/rclgo"
)

func main() {
	rosnode.Run(rosnode.Spec[jognode.Config]{
		Name: jognode.Name, Table: jognode.ParameterTable(), Validate: jognode.ValidateUpdate, Load: jognode.LoadConfig,
	}, setup)
}

// setup builds the controller and its runner and wires them: joint
// states, heartbeats, transforms and the jog services reach the
// controller, the runner writes one joint target per cycle.
func setup(n *rosnode.Node, cfg jognode.Config) error {
	frames, err := tf.New(tf.Config{})
	if err != nil {
		return err
	}
	ctrl, err := jognode.NewController(cfg, frames)
	if err != nil {
		return err
	}
	log := n.Logger()
	n.Live(nil, func(u []rosparam.Parameter) {
		if err := ctrl.ApplyParams(u); err != nil {
			log.Warnf("parameter change: %v", err)
		}
	})
	chain := ctrl.Chain()
	joints := jog.NewJointStates(chain.JointNames())
	out, err := newTrajectoryOutput(n, cfg)
	if err != nil {
		return err
	}
	runner, err := jog.NewRunner(ctrl, joints, out)
	if err != nil {
		return err
	}
	runner.OnMotionEnd(func(st jog.Status) { log.Infof("motion ended: %s", st.Reason) })
	var arrivals diag.Arrivals                            // joint_states, for the diagnostics
	names, err := jognode.NamesIn(cfg.InterfaceNamespace) // checked at declaration already
	if err != nil {
		return err
	}
	if err := subscribe(n, names, ctrl, joints, frames, &arrivals); err != nil {
		return err
	}
	if err := serve(n, names, ctrl, runner); err != nil {
		return err
	}
	n.Go("jog loop", runner.Run) // ends with a stop: its rest point goes out before the node does
	err = n.PublishDiagnostics(func(now time.Time) []diag.Status {
		in := arrivals.Input(names.JointStates, jognode.JointStatesTimeout)
		return []diag.Status{jognode.Diagnose(ctrl.Status(), in, runner.Stats(), joints.Refused(), joints.Foreign(), now)}
	})
	if err != nil {
		return err
	}
	n.Finally(func() {
		st := runner.Stats()
		log.Infof("arm told to hold; shutting down (%d targets, %d holds, %d refused joint states, %d of other robots)", st.Written, st.Holds, joints.Refused(), joints.Foreign())
	})
	log.Infof("jogging %s -> %s (%d joints) at %g Hz; targets on %s; services %s, ...", chain.Base, chain.TipName, chain.DOF(), cfg.Params.UpdateRate, cfg.TrajectoryTopic, names.StartJointMove)
	return nil
}

// trajectoryOutput publishes joint targets (jog.Output); the runner
// serialises its calls, so the reused message is safe.
type trajectoryOutput struct {
	pub   *trajectory_msgs_msg.JointTrajectoryPublisher
	msg   *trajectory_msgs_msg.JointTrajectory
	frame string
	stamp bool
}

func newTrajectoryOutput(n *rosnode.Node, cfg jognode.Config) (*trajectoryOutput, error) {
	pub, err := trajectory_msgs_msg.NewJointTrajectoryPublisher(n.Node, cfg.TrajectoryTopic, rosnode.PubOpts(jognode.QoSTrajectory))
	if err != nil {
		return nil, fmt.Errorf("publisher %s: %w", cfg.TrajectoryTopic, err)
	}
	return &trajectoryOutput{pub: pub, msg: trajectory_msgs_msg.NewJointTrajectory(), frame: cfg.Params.RobotData.FixedFrame, stamp: cfg.StampTrajectories}, nil
}

func (o *trajectoryOutput) WriteJointTarget(t jog.JointTarget) error {
	rosnode.JointTrajectory(o.msg, t, o.frame, o.stamp)
	return o.pub.Publish(o.msg)
}

// subscribe hands joint states, heartbeats and transforms to the core;
// the callbacks never block.
func subscribe(n *rosnode.Node, names jognode.Names, ctrl *jog.Controller, joints *jog.JointStates, frames *tf.Buffer, arrivals *diag.Arrivals) error {
	log := n.Logger()
	_, err := sensor_msgs_msg.NewJointStateSubscription(n.Node, names.JointStates, rosnode.SubOpts(jognode.QoSJointStates),
		func(msg *sensor_msgs_msg.JointState, _ *rclgo.MessageInfo, err error) {
			if err == nil {
				// Refused messages are counted by joints.
				if joints.Store(msg.Name, msg.Position, time.Now()) == nil {
					arrivals.Mark(time.Now())
				}
			}
		})
	if err != nil {
		return fmt.Errorf("subscribe %s: %w", names.JointStates, err)
	}
	_, err = std_msgs_msg.NewBoolSubscription(n.Node, names.HeartbeatTopic, rosnode.SubOpts(jognode.QoSHeartbeat),
		func(msg *std_msgs_msg.Bool, _ *rclgo.MessageInfo, err error) {
			if err == nil {
				ctrl.HeartbeatMessage(time.Now(), msg.Data)
			}
		})
	if err != nil {
		return fmt.Errorf("subscribe %s: %w", names.HeartbeatTopic, err)
	}
	feed := func(static bool) func(*tf2_msgs_msg.TFMessage, *rclgo.MessageInfo, error) {
		return func(msg *tf2_msgs_msg.TFMessage, _ *rclgo.MessageInfo, err error) {
			if err != nil {
				return
			}
			for i := range msg.Transforms {
				s := rosnode.TFStamped(&msg.Transforms[i])
				if static {
					err = frames.SetStatic(s.Parent, s.Child, s.Transform)
				} else {
					err = frames.Set(s)
				}
				if err != nil {
					log.Warnf("transform refused: %v", err)
				}
			}
		}
	}
	if _, err = tf2_msgs_msg.NewTFMessageSubscription(n.Node, jognode.TFTopic, rosnode.SubOpts(jognode.QoSTF), feed(false)); err != nil {
		return fmt.Errorf("subscribe %s: %w", jognode.TFTopic, err)
	}
	if _, err = tf2_msgs_msg.NewTFMessageSubscription(n.Node, jognode.TFStaticTopic, rosnode.SubOpts(jognode.QoSTFStatic), feed(true)); err != nil {
		return fmt.Errorf("subscribe %s: %w", jognode.TFStaticTopic, err)
	}
	return nil
}

func euler(p telebridge_interfaces_msg.EulerPose) jog.EulerPose {
	return jog.EulerPose{X: p.X, Y: p.Y, Z: p.Z, RZ: p.Rz, RY: p.Ry, RX: p.Rx}
}

// serve creates the jog services.
func serve(n *rosnode.Node, names jognode.Names, ctrl *jog.Controller, runner *jog.Runner) error {
	opts := rosnode.SrvOpts(jognode.QoSServices)
	log := n.Logger()
	// reply logs a refusal and sends the response.
	reply := func(name string, r jog.Response, send func() error) {
		if !r.Success {
			log.Warnf("%s refused: %s", name, r.Message)
		}
		if err := send(); err != nil {
			log.Warnf("%s response: %v", name, err)
		}
	}
	trigger := func(name string, act func() jog.Response) error {
		_, err := std_srvs_srv.NewTriggerService(n.Node, name, opts,
			func(_ *rclgo.ServiceInfo, _ *std_srvs_srv.Trigger_Request, send std_srvs_srv.TriggerServiceResponseSender) {
				r := act()
				resp := std_srvs_srv.NewTrigger_Response()
				resp.Success, resp.Message = r.Success, r.Message
				reply(name, r, func() error { return send.SendResponse(resp) })
			})
		if err != nil {
			return fmt.Errorf("service %s: %w", name, err)
		}
		return nil
	}
	if err := trigger(names.Heartbeat, func() jog.Response {
		ctrl.Heartbeat(time.Now())
		return jog.ResponseOf(nil)
	}); err != nil {
		return err
	}
	if err := trigger(names.Stop, func() jog.Response {
		held, err := runner.Stop(time.Now())
		r := jog.ResponseOf(err)
		if err == nil {
			r.Message = "stopped: decelerating to rest (hold target sent)"
			if !held {
				r.Message = "stopped (no joint state known: no hold target sent)"
			}
			log.Infof("%s: %s", names.Stop, r.Message)
		}
		return r
	}); err != nil {
		return err
	}
	_, err := telebridge_interfaces_srv.NewSetFloatService(n.Node, names.SetHeartbeatTimeout, opts,
		func(_ *rclgo.ServiceInfo, req *telebridge_interfaces_srv.SetFloat_Request, send telebridge_interfaces_srv.SetFloatServiceResponseSender) {
			// Through the parameter store, so that the parameter, its event
			// and the controller agree.
			res := n.Params.SetParametersAtomically(jognode.HeartbeatTimeoutUpdate(req.Data))
			resp := telebridge_interfaces_srv.NewSetFloat_Response()
			resp.Success, resp.Message = res.Successful, res.Reason
			if res.Successful {
				resp.Message = fmt.Sprintf("heartbeat_timeout %g s", req.Data)
			}
			reply(names.SetHeartbeatTimeout, jog.Response{Success: resp.Success, Message: resp.Message},
				func() error { return send.SendResponse(resp) })
		})
	if err != nil {
		return fmt.Errorf("service %s: %w", names.SetHeartbeatTimeout, err)
	}
	_, err = telebridge_interfaces_srv.NewStartJointMoveService(n.Node, names.StartJointMove, opts,
		func(_ *rclgo.ServiceInfo, req *telebridge_interfaces_srv.StartJointMove_Request, send telebridge_interfaces_srv.StartJointMoveServiceResponseSender) {
			r := jog.ResponseOf(ctrl.StartJointMove(time.Now(), jog.JointMoveRequest{
				MoveDelta: req.MoveDelta, JointValues: req.JointValues, Speed: req.Speed,
			}))
			resp := telebridge_interfaces_srv.NewStartJointMove_Response()
			resp.Success, resp.Message = r.Success, r.Message
			reply(names.StartJointMove, r, func() error { return send.SendResponse(resp) })
		})
	if err != nil {
		return fmt.Errorf("service %s: %w", names.StartJointMove, err)
	}
	_, err = telebridge_interfaces_srv.NewStartCartesianMoveService(n.Node, names.StartCartesianMove, opts,
		func(_ *rclgo.ServiceInfo, req *telebridge_interfaces_srv.StartCartesianMove_Request, send telebridge_interfaces_srv.StartCartesianMoveServiceResponseSender) {
			r := jog.ResponseOf(ctrl.StartCartesianMove(time.Now(), jog.CartesianMoveRequest{
				PoseReference: req.PoseReference, MoveDelta: req.MoveDelta, Pose: euler(req.Pose),
				UseReferenceFrame: req.UseReferenceFrame, ReferenceFrame: euler(req.ReferenceFrame), Speed: req.Speed,
			}))
			resp := telebridge_interfaces_srv.NewStartCartesianMove_Response()
			resp.Success, resp.Message = r.Success, r.Message
			reply(names.StartCartesianMove, r, func() error { return send.SendResponse(resp) })
		})
	if err != nil {
		return fmt.Errorf("service %s: %w", names.StartCartesianMove, err)
	}
	return nil
}
