//go:build ros2

package main

import (
	"fmt"

	diagnostic_msgs_msg "github.com/telebridge/telebridge/internal/rosmsg/diagnostic_msgs/msg"
	nav_msgs_msg "github.com/telebridge/telebridge/internal/rosmsg/nav_msgs/msg"
	sensor_msgs_msg "github.com/telebridge/telebridge/internal/rosmsg/sensor_msgs/msg"
	std_msgs_msg "github.com/telebridge/telebridge/internal/rosmsg/std_msgs/msg"
	telebridge_interfaces_msg "github.com/telebridge/telebridge/internal/rosmsg/telebridge_interfaces/msg"
	"github.com/telebridge/telebridge/internal/rosnode"
	"github.com/telebridge/telebridge/pkg/console"
	"github.com/telebridge/telebridge/pkg/console/graph"
	"github.com/telebridge/telebridge/pkg/diag"
	furbotnode "github.com/telebridge/telebridge/pkg/furbot/node"
	furbotwire "github.com/telebridge/telebridge/pkg/furbot/wire"
	"github.com/telebridge/telebridge/pkg/geom"
	jognode "github.com/telebridge/telebridge/pkg/jog/node"
	servosilanode "github.com/telebridge/telebridge/pkg/servosila/node"
	"github.com/tiiuae/rclgo/pkg/rclgo"
)

// subscribe hands every message the console shows to the backend. The
// callbacks only copy. Each topic is subscribed with its publisher's QoS,
// from the driver's node package, so that they match.
func subscribe(n *rosnode.Node, names graph.Names, be *graph.Backend) error {
	sub := func(topic string, err error) error {
		if err != nil {
			return fmt.Errorf("subscribe %s: %w", topic, err)
		}
		return nil
	}
	odom := func(topic string, qos *rclgo.SubscriptionOptions, to func(x, y float64, q geom.Quat, v, w float64)) error {
		_, err := nav_msgs_msg.NewOdometrySubscription(n.Node, topic, qos, func(m *nav_msgs_msg.Odometry, _ *rclgo.MessageInfo, err error) {
			if err != nil {
				return
			}
			o := m.Pose.Pose.Orientation
			to(m.Pose.Pose.Position.X, m.Pose.Pose.Position.Y, geom.Quat{W: o.W, X: o.X, Y: o.Y, Z: o.Z}, m.Twist.Twist.Linear.X, m.Twist.Twist.Angular.Z)
		})
		return sub(topic, err)
	}
	// One subscription per joint_states topic: the Servosila's and the jog
	// arm's are the same topic when the Servosila runs in the root
	// namespace; each handler picks its joints by name.
	jointHandlers := map[string][]func([]string, []float64){}
	if t := names.ServosilaJointStates; t != "" {
		jointHandlers[t] = append(jointHandlers[t], be.OnServosilaJointStates)
	}
	if t := names.JogJointStates; t != "" {
		jointHandlers[t] = append(jointHandlers[t], be.OnJogJointStates)
	}
	for topic, hs := range jointHandlers {
		qos := rosnode.SubOpts(servosilanode.QoSJointStates)
		if topic == names.JogJointStates {
			qos = rosnode.SubOpts(jognode.QoSJointStates) // best effort matches every publisher
		}
		_, err := sensor_msgs_msg.NewJointStateSubscription(n.Node, topic, qos, func(m *sensor_msgs_msg.JointState, _ *rclgo.MessageInfo, err error) {
			if err != nil {
				return
			}
			for _, h := range hs {
				h(m.Name, m.Position)
			}
		})
		if err := sub(topic, err); err != nil {
			return err
		}
	}
	if t := names.ServosilaOdom; t != "" {
		if err := odom(t, rosnode.SubOpts(servosilanode.QoSOdom), be.OnServosilaOdom); err != nil {
			return err
		}
		_, err := telebridge_interfaces_msg.NewServosilaTelemetrySubscription(n.Node, names.ServosilaTelemetry, rosnode.SubOpts(servosilanode.QoSTelemetry),
			func(m *telebridge_interfaces_msg.ServosilaTelemetry, _ *rclgo.MessageInfo, err error) {
				if err != nil {
					return
				}
				t := graph.Telemetry{Tick: m.Tick, Motors: make([]console.MotorState, 0, len(m.Motors))}
				for _, r := range m.Motors {
					t.Motors = append(t.Motors, console.MotorState{
						ID: r.DeviceId, State: r.State, Mode: r.OperationMode, Position: r.Position, Speed: r.Speed,
						Current: r.Current, Status: uint16(r.StatusBits), Fault: r.FaultDetected != 0, FaultCount: r.FaultCounter,
					})
				}
				be.OnServosilaTelemetry(t)
			})
		if err := sub(names.ServosilaTelemetry, err); err != nil {
			return err
		}
	}
	for _, d := range []struct {
		topic string
		on    func(string)
	}{{names.ServosilaDescription, be.OnServosilaDescription}, {names.FurbotDescription, be.OnFurbotDescription}} {
		if d.topic == "" {
			continue
		}
		_, err := std_msgs_msg.NewStringSubscription(n.Node, d.topic, rosnode.SubOpts(graph.QoSRobotDescription), func(m *std_msgs_msg.String, _ *rclgo.MessageInfo, err error) {
			if err == nil {
				d.on(m.Data)
			}
		})
		if err := sub(d.topic, err); err != nil {
			return err
		}
	}
	_, err := diagnostic_msgs_msg.NewDiagnosticArraySubscription(n.Node, names.Diagnostics, rosnode.SubOpts(servosilanode.QoSDiagnostics),
		func(m *diagnostic_msgs_msg.DiagnosticArray, _ *rclgo.MessageInfo, err error) {
			if err != nil {
				return
			}
			for _, s := range m.Status {
				d := diag.Status{Level: diag.Level(s.Level), Name: s.Name, Message: s.Message, HardwareID: s.HardwareId}
				for _, kv := range s.Values {
					d.Values = append(d.Values, diag.KeyValue{Key: kv.Key, Value: kv.Value})
				}
				be.OnDiagnostics(d)
			}
		})
	if err := sub(names.Diagnostics, err); err != nil {
		return err
	}
	if names.FurbotCmdVel == "" {
		return nil
	}
	return subscribeFurbot(n, names, be, odom, sub)
}

