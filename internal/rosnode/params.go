//go:build ros2

package rosnode

import (
	"fmt"

	rcl_interfaces_msg "github.com/telebridge/telebridge/internal/rosmsg/rcl_interfaces/msg"
	rcl_interfaces_srv "github.com/telebridge/telebridge/internal/rosmsg/rcl_interfaces/srv"
	rosgraph_msgs_msg "github.com/telebridge/telebridge/internal/rosmsg/rosgraph_msgs/msg"
	"github.com/telebridge/telebridge/pkg/qos"
	"github.com/telebridge/telebridge/pkg/rosparam"
	"github.com/tiiuae/rclgo/pkg/rclgo"
)

// eventPublisher publishes parameter events; nil until started.
type eventPublisher struct {
	pub *rcl_interfaces_msg.ParameterEventPublisher
}

// paramQoS is what rclcpp uses for the parameter services and events.
var paramQoS = qos.Profile{Reliability: qos.Reliable, Durability: qos.Volatile, History: qos.KeepLast, Depth: rosparam.QoSDepthParameters}

func (n *Node) startParams(opts options, overrides *rosparam.Overrides) error {
	pub, err := rcl_interfaces_msg.NewParameterEventPublisher(n.Node, rosparam.TopicParameterEvents, PubOpts(paramQoS))
	if err != nil {
		return fmt.Errorf("rosnode: %s publisher: %w", rosparam.TopicParameterEvents, err)
	}
	n.events.pub = pub
	n.onClose(pub.Close)

	store, err := rosparam.New(rosparam.Config{
		Node:      n.FullyQualifiedName(),
		Table:     opts.Table,
		Overrides: overrides,
		Validate:  n.live.validate(opts.Validate),
		OnChange:  n.live.onChange,
		OnEvent:   n.publishEvent,
	})
	if err != nil {
		return fmt.Errorf("rosnode: parameters: %w", err)
	}
	n.Params = store

	clock, err := rosgraph_msgs_msg.NewClockSubscription(n.Node, "/clock", SubOpts(qos.SensorData),
		func(msg *rosgraph_msgs_msg.Clock, _ *rclgo.MessageInfo, err error) {
			if err == nil {
				store.Clock().FeedClock(rosparam.Time{Sec: msg.Clock.Sec, Nanosec: msg.Clock.Nanosec})
			}
		})
	if err != nil {
		return fmt.Errorf("rosnode: /clock subscription: %w", err)
	}
	n.onClose(clock.Close)
	return n.serveParams()
}

func (n *Node) publishEvent(e rosparam.ParameterEvent) {
	msg := rcl_interfaces_msg.NewParameterEvent()
	msg.Stamp.Sec, msg.Stamp.Nanosec = e.Stamp.Sec, e.Stamp.Nanosec
	msg.Node = e.Node
	msg.NewParameters = toMsgParams(e.NewParameters)
	msg.ChangedParameters = toMsgParams(e.ChangedParameters)
	msg.DeletedParameters = toMsgParams(e.DeletedParameters)
	if err := n.events.pub.Publish(msg); err != nil {
		n.Logger().Warnf("publish parameter event: %v", err)
	}
}

