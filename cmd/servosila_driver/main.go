//go:build ros2

// Command servosila_driver is the ROS 2 node of the Servosila Engineer
// driver: cmd_vel, joint commands and joint trajectories (jog_server's
// topic, and the control_msgs/action/FollowJointTrajectory server
// ~/follow_joint_trajectory: pkg/trajectory) in; odom, tf, joint_states,
// raw telemetry and diagnostics out; e-stop,
// release and headlight services.
// joint_states names the joints of launch/urdf/servosila_engineer.urdf.
// Parameters: pkg/servosila/node's Bindings (params/servosila_driver.yaml).
package main

import (
	"context"
	"fmt"
	"time"

	"github.com/telebridge/telebridge/internal/rosfjt"
	diagnostic_msgs_msg "github.com/telebridge/telebridge/internal/rosmsg/diagnostic_msgs/msg"
	nav_msgs_msg "github.com/telebridge/telebridge/internal/rosmsg/nav_msgs/msg"
	sensor_msgs_msg "github.com/telebridge/telebridge/internal/rosmsg/sensor_msgs/msg"
	std_srvs_srv "github.com/telebridge/telebridge/internal/rosmsg/std_srvs/srv"
	telebridge_interfaces_msg "github.com/telebridge/telebridge/internal/rosmsg/telebridge_interfaces/msg"
	tf2_msgs_msg "github.com/telebridge/telebridge/internal/rosmsg/tf2_msgs/msg"
	trajectory_msgs_msg "github.com/telebridge/telebridge/internal/rosmsg/trajectory_msgs/msg"
	"github.com/telebridge/telebridge/internal/rosnode"
	"github.com/telebridge/telebridge/pkg/rate"
	"github.com/telebridge/telebridge/pkg/rosparam"
	"github.com/telebridge/telebridge/pkg/servosila"
	servosilaarm "github.com/telebridge/telebridge/pkg/servosila/arm"
	servosilanode "github.com/telebridge/telebridge/pkg/servosila/node"
	servosilawire "github.com/telebridge/telebridge/pkg/servosila/wire"
	"github.com/telebridge/telebridge/pkg/trajectory/server"
	"github.com/tiiuae/rclgo/pkg/rclgo"
)

func main() {
	rosnode.Run(rosnode.Spec[servosilanode.Config]{
		Name: servosilanode.Name, Table: servosilanode.ParameterTable(), Load: servosilanode.LoadConfig,
		Publishers: servosilanode.Publishers,
	}, setup)
}

// setup builds the driver and wires it: subscriptions and services hand
// commands to it, a loop publishes its state at odom_rate.
func setup(n *rosnode.Node, cfg servosilanode.Config) error {
	period, err := rate.Hz(cfg.OdomRate)
	if err != nil {
		return err
	}
	drv, err := servosila.New(cfg.Driver)
	if err != nil {
		return err
	}
	if err := subscribe(n, drv, cfg.CmdVelStamped); err != nil {
		drv.Close()
		return err
	}
	if err := serve(n, drv); err != nil {
		drv.Close()
		return err
	}
	pubs, err := newPublishers(n, cfg)
	if err != nil {
		drv.Close()
		return err
	}
	n.Live(func(update []rosparam.Parameter) error {
		_, err := servosilanode.ValidateLive(drv.Config(), servosilanode.DriverUpdate(update))
		return err
	}, func(update []rosparam.Parameter) {
		if err := servosilanode.Reconfigure(drv, servosilanode.DriverUpdate(update)); err != nil {
			drv.EStop() // validated a moment ago: a failure here is a bug; stop rather than drive on stale limits
		}
	})
	log := n.Logger()
	n.Go("driver", drv.Run) // sends the zero packets before it returns
	n.Go("publish loop", func(ctx context.Context) error {
		return rate.Run(ctx, period, func(rate.Tick) error { return pubs.publish(drv, n.Now()) })
	})
	n.Finally(func() { log.Infof("robot told to stop; shutting down") })
	log.Infof("driving %s; cmd_vel -> remote control at %g Hz", cfg.Driver.Robot, cfg.Driver.SendRate)
	return nil
}

