package node

import (
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/telebridge/telebridge/pkg/diag"
	"github.com/telebridge/telebridge/pkg/rosparam"
	"github.com/telebridge/telebridge/pkg/servosila"
	"github.com/telebridge/telebridge/pkg/servosila/wire"
)

func TestNodeParameterTableIsValid(t *testing.T) {
	table := ParameterTable()
	if err := table.Check(); err != nil {
		t.Fatal(err)
	}
	seen := map[string]rosparam.Param{}
	for _, p := range table {
		seen[p.Name] = p
	}
	for name, want := range map[string]rosparam.ParameterValue{
		"robot_address":      rosparam.String("10.42.0.1:10000"),
		"calibration.linear": rosparam.Double(71553.837),
		"min_start_velocity": rosparam.Double(0.2),
		"command_timeout":    rosparam.Double(0.5),
		"odom_frame":         rosparam.String("odom"),
		"publish_tf":         rosparam.Bool(true),
		"motor_slot.waist":   rosparam.Integer(3),
	} {
		if p, ok := seen[name]; !ok || !p.Default.Equal(want) {
			t.Errorf("%s: default %v, want %v", name, p.Default, want)
		}
	}
}

func TestLoadNodeConfig(t *testing.T) {
	var ov rosparam.Overrides
	yaml := "servosila_driver:\n  ros__parameters:\n    robot_address: 127.0.0.1:10000\n    calibration.linear: 72021.739\n    max_velocity.waist: 0.3\n    base_frame: robot\n"
	if err := ov.AddYAML([]byte(yaml)); err != nil {
		t.Fatal(err)
	}
	s, err := rosparam.New(rosparam.Config{Node: "/" + Name, Table: ParameterTable(), Overrides: &ov})
	if err != nil {
		t.Fatal(err)
	}
	c, err := LoadConfig(s)
	if err != nil {
		t.Fatal(err)
	}
	if c.Driver.Robot != "127.0.0.1:10000" || c.Driver.Calibration.Linear != 72021.739 ||
		c.Driver.MaxJoint[wire.Waist] != 0.3 || c.BaseFrame != "robot" || c.OdomFrame != "odom" {
		t.Fatalf("loaded %+v (calibration %+v)", c, *c.Driver.Calibration)
	}
	// The default Config is not changed by loading into a copy.
	if DefaultConfig().Driver.Calibration.Linear != 71553.837 {
		t.Fatal("loading changed the defaults")
	}
}

func TestLoadNodeConfigRefusesOutOfRange(t *testing.T) {
	var ov rosparam.Overrides
	if err := ov.AddYAML([]byte("/**:\n  ros__parameters:\n    send_rate: 1000.0\n")); err != nil {
		t.Fatal(err)
	}
	if _, err := rosparam.New(rosparam.Config{Node: "/" + Name, Table: ParameterTable(), Overrides: &ov}); err == nil {
		t.Fatal("send_rate 1000 Hz accepted at start-up")
	}
}

func TestJointCommand(t *testing.T) {
	tests := []struct {
		name   string
		names  []string
		values []float64
		joints []wire.Joint
		ok     bool
	}{
		{"two joints", []string{"waist", "elbow"}, []float64{0.1, -0.2}, []wire.Joint{wire.Waist, wire.Elbow}, true},
		{"empty", nil, nil, nil, true},
		{"length mismatch", []string{"waist"}, nil, nil, false},
		{"unknown joint", []string{"wrist"}, []float64{1}, nil, false},
		{"NaN", []string{"neck"}, []float64{math.NaN()}, nil, false},
		{"Inf among good", []string{"waist", "neck"}, []float64{0.1, math.Inf(1)}, nil, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			joints, vals, err := JointCommand(tc.names, tc.values)
			if (err == nil) != tc.ok {
				t.Fatalf("err = %v, want ok=%v", err, tc.ok)
			}
			if err != nil {
				if !errors.Is(err, wire.ErrInvalidCommand) || joints != nil || vals != nil {
					t.Fatalf("refused command returned %v %v %v", joints, vals, err)
				}
				return
			}
			if len(joints) != len(tc.joints) {
				t.Fatalf("joints %v, want %v", joints, tc.joints)
			}
			for i := range joints {
				if joints[i] != tc.joints[i] || vals[i] != tc.values[i] {
					t.Fatalf("joint %d: %v=%v", i, joints[i], vals[i])
				}
			}
		})
	}
}

func TestDiagnose(t *testing.T) {
	cfg := DefaultConfig().Driver
	t0 := time.Unix(100, 0)
	tests := []struct {
		name     string
		st       servosila.Status
		at       time.Time
		have     bool
		now      time.Time
		level    diag.Level
		contains string
	}{
		{"never heard from the robot", servosila.Status{}, time.Time{}, false, t0, diag.Error, "no telemetry"},
		{"fresh telemetry", servosila.Status{}, t0, true, t0.Add(time.Second), diag.OK, "receiving"},
		{"e-stop latched", servosila.Status{EStopped: true}, t0, true, t0.Add(time.Second), diag.Warn, "emergency stop"},
		{"stale telemetry beats e-stop", servosila.Status{EStopped: true}, t0, true, t0.Add(10 * time.Second), diag.Error, "10.0 s old"},
		// On a robot that went away the telemetry is old too: the message
		// says the link is lost and what the driver does about it.
		{"link lost beats old telemetry", servosila.Status{LinkState: servosila.LinkState{Lost: true}}, t0, true, t0.Add(4 * time.Second), diag.Error, "link lost (telemetry 4.0 s old)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := Diagnose(cfg, tc.st, tc.at, tc.have, tc.now)
			if s.Level != tc.level || !strings.Contains(s.Message, tc.contains) {
				t.Fatalf("got %v %q, want %v with %q", s.Level, s.Message, tc.level, tc.contains)
			}
			if s.HardwareID != cfg.Robot || len(s.Values) < 8 {
				t.Fatalf("hardware id %q, %d values", s.HardwareID, len(s.Values))
			}
		})
	}
}

func TestDriverUpdate(t *testing.T) {
	u := []rosparam.Parameter{
		{Name: "use_sim_time", Value: rosparam.Bool(true)},
		{Name: "max_linear", Value: rosparam.Double(0.3)},
		{Name: "odom_frame", Value: rosparam.String("x")},
		{Name: "arm.gain", Value: rosparam.Double(2)},
	}
	got := DriverUpdate(u)
	if len(got) != 2 || got[0].Name != "max_linear" || got[1].Name != "arm.gain" {
		t.Fatalf("driver part %v", got)
	}
}

// The node's table marks live exactly the driver's live parameters.
func TestNodeTableLiveRows(t *testing.T) {
	live := map[string]bool{}
	for _, p := range DriverParameterTable() {
		live[p.Name] = !p.ReadOnly
	}
	for _, p := range ParameterTable() {
		if want, isDriver := live[p.Name]; isDriver && want == p.ReadOnly {
			t.Errorf("%s: read-only %v in the node, %v in the driver", p.Name, p.ReadOnly, !want)
		} else if !isDriver && p.Name != "use_sim_time" && !p.ReadOnly {
			t.Errorf("node parameter %s is live but nothing applies it", p.Name)
		}
	}
}
