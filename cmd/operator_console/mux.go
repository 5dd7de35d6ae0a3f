//go:build ros2

package main

import (
	"fmt"

	sensor_msgs_msg "github.com/telebridge/telebridge/internal/rosmsg/sensor_msgs/msg"
	std_msgs_msg "github.com/telebridge/telebridge/internal/rosmsg/std_msgs/msg"
	"github.com/telebridge/telebridge/internal/rosnode"
	"github.com/telebridge/telebridge/pkg/console"
	"github.com/telebridge/telebridge/pkg/console/graph"
	"github.com/telebridge/telebridge/pkg/qos"
)

// muxPublishers makes the twist_mux locks' and the gamepads' publishers
// (reliable, as twist_mux and joy consumers subscribe).
func (p *port) muxPublishers(n *rosnode.Node, names graph.Names) error {
	for _, t := range []string{names.ServosilaLock, names.FurbotLock} {
		if t == "" {
			continue
		}
		pb, err := std_msgs_msg.NewBoolPublisher(n.Node, t, rosnode.PubOpts(qos.Default))
		if err != nil {
			return fmt.Errorf("publisher %s: %w", t, err)
		}
		p.locks[t] = pb
	}
	for _, t := range []string{names.ServosilaJoy, names.FurbotJoy} {
		if t == "" {
			continue
		}
		pb, err := sensor_msgs_msg.NewJoyPublisher(n.Node, t, rosnode.PubOpts(qos.Default))
		if err != nil {
			return fmt.Errorf("publisher %s: %w", t, err)
		}
		p.joys[t] = pb
	}
	return nil
}

func (p *port) PublishBool(topic string, v bool) error {
	pb, ok := p.locks[topic]
	if !ok {
		return fmt.Errorf("%s: %w", topic, errUnknown)
	}
	m := std_msgs_msg.NewBool()
	m.Data = v
	return pb.Publish(m)
}

func (p *port) PublishJoy(topic string, j console.Joy) error {
	pb, ok := p.joys[topic]
	if !ok {
		return fmt.Errorf("%s: %w", topic, errUnknown)
	}
	m := sensor_msgs_msg.NewJoy()
	m.Header = rosnode.Header(p.now(), "")
	m.Axes = make([]float32, len(j.Axes))
	for i, a := range j.Axes {
		m.Axes[i] = float32(a)
	}
	m.Buttons = append([]int32(nil), j.Buttons[:]...)
	return pb.Publish(m)
}