// subscribe hands cmd_vel (cmdvel.go) and joint commands to the driver. Callbacks
// never block: the driver keeps only the latest command.
func subscribe(n *rosnode.Node, drv *servosila.Driver, stamped bool) error {
	log := n.Logger()
	if err := subscribeCmdVel(n, drv, stamped); err != nil {
		return err
	}
	_, err := sensor_msgs_msg.NewJointStateSubscription(n.Node, servosilanode.TopicJointVel, rosnode.SubOpts(servosilanode.QoSJointCmd),
		func(msg *sensor_msgs_msg.JointState, _ *rclgo.MessageInfo, err error) {
			if err != nil {
				return
			}
			joints, vals, err := servosilanode.JointCommand(msg.Name, msg.Velocity)
			if err != nil {
				log.Warnf("joint velocities refused: %v", err)
				return
			}
			var v [servosilawire.NumJoints]float64
			for i, j := range joints {
				v[j] = vals[i]
			}
			if err := drv.SetJointVelocities(v); err != nil {
				log.Warnf("joint velocities refused: %v", err)
			}
		})
	if err != nil {
		return fmt.Errorf("subscribe %s: %w", servosilanode.TopicJointVel, err)
	}
	_, err = sensor_msgs_msg.NewJointStateSubscription(n.Node, servosilanode.TopicJointTarget, rosnode.SubOpts(servosilanode.QoSJointCmd),
		func(msg *sensor_msgs_msg.JointState, _ *rclgo.MessageInfo, err error) {
			if err != nil {
				return
			}
			joints, vals, err := servosilanode.JointCommand(msg.Name, msg.Position)
			if err != nil {
				log.Warnf("joint targets refused: %v", err)
				return
			}
			for i, j := range joints {
				if err := drv.SetJointTarget(j, vals[i]); err != nil {
					log.Warnf("joint target %s refused: %v", j, err)
				}
			}
		})
	if err != nil {
		return fmt.Errorf("subscribe %s: %w", servosilanode.TopicJointTarget, err)
	}
	// Trajectories (jog_server's, MoveIt's goals) go through the
	// trajectory follower on the arm, as to a ros2_control
	// joint_trajectory_controller: every point with its timing.
	arm, err := servosilaarm.New(servosilaarm.Config{Driver: drv})
	if err != nil {
		return err
	}
	srv, err := server.New(server.Config{Arm: arm, Follower: arm.TrajectoryConfig()})
	if err != nil {
		return err
	}
	_, err = trajectory_msgs_msg.NewJointTrajectorySubscription(n.Node, servosilanode.TopicJointTrajectory, rosnode.SubOpts(servosilanode.QoSJointCmd),
		func(msg *trajectory_msgs_msg.JointTrajectory, _ *rclgo.MessageInfo, err error) {
			if err != nil {
				return
			}
			g, e := rosfjt.GoalOf(msg)
			if e != nil {
				log.Warnf("joint trajectory refused: %v", e)
				return
			}
			if _, err := srv.Submit(&g, time.Now(), nil); err != nil {
				log.Warnf("joint trajectory refused: %v", err)
			}
		})
	if err != nil {
		return fmt.Errorf("subscribe %s: %w", servosilanode.TopicJointTrajectory, err)
	}
	if _, err := rosfjt.Serve(n.Node, srv); err != nil {
		return err
	}
	n.Go("trajectory server", srv.Run)
	return nil
}

