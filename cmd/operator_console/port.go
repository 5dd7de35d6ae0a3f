//go:build ros2

package main

import (
	"context"
	"errors"
	"fmt"
	"time"

	geometry_msgs_msg "github.com/telebridge/telebridge/internal/rosmsg/geometry_msgs/msg"
	sensor_msgs_msg "github.com/telebridge/telebridge/internal/rosmsg/sensor_msgs/msg"
	std_msgs_msg "github.com/telebridge/telebridge/internal/rosmsg/std_msgs/msg"
	std_srvs_srv "github.com/telebridge/telebridge/internal/rosmsg/std_srvs/srv"
	telebridge_interfaces_msg "github.com/telebridge/telebridge/internal/rosmsg/telebridge_interfaces/msg"
	telebridge_interfaces_srv "github.com/telebridge/telebridge/internal/rosmsg/telebridge_interfaces/srv"
	"github.com/telebridge/telebridge/internal/rosnode"
	"github.com/telebridge/telebridge/pkg/console"
	"github.com/telebridge/telebridge/pkg/console/graph"
	furbotnode "github.com/telebridge/telebridge/pkg/furbot/node"
	"github.com/telebridge/telebridge/pkg/qos"
	servosilanode "github.com/telebridge/telebridge/pkg/servosila/node"
	"github.com/tiiuae/rclgo/pkg/rclgo"
)

// port implements graph.Port with rclgo publishers and clients, all made
// before the node spins (rclgo's wait set takes the node's resources once).
type port struct {
	twist    map[string]*geometry_msgs_msg.TwistPublisher
	joints   map[string]*sensor_msgs_msg.JointStatePublisher
	triggers map[string]*std_srvs_srv.TriggerClient
	bools    map[string]*std_srvs_srv.SetBoolClient
	jointMv  *telebridge_interfaces_srv.StartJointMoveClient
	cartMv   *telebridge_interfaces_srv.StartCartesianMoveClient
	locks    map[string]*std_msgs_msg.BoolPublisher
	joys     map[string]*sensor_msgs_msg.JoyPublisher
	now      func() time.Time // the node's clock, for the Joy stamps
}

func newPort(n *rosnode.Node, names graph.Names) (*port, error) {
	p := &port{
		twist:    map[string]*geometry_msgs_msg.TwistPublisher{},
		joints:   map[string]*sensor_msgs_msg.JointStatePublisher{},
		triggers: map[string]*std_srvs_srv.TriggerClient{},
		bools:    map[string]*std_srvs_srv.SetBoolClient{},
		locks:    map[string]*std_msgs_msg.BoolPublisher{},
		joys:     map[string]*sensor_msgs_msg.JoyPublisher{},
		now:      n.Now,
	}
	if err := p.muxPublishers(n, names); err != nil {
		return nil, err
	}
	// Each topic with its driver's QoS, so that they match.
	cli := &rclgo.ClientOptions{Qos: rosnode.QoS(qos.Services)}
	for _, t := range []struct {
		name string
		qos  qos.Profile
	}{{names.ServosilaCmdVel, servosilanode.QoSCmdVel}, {names.FurbotCmdVel, furbotnode.QoSCmdVel}} {
		if t.name == "" {
			continue
		}
		pb, err := geometry_msgs_msg.NewTwistPublisher(n.Node, t.name, rosnode.PubOpts(t.qos))
		if err != nil {
			return nil, fmt.Errorf("publisher %s: %w", t.name, err)
		}
		p.twist[t.name] = pb
	}
	for _, t := range []string{names.ServosilaJointVel, names.ServosilaJointTarget} {
		if t == "" {
			continue
		}
		pb, err := sensor_msgs_msg.NewJointStatePublisher(n.Node, t, rosnode.PubOpts(servosilanode.QoSJointCmd))
		if err != nil {
			return nil, fmt.Errorf("publisher %s: %w", t, err)
		}
		p.joints[t] = pb
	}
	for _, s := range []string{names.ServosilaEStop, names.ServosilaRelease, names.FurbotEStop, names.FurbotRelease, names.JogStop, names.JogHeartbeat} {
		if s == "" {
			continue
		}
		c, err := std_srvs_srv.NewTriggerClient(n.Node, s, cli)
		if err != nil {
			return nil, fmt.Errorf("client %s: %w", s, err)
		}
		p.triggers[s] = c
	}
	if s := names.ServosilaHeadlight; s != "" {
		c, err := std_srvs_srv.NewSetBoolClient(n.Node, s, cli)
		if err != nil {
			return nil, fmt.Errorf("client %s: %w", s, err)
		}
		p.bools[s] = c
	}
	if names.JogStartJoint != "" {
		var err error
		if p.jointMv, err = telebridge_interfaces_srv.NewStartJointMoveClient(n.Node, names.JogStartJoint, cli); err != nil {
			return nil, fmt.Errorf("client %s: %w", names.JogStartJoint, err)
		}
		if p.cartMv, err = telebridge_interfaces_srv.NewStartCartesianMoveClient(n.Node, names.JogStartCartesian, cli); err != nil {
			return nil, fmt.Errorf("client %s: %w", names.JogStartCartesian, err)
		}
	}
	return p, nil
}

