package direct

import (
	"context"
	_ "embed" // the Servosila's URDF
	"fmt"

	"github.com/telebridge/telebridge/pkg/console"
)

// servosilaURDF is the Servosila Engineer's description: a copy of
// launch/urdf/servosila_engineer.urdf (a test keeps them equal).
//
//go:embed servosila_engineer.urdf
var servosilaURDF string

// RobotDescription implements console.Describer: the embedded URDF of the
// Servosila (console.MachineServosila) when one is connected.
func (b *Backend) RobotDescription(_ context.Context, machine string) (string, error) {
	if machine == console.MachineServosila && b.drv != nil {
		return servosilaURDF, nil
	}
	return "", fmt.Errorf("direct: machine %q: %w", machine, console.ErrNoDescription)
}