func subscribeFurbot(n *rosnode.Node, names graph.Names, be *graph.Backend,
	odom func(string, *rclgo.SubscriptionOptions, func(x, y float64, q geom.Quat, v, w float64)) error, sub func(string, error) error) error {
	tel := rosnode.SubOpts(furbotnode.QoSTelemetrySub)
	if err := odom(names.FurbotOdom, rosnode.SubOpts(furbotnode.QoSOdom), be.OnFurbotOdom); err != nil {
		return err
	}
	_, err := telebridge_interfaces_msg.NewTractionDataSubscription(n.Node, names.FurbotTraction, tel, func(m *telebridge_interfaces_msg.TractionData, _ *rclgo.MessageInfo, err error) {
		if err == nil {
			be.OnFurbotTraction(graph.Traction{Speed: m.SpeedMps, Throttle: m.ThrottleRatio, Brake: m.BrakeRatio, Reverse: m.Reverse != 0})
		}
	})
	if err := sub(names.FurbotTraction, err); err != nil {
		return err
	}
	_, err = telebridge_interfaces_msg.NewSteeringDataSubscription(n.Node, names.FurbotSteering, tel, func(m *telebridge_interfaces_msg.SteeringData, _ *rclgo.MessageInfo, err error) {
		if err == nil {
			be.OnFurbotSteering(m.CurrentAngleRad)
		}
	})
	if err := sub(names.FurbotSteering, err); err != nil {
		return err
	}
	_, err = telebridge_interfaces_msg.NewVehicleStatusSubscription(n.Node, names.FurbotStatus, tel, func(m *telebridge_interfaces_msg.VehicleStatus, _ *rclgo.MessageInfo, err error) {
		if err != nil {
			return
		}
		s := graph.Status{Working: m.Working, AllWorking: m.AllWorking, LinkFresh: m.LinkFresh, EStopped: m.MotionFlags&2 != 0}
		copy(s.States[:], m.States[:min(len(m.States), furbotwire.NumBlocks)])
		be.OnFurbotStatus(s)
	})
	if err := sub(names.FurbotStatus, err); err != nil {
		return err
	}
	_, err = telebridge_interfaces_msg.NewBmsDataSubscription(n.Node, names.FurbotBMS, tel, func(m *telebridge_interfaces_msg.BmsData, _ *rclgo.MessageInfo, err error) {
		if err == nil {
			be.OnFurbotBMS(int(m.TempHigh), int(m.TempLow))
		}
	})
	if err := sub(names.FurbotBMS, err); err != nil {
		return err
	}
	_, err = sensor_msgs_msg.NewBatteryStateSubscription(n.Node, names.FurbotBattery, rosnode.SubOpts(furbotnode.QoSBattery), func(m *sensor_msgs_msg.BatteryState, _ *rclgo.MessageInfo, err error) {
		if err == nil {
			be.OnFurbotBattery(float64(m.Percentage), float64(m.Voltage), float64(m.Current))
		}
	})
	if err := sub(names.FurbotBattery, err); err != nil {
		return err
	}
	_, err = telebridge_interfaces_msg.NewControlSignalsSubscription(n.Node, names.FurbotControlSent, tel, func(m *telebridge_interfaces_msg.ControlSignals, _ *rclgo.MessageInfo, err error) {
		if err == nil {
			be.OnFurbotControlSent(graph.ControlSent{EStop: m.Flags&telebridge_interfaces_msg.ControlSignals_FLAG_ESTOP != 0})
		}
	})
	return sub(names.FurbotControlSent, err)
}
