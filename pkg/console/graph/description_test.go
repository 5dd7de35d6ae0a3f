package graph_test

import (
	"context"
	"errors"
	"testing"

	"github.com/telebridge/telebridge/pkg/console"
)

// TestRobotDescription: each machine's URDF is what arrived on
// robot_description in its namespace; before that, and for a machine
// that is off, console.ErrNoDescription.
func TestRobotDescription(t *testing.T) {
	c := config()
	c.ServosilaNamespace = "/engineer"
	b := newBackend(t, c, &fakePort{})
	n, err := c.Names()
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	var d console.Describer = b
	for _, m := range []struct {
		machine, topic, got string
		on                  func(string)
	}{
		{console.MachineServosila, "/engineer/robot_description", n.ServosilaDescription, b.OnServosilaDescription},
		{console.MachineFurbot, "/furbot/robot_description", n.FurbotDescription, b.OnFurbotDescription},
	} {
		if m.got != m.topic {
			t.Errorf("%s: description topic %q, want %q", m.machine, m.got, m.topic)
		}
		if _, err := d.RobotDescription(ctx, m.machine); !errors.Is(err, console.ErrNoDescription) {
			t.Fatalf("%s before robot_description: %v", m.machine, err)
		}
		doc := `<robot name="` + m.machine + `"/>`
		m.on(doc)
		if s, err := d.RobotDescription(ctx, m.machine); err != nil || s != doc {
			t.Fatalf("%s after robot_description: %q, %v", m.machine, s, err)
		}
	}
	if _, err := d.RobotDescription(ctx, "forklift"); !errors.Is(err, console.ErrNoDescription) {
		t.Fatalf("an unknown machine: %v", err)
	}

	c.Furbot = false // a machine that is off has none, whatever arrived
	off := newBackend(t, c, &fakePort{})
	off.OnFurbotDescription(`<robot name="furbot"/>`)
	if _, err := off.RobotDescription(ctx, console.MachineFurbot); !errors.Is(err, console.ErrNoDescription) {
		t.Fatalf("furbot off: %v", err)
	}
}
