package graph

import (
	"context"
	"fmt"

	"github.com/telebridge/telebridge/pkg/console"
	"github.com/telebridge/telebridge/pkg/qos"
)

// TopicRobotDescription is robot_state_publisher's topic of the URDF
// (std_msgs/String), in each machine's namespace: the launch files start
// robot_state_publisher there with servosila_engineer.urdf and furbot.urdf.
const TopicRobotDescription = "robot_description"

// QoSRobotDescription is robot_state_publisher's profile of
// robot_description: reliable and transient local, so that a console
// started later still receives the description.
var QoSRobotDescription = qos.Profile{Reliability: qos.Reliable, Durability: qos.TransientLocal, History: qos.KeepLast, Depth: 1}

// OnServosilaDescription takes the Servosila's URDF from
// robot_description.
func (b *Backend) OnServosilaDescription(urdf string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.srvDescription = urdf
}

// OnFurbotDescription takes the Furbot's URDF from robot_description.
func (b *Backend) OnFurbotDescription(urdf string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.furDescription = urdf
}

// RobotDescription implements console.Describer: a machine's URDF as
// last received on its robot_description; an error wrapping
// console.ErrNoDescription before it arrives or for a machine that is
// off.
func (b *Backend) RobotDescription(_ context.Context, machine string) (string, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	var doc, topic string
	switch {
	case machine == console.MachineServosila && b.cfg.Servosila:
		doc, topic = b.srvDescription, b.names.ServosilaDescription
	case machine == console.MachineFurbot && b.cfg.Furbot:
		doc, topic = b.furDescription, b.names.FurbotDescription
	default:
		return "", fmt.Errorf("graph: machine %q: %w", machine, console.ErrNoDescription)
	}
	if doc == "" {
		return "", fmt.Errorf("graph: nothing received on %s yet (is robot_state_publisher running?): %w", topic, console.ErrNoDescription)
	}
	return doc, nil
}
