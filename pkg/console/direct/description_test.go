package direct_test

import (
	"context"
	"errors"
	"testing"

	"github.com/telebridge/telebridge/launch/urdf"
	"github.com/telebridge/telebridge/pkg/console"
	"github.com/telebridge/telebridge/pkg/console/direct"
)

// TestRobotDescription: the backend serves the embedded URDF of each
// machine it runs, and none for a machine that is off.
func TestRobotDescription(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	be, err := direct.Start(ctx, direct.Config{Servosila: "off", NoJog: true})
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := be.Close(); err != nil {
			t.Error(err)
		}
	}()
	if doc, err := be.RobotDescription(ctx, console.MachineFurbot); err != nil || doc != urdf.Furbot {
		t.Errorf("furbot: %d bytes, %v; want furbot.urdf", len(doc), err)
	}
	for _, m := range []string{console.MachineServosila, "forklift"} {
		if _, err := be.RobotDescription(ctx, m); !errors.Is(err, console.ErrNoDescription) {
			t.Errorf("%s: %v, want ErrNoDescription", m, err)
		}
	}
}