// serve creates the e-stop, release and headlight services.
func serve(n *rosnode.Node, drv *servosila.Driver) error {
	opts := rosnode.SrvOpts(servosilanode.QoSCmdVel)
	log := n.Logger()
	trigger := func(name, done string, act func()) error {
		_, err := std_srvs_srv.NewTriggerService(n.Node, name, opts,
			func(_ *rclgo.ServiceInfo, _ *std_srvs_srv.Trigger_Request, send std_srvs_srv.TriggerServiceResponseSender) {
				act()
				log.Infof("%s", done)
				resp := std_srvs_srv.NewTrigger_Response()
				resp.Success, resp.Message = true, done
				if err := send.SendResponse(resp); err != nil {
					log.Warnf("%s response: %v", name, err)
				}
			})
		if err != nil {
			return fmt.Errorf("service %s: %w", name, err)
		}
		return nil
	}
	if err := trigger(servosilanode.ServiceEStop, "emergency stop latched: every axis at zero until release", drv.EStop); err != nil {
		return err
	}
	if err := trigger(servosilanode.ServiceRelease, "emergency stop released", drv.Release); err != nil {
		return err
	}
	_, err := std_srvs_srv.NewSetBoolService(n.Node, servosilanode.ServiceHeadlight, opts,
		func(_ *rclgo.ServiceInfo, req *std_srvs_srv.SetBool_Request, send std_srvs_srv.SetBoolServiceResponseSender) {
			drv.SetHeadlight(req.Data)
			resp := std_srvs_srv.NewSetBool_Response()
			// The protocol has no headlight state: say what was asked, not what is.
			resp.Success, resp.Message = true, fmt.Sprintf("headlight %v requested (the robot does not report its state)", req.Data)
			if err := send.SendResponse(resp); err != nil {
				log.Warnf("headlight response: %v", err)
			}
		})
	if err != nil {
		return fmt.Errorf("service %s: %w", servosilanode.ServiceHeadlight, err)
	}
	return nil
}

// publishers owns the node's outputs and their reused messages.
type publishers struct {
	node      string // fully qualified, names the diagnostics
	cfg       servosilanode.Config
	odom      *nav_msgs_msg.OdometryPublisher
	tf        *tf2_msgs_msg.TFMessagePublisher
	joints    *sensor_msgs_msg.JointStatePublisher
	telemetry *telebridge_interfaces_msg.ServosilaTelemetryPublisher
	diag      *diagnostic_msgs_msg.DiagnosticArrayPublisher

	odomMsg   *nav_msgs_msg.Odometry
	lastTelem time.Time
	lastDiag  time.Time
	// jointStates and jointMsg are reused for every joint_states message.
	jointStates *servosilanode.JointStates
	jointMsg    *sensor_msgs_msg.JointState
}

func newPublishers(n *rosnode.Node, cfg servosilanode.Config) (*publishers, error) {
	p := &publishers{node: n.FullyQualifiedName(), cfg: cfg, odomMsg: nav_msgs_msg.NewOdometry(),
		jointStates: servosilanode.NewJointStates(), jointMsg: sensor_msgs_msg.NewJointState()}
	// odom, joint_states and telemetry take qos_overrides
	// (servosilanode.Publishers).
	opts := map[string]*rclgo.PublisherOptions{}
	var err error
	for _, pub := range servosilanode.Publishers {
		if opts[pub.Topic], err = n.PublisherOpts(pub.Topic); err != nil {
			return nil, err
		}
	}
	if p.odom, err = nav_msgs_msg.NewOdometryPublisher(n.Node, servosilanode.TopicOdom, opts[servosilanode.TopicOdom]); err != nil {
		return nil, fmt.Errorf("publisher %s: %w", servosilanode.TopicOdom, err)
	}
	if cfg.PublishTF {
		if p.tf, err = tf2_msgs_msg.NewTFMessagePublisher(n.Node, servosilanode.TopicTF, rosnode.PubOpts(servosilanode.QoSTF)); err != nil {
			return nil, fmt.Errorf("publisher %s: %w", servosilanode.TopicTF, err)
		}
	}
	if p.joints, err = sensor_msgs_msg.NewJointStatePublisher(n.Node, servosilanode.TopicJointStates, opts[servosilanode.TopicJointStates]); err != nil {
		return nil, fmt.Errorf("publisher %s: %w", servosilanode.TopicJointStates, err)
	}
	if p.telemetry, err = telebridge_interfaces_msg.NewServosilaTelemetryPublisher(n.Node, servosilanode.TopicTelemetry, opts[servosilanode.TopicTelemetry]); err != nil {
		return nil, fmt.Errorf("publisher %s: %w", servosilanode.TopicTelemetry, err)
	}
	if p.diag, err = diagnostic_msgs_msg.NewDiagnosticArrayPublisher(n.Node, servosilanode.TopicDiagnostics, rosnode.PubOpts(servosilanode.QoSDiagnostics)); err != nil {
		return nil, fmt.Errorf("publisher %s: %w", servosilanode.TopicDiagnostics, err)
	}
	return p, nil
}

