package graph_test

import (
	"context"
	"errors"
	"testing"

	"github.com/telebridge/telebridge/pkg/console"
)

// TestRobotDescription: the Servosila's URDF is what arrived on
// robot_description in its namespace; before that, and for other
// machines, console.ErrNoDescription.
func TestRobotDescription(t *testing.T) {
	c := config()
	c.ServosilaNamespace = "/engineer"
	b := newBackend(t, c, &fakePort{})
	n, err := c.Names()
	if err != nil {
		t.Fatal(err)
	}
	if n.ServosilaDescription != "/engineer/robot_description" {
		t.Errorf("description topic %q", n.ServosilaDescription)
	}
	var d console.Describer = b
	if _, err := d.RobotDescription(context.Background(), console.MachineServosila); !errors.Is(err, console.ErrNoDescription) {
		t.Fatalf("before robot_description: %v", err)
	}
	b.OnServosilaDescription("<robot name=\"x\"/>")
	if s, err := d.RobotDescription(context.Background(), console.MachineServosila); err != nil || s != "<robot name=\"x\"/>" {
		t.Fatalf("after robot_description: %q, %v", s, err)
	}
	if _, err := d.RobotDescription(context.Background(), "furbot"); !errors.Is(err, console.ErrNoDescription) {
		t.Fatalf("furbot: %v", err)
	}
}
