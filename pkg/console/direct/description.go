package direct

import (
	"context"
	"fmt"

	"github.com/telebridge/telebridge/launch/urdf"
	"github.com/telebridge/telebridge/pkg/console"
)

// RobotDescription implements console.Describer: the embedded URDF of
// each machine that is connected (launch/urdf/servosila_engineer.urdf for
// console.MachineServosila, launch/urdf/furbot.urdf for
// console.MachineFurbot).
func (b *Backend) RobotDescription(_ context.Context, machine string) (string, error) {
	switch {
	case machine == console.MachineServosila && b.drv != nil:
		return urdf.ServosilaEngineer, nil
	case machine == console.MachineFurbot && b.bridge != nil:
		return urdf.Furbot, nil
	}
	return "", fmt.Errorf("direct: machine %q: %w", machine, console.ErrNoDescription)
}