// publish sends odom and tf every tick, joint_states every tick while
// telemetry is fresh (servosilanode.Config.JointStatesDue), telemetry when
// a new packet arrived, and diagnostics at their period.
func (p *publishers) publish(drv *servosila.Driver, now time.Time) error {
	st := drv.Status()
	rosnode.Odometry(p.odomMsg, st.Odometry, now, p.cfg.OdomFrame, p.cfg.BaseFrame)
	if err := p.odom.Publish(p.odomMsg); err != nil {
		return fmt.Errorf("publish odom: %w", err)
	}
	if p.tf != nil {
		tf := tf2_msgs_msg.NewTFMessage()
		tf.Transforms = append(tf.Transforms, rosnode.OdomTransform(st.Odometry, now, p.cfg.OdomFrame, p.cfg.BaseFrame))
		if err := p.tf.Publish(tf); err != nil {
			return fmt.Errorf("publish tf: %w", err)
		}
	}
	telem, at, ok := drv.Telemetry()
	// Telemetry ages on the wall clock it was received by (not sim time).
	if p.cfg.JointStatesDue(ok, at, time.Now()) {
		p.jointStates.Fill(&p.cfg.Driver, &telem)
		p.jointMsg.Header = rosnode.Header(now, "")
		p.jointMsg.Name, p.jointMsg.Position = p.jointStates.Name, p.jointStates.Position
		if err := p.joints.Publish(p.jointMsg); err != nil {
			return fmt.Errorf("publish joint_states: %w", err)
		}
	}
	if ok && at.After(p.lastTelem) {
		p.lastTelem = at
		if err := p.publishTelemetry(telem, now); err != nil {
			return err
		}
	}
	if now.Sub(p.lastDiag) >= p.cfg.DiagnosticsPeriod {
		p.lastDiag = now
		d := servosilanode.Diagnose(p.cfg.Driver, st, at, ok, time.Now())
		if err := p.diag.Publish(rosnode.Diagnostics(p.node, now, d)); err != nil {
			return fmt.Errorf("publish diagnostics: %w", err)
		}
	}
	return nil
}

func (p *publishers) publishTelemetry(t servosilawire.Telemetry, now time.Time) error {
	msg := telebridge_interfaces_msg.NewServosilaTelemetry()
	msg.Header = rosnode.Header(now, p.cfg.BaseFrame)
	msg.Tick, msg.MotorCount = t.Tick, t.MotorCount
	for _, m := range t.Motors[:min(int(t.MotorCount), servosilawire.NumMotors)] {
		msg.Motors = append(msg.Motors, telebridge_interfaces_msg.ServosilaMotor{
			DeviceId: m.DeviceID, State: m.State, OperationMode: m.OperationMode,
			Position: m.Position, Speed: m.Speed, Current: m.Current, StatusBits: m.StatusBits,
			PositionCommand: m.PositionCommand, SpeedCommand: m.SpeedCommand, CurrentCommand: m.CurrentCommand,
			FaultDetected: m.FaultDetected, FaultCounter: m.FaultCounter,
		})
	}
	if err := p.telemetry.Publish(msg); err != nil {
		return fmt.Errorf("publish telemetry: %w", err)
	}
	return nil
}