var errUnknown = errors.New("no such topic or service in this console")

func (p *port) PublishTwist(topic string, linear, angular float64) error {
	pb, ok := p.twist[topic]
	if !ok {
		return fmt.Errorf("%s: %w", topic, errUnknown)
	}
	m := geometry_msgs_msg.NewTwist()
	m.Linear.X, m.Angular.Z = linear, angular
	return pb.Publish(m)
}

func (p *port) PublishJointState(topic string, names []string, position, velocity []float64) error {
	pb, ok := p.joints[topic]
	if !ok {
		return fmt.Errorf("%s: %w", topic, errUnknown)
	}
	m := sensor_msgs_msg.NewJointState()
	m.Name, m.Position, m.Velocity = names, position, velocity
	return pb.Publish(m)
}

// answer turns a service response into an error when it says no.
func answer(success bool, message string, err error) error {
	switch {
	case err != nil:
		return err
	case !success:
		return errors.New(message)
	}
	return nil
}

func (p *port) Trigger(ctx context.Context, service string) error {
	c, ok := p.triggers[service]
	if !ok {
		return fmt.Errorf("%s: %w", service, errUnknown)
	}
	resp, _, err := c.Send(ctx, std_srvs_srv.NewTrigger_Request())
	if err != nil {
		return err
	}
	return answer(resp.Success, resp.Message, nil)
}

func (p *port) SetBool(ctx context.Context, service string, v bool) error {
	c, ok := p.bools[service]
	if !ok {
		return fmt.Errorf("%s: %w", service, errUnknown)
	}
	req := std_srvs_srv.NewSetBool_Request()
	req.Data = v
	resp, _, err := c.Send(ctx, req)
	if err != nil {
		return err
	}
	return answer(resp.Success, resp.Message, nil)
}

func (p *port) StartJointMove(ctx context.Context, _ string, m console.JogJointMove) error {
	if p.jointMv == nil {
		return errUnknown
	}
	req := telebridge_interfaces_srv.NewStartJointMove_Request()
	req.MoveDelta, req.JointValues, req.Speed = m.Delta, m.Values, m.Speed
	resp, _, err := p.jointMv.Send(ctx, req)
	if err != nil {
		return err
	}
	return answer(resp.Success, resp.Message, nil)
}

func (p *port) StartCartesianMove(ctx context.Context, _ string, m console.JogCartesianMove) error {
	if p.cartMv == nil {
		return errUnknown
	}
	req := telebridge_interfaces_srv.NewStartCartesianMove_Request()
	req.PoseReference, req.MoveDelta, req.Speed = m.Frame, m.Delta, m.Speed
	req.Pose = telebridge_interfaces_msg.EulerPose{X: m.Pose.X, Y: m.Pose.Y, Z: m.Pose.Z, Rz: m.Pose.RZ, Ry: m.Pose.RY, Rx: m.Pose.RX}
	resp, _, err := p.cartMv.Send(ctx, req)
	if err != nil {
		return err
	}
	return answer(resp.Success, resp.Message, nil)
}