// serveParams creates the six standard parameter services.
func (n *Node) serveParams() error {
	s, opts := n.Params, SrvOpts(paramQoS)
	name := func(srv string) string { return "~/" + srv }
	type closer interface{ Close() error }
	var errs []error
	add := func(c closer, err error) {
		if err != nil {
			errs = append(errs, err)
			return
		}
		n.onClose(c.Close)
	}
	add(rcl_interfaces_srv.NewListParametersService(n.Node, name(rosparam.ServiceListParameters), opts,
		func(_ *rclgo.ServiceInfo, req *rcl_interfaces_srv.ListParameters_Request, send rcl_interfaces_srv.ListParametersServiceResponseSender) {
			resp := rcl_interfaces_srv.NewListParameters_Response()
			resp.Result = rcl_interfaces_msg.ListParametersResult(s.ListParameters(req.Prefixes, req.Depth))
			n.reply(send.SendResponse(resp))
		}))
	add(rcl_interfaces_srv.NewGetParametersService(n.Node, name(rosparam.ServiceGetParameters), opts,
		func(_ *rclgo.ServiceInfo, req *rcl_interfaces_srv.GetParameters_Request, send rcl_interfaces_srv.GetParametersServiceResponseSender) {
			resp := rcl_interfaces_srv.NewGetParameters_Response()
			for _, v := range s.GetParameters(req.Names) {
				resp.Values = append(resp.Values, rcl_interfaces_msg.ParameterValue(v))
			}
			n.reply(send.SendResponse(resp))
		}))
	add(rcl_interfaces_srv.NewSetParametersService(n.Node, name(rosparam.ServiceSetParameters), opts,
		func(_ *rclgo.ServiceInfo, req *rcl_interfaces_srv.SetParameters_Request, send rcl_interfaces_srv.SetParametersServiceResponseSender) {
			resp := rcl_interfaces_srv.NewSetParameters_Response()
			for _, r := range s.SetParameters(fromMsgParams(req.Parameters)) {
				resp.Results = append(resp.Results, rcl_interfaces_msg.SetParametersResult(r))
			}
			n.reply(send.SendResponse(resp))
		}))
	add(rcl_interfaces_srv.NewSetParametersAtomicallyService(n.Node, name(rosparam.ServiceSetParametersAtomically), opts,
		func(_ *rclgo.ServiceInfo, req *rcl_interfaces_srv.SetParametersAtomically_Request, send rcl_interfaces_srv.SetParametersAtomicallyServiceResponseSender) {
			resp := rcl_interfaces_srv.NewSetParametersAtomically_Response()
			resp.Result = rcl_interfaces_msg.SetParametersResult(s.SetParametersAtomically(fromMsgParams(req.Parameters)))
			n.reply(send.SendResponse(resp))
		}))
	add(rcl_interfaces_srv.NewDescribeParametersService(n.Node, name(rosparam.ServiceDescribeParameters), opts,
		func(_ *rclgo.ServiceInfo, req *rcl_interfaces_srv.DescribeParameters_Request, send rcl_interfaces_srv.DescribeParametersServiceResponseSender) {
			resp := rcl_interfaces_srv.NewDescribeParameters_Response()
			for _, d := range s.DescribeParameters(req.Names) {
				resp.Descriptors = append(resp.Descriptors, toMsgDescriptor(d))
			}
			n.reply(send.SendResponse(resp))
		}))
	add(rcl_interfaces_srv.NewGetParameterTypesService(n.Node, name(rosparam.ServiceGetParameterTypes), opts,
		func(_ *rclgo.ServiceInfo, req *rcl_interfaces_srv.GetParameterTypes_Request, send rcl_interfaces_srv.GetParameterTypesServiceResponseSender) {
			resp := rcl_interfaces_srv.NewGetParameterTypes_Response()
			resp.Types = s.GetParameterTypes(req.Names)
			n.reply(send.SendResponse(resp))
		}))
	if len(errs) > 0 {
		return fmt.Errorf("rosnode: parameter services: %w", errs[0])
	}
	return nil
}

func (n *Node) reply(err error) {
	if err != nil {
		n.Logger().Warnf("send parameter service response: %v", err)
	}
}

func toMsgParams(ps []rosparam.Parameter) []rcl_interfaces_msg.Parameter {
	out := make([]rcl_interfaces_msg.Parameter, len(ps))
	for i, p := range ps {
		out[i] = rcl_interfaces_msg.Parameter{Name: p.Name, Value: rcl_interfaces_msg.ParameterValue(p.Value)}
	}
	return out
}

func fromMsgParams(ps []rcl_interfaces_msg.Parameter) []rosparam.Parameter {
	out := make([]rosparam.Parameter, len(ps))
	for i, p := range ps {
		out[i] = rosparam.Parameter{Name: p.Name, Value: rosparam.ParameterValue(p.Value)}
	}
	return out
}

func toMsgDescriptor(d rosparam.ParameterDescriptor) rcl_interfaces_msg.ParameterDescriptor {
	out := rcl_interfaces_msg.ParameterDescriptor{
		Name: d.Name, Type: d.Type, Description: d.Description,
		AdditionalConstraints: d.AdditionalConstraints, ReadOnly: d.ReadOnly, DynamicTyping: d.DynamicTyping,
	}
	for _, r := range d.FloatingPointRange {
		out.FloatingPointRange = append(out.FloatingPointRange, rcl_interfaces_msg.FloatingPointRange(r))
	}
	for _, r := range d.IntegerRange {
		out.IntegerRange = append(out.IntegerRange, rcl_interfaces_msg.IntegerRange(r))
	}
	return out
}
