package direct

import (
	"context"
	"fmt"

	"github.com/telebridge/telebridge/launch/urdf"
	"github.com/telebridge/telebridge/pkg/console"
)

// RobotDescription implements console.Describer: the Servosila Engineer's
// URDF (launch/urdf/servosila_engineer.urdf, embedded) for
// console.MachineServosila when one is connected.
func (b *Backend) RobotDescription(_ context.Context, machine string) (string, error) {
	if machine == console.MachineServosila && b.drv != nil {
		return urdf.ServosilaEngineer, nil
	}
	return "", fmt.Errorf("direct: machine %q: %w", machine, console.ErrNoDescription)
}
