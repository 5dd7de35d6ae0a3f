package node

import (
	"testing"
	"time"

	"github.com/telebridge/telebridge/pkg/furbot"
	"github.com/telebridge/telebridge/pkg/furbot/control"
	"github.com/telebridge/telebridge/pkg/furbot/wire"
	"github.com/telebridge/telebridge/pkg/rosparam"
)

func TestParameterTableForROS(t *testing.T) {
	table := ParameterTable()
	if err := table.Check(); err != nil {
		t.Fatal(err)
	}
	ours := furbot.BridgeParams()
	if len(table) != len(ours) {
		t.Fatalf("rosparam table has %d entries, BridgeParams %d", len(table), len(ours))
	}
	for i, p := range table {
		if p.Name != ours[i].Name || p.ReadOnly != ours[i].ReadOnly {
			t.Errorf("entry %d: %s (read-only %v), want %s (%v)", i, p.Name, p.ReadOnly, ours[i].Name, ours[i].ReadOnly)
		}
	}
	// Values set through the ROS table land in the configuration.
	cfg := furbot.DefaultBridgeConfig()
	err := ParameterBindings().Apply(&cfg, []rosparam.Parameter{
		{Name: "kp", Value: rosparam.Double(2.5)},
		{Name: "command_timeout", Value: rosparam.Double(0.25)},
		{Name: "odom_source", Value: rosparam.Integer(int64(control.OdomBicycle))},
	})
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Controller.Kp != 2.5 || cfg.Controller.CommandTimeout != 250*time.Millisecond || cfg.Odometry.Source != control.OdomBicycle {
		t.Errorf("applied: kp %v timeout %v source %v", cfg.Controller.Kp, cfg.Controller.CommandTimeout, cfg.Odometry.Source)
	}
	if cfg.Rate != wire.FrameRate || cfg.Odometry.Track != 1.2 {
		t.Errorf("defaults lost: rate %v track %v", cfg.Rate, cfg.Odometry.Track)
	}
}
