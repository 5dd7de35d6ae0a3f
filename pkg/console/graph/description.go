package graph

import (
	"context"
	"fmt"

	"github.com/telebridge/telebridge/pkg/console"
	"github.com/telebridge/telebridge/pkg/qos"
)

// TopicRobotDescription is robot_state_publisher's topic of the URDF
// (std_msgs/String), in the Servosila's namespace: the launch files start
// robot_state_publisher there with servosila_engineer.urdf.
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

// RobotDescription implements console.Describer: the Servosila's URDF as
// last received on robot_description; an error wrapping
// console.ErrNoDescription before it arrives or for another machine.
func (b *Backend) RobotDescription(_ context.Context, machine string) (string, error) {
	if machine != console.MachineServosila || !b.cfg.Servosila {
		return "", fmt.Errorf("graph: machine %q: %w", machine, console.ErrNoDescription)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.srvDescription == "" {
		return "", fmt.Errorf("graph: nothing received on %s yet (is robot_state_publisher running?): %w", b.names.ServosilaDescription, console.ErrNoDescription)
	}
	return b.srvDescription, nil
}
