package node_test

import (
	"errors"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/telebridge/telebridge/pkg/jog"
	"github.com/telebridge/telebridge/pkg/jog/node"
	"github.com/telebridge/telebridge/pkg/qos"
	"github.com/telebridge/telebridge/pkg/rosparam"
	"github.com/telebridge/telebridge/pkg/tf"
)

func ur5URDF(t testing.TB) string {
	t.Helper()
	b, err := os.ReadFile("../../../launch/urdf/ur5_like.urdf")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// nodeStore declares the node's table with the overrides of a parameter
// file, as rosnode.Run does, and hands live changes to *ctrl.
func nodeStore(t *testing.T, params map[string]string, ctrl **jog.Controller) *rosparam.Store {
	t.Helper()
	var yaml strings.Builder
	yaml.WriteString("jog_server:\n  ros__parameters:\n")
	for k, v := range params {
		yaml.WriteString("    " + k + ": " + v + "\n")
	}
	var ov rosparam.Overrides
	if len(params) > 0 {
		if err := ov.AddYAML([]byte(yaml.String())); err != nil {
			t.Fatal(err)
		}
	}
	s, err := rosparam.New(rosparam.Config{
		Node: "/jog_server", Table: node.ParameterTable(), Overrides: &ov,
		Validate: node.ValidateUpdate,
		OnChange: func(u []rosparam.Parameter) {
			if *ctrl != nil {
				if err := (*ctrl).ApplyParams(u); err != nil {
					t.Errorf("ApplyParams after the store accepted %v: %v", u, err)
				}
			}
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func quoted(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`).Replace(s) + `"`
}

func TestNodeParameterTable(t *testing.T) {
	table := node.ParameterTable()
	if err := table.Check(); err != nil {
		t.Fatal(err)
	}
	if len(table) != len(jog.ParameterTable())+4 {
		t.Fatalf("%d parameters, want the %d of ParameterTable and 4 of the node", len(table), len(jog.ParameterTable()))
	}
	byName := map[string]rosparam.Param{}
	for _, p := range table {
		byName[p.Name] = p
	}
	for name, want := range map[string]struct {
		def      rosparam.ParameterValue
		readOnly bool
	}{
		node.ParamRobotDescription:   {rosparam.String(""), true},
		node.ParamTrajectoryTopic:    {rosparam.String(node.TrajectoryTopic), true},
		node.ParamStampTrajectories:  {rosparam.Bool(false), true},
		node.ParamInterfaceNamespace: {rosparam.String(""), true},
		"heartbeat_timeout":          {rosparam.Double(0.2), false},
		"step_joints":                {rosparam.Double(0.2), false},
		"update_rate":                {rosparam.Double(20), true},
		"robot_data.fixed_frame":     {rosparam.String("manufacturer_base"), true},
	} {
		p, ok := byName[name]
		if !ok || !p.Default.Equal(want.def) || p.ReadOnly != want.readOnly {
			t.Errorf("%s: %+v, want default %v read-only %v", name, p, want.def, want.readOnly)
		}
	}
}

func TestLoadNodeConfig(t *testing.T) {
	var ctrl *jog.Controller
	s := nodeStore(t, map[string]string{
		"robot_description":       quoted(ur5URDF(t)),
		"robot_data.fixed_frame":  "base_link",
		"robot_data.flange_frame": "tool0",
		"step_joints":             "0.1",
		"trajectory_topic":        "/arm_controller/joint_trajectory",
		"stamp_trajectories":      "true",
	}, &ctrl)
	cfg, err := node.LoadConfig(s)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Params.StepJoints != 0.1 || cfg.TrajectoryTopic != "/arm_controller/joint_trajectory" || cfg.Params.HeartbeatTimeout != 0.2 || !cfg.StampTrajectories {
		t.Fatalf("config %+v", cfg)
	}
	buf, _ := tf.New(tf.Config{})
	if ctrl, err = node.NewController(cfg, buf); err != nil {
		t.Fatal(err)
	}
	if ch := ctrl.Chain(); ch.DOF() != 6 || ch.Base != "base_link" || ch.TipName != "tool0" {
		t.Fatalf("chain %s -> %s, %d joints", ch.Base, ch.TipName, ch.DOF())
	}

	// Live changes go through the store to the controller; read-only ones
	// and bad values are refused by the store and change nothing.
	for _, tc := range []struct {
		name string
		set  []rosparam.Parameter
		ok   bool
	}{
		{"set_heartbeat_timeout 0.5", node.HeartbeatTimeoutUpdate(0.5), true},
		{"set_heartbeat_timeout 0", node.HeartbeatTimeoutUpdate(0), false},
		{"set_heartbeat_timeout NaN", node.HeartbeatTimeoutUpdate(math.NaN()), false},
		{"step_joints live", []rosparam.Parameter{{Name: "step_joints", Value: rosparam.Double(0.3)}}, true},
		{"update_rate read-only", []rosparam.Parameter{{Name: "update_rate", Value: rosparam.Double(50)}}, false},
		{"robot_description read-only", []rosparam.Parameter{{Name: "robot_description", Value: rosparam.String("<robot/>")}}, false},
		{"stamp_trajectories read-only", []rosparam.Parameter{{Name: "stamp_trajectories", Value: rosparam.Bool(false)}}, false},
	} {
		r := s.SetParametersAtomically(tc.set)
		if r.Successful != tc.ok {
			t.Errorf("%s: %+v, want successful %v", tc.name, r, tc.ok)
		}
	}
	p := ctrl.Params()
	if p.HeartbeatTimeout != 0.5 || p.StepJoints != 0.3 || p.UpdateRate != 20 {
		t.Fatalf("controller params after the sets: heartbeat_timeout %g step_joints %g update_rate %g", p.HeartbeatTimeout, p.StepJoints, p.UpdateRate)
	}
	if v, _ := s.Get("heartbeat_timeout"); v.DoubleValue != 0.5 {
		t.Fatalf("store says heartbeat_timeout %v", v)
	}
}

func TestLoadNodeConfigRefuses(t *testing.T) {
	urdf := quoted(ur5URDF(t))
	for _, tc := range []struct {
		name   string
		params map[string]string
		want   error // from LoadNodeConfig; nil: from NewNodeController
	}{
		{"no URDF", map[string]string{}, node.ErrNoRobotDescription},
		{"urdf_param elsewhere", map[string]string{"robot_description": urdf, "robot_data.urdf_param": "arm_description"}, jog.ErrParam},
		{"use_sim_time", map[string]string{"robot_description": urdf, "use_sim_time": "true"}, jog.ErrParam},
		{"default frames not in the URDF", map[string]string{"robot_description": urdf}, nil},
		{"not a URDF", map[string]string{"robot_description": "hello", "robot_data.fixed_frame": "base_link", "robot_data.flange_frame": "tool0"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var ctrl *jog.Controller
			cfg, err := node.LoadConfig(nodeStore(t, tc.params, &ctrl))
			if tc.want != nil {
				if !errors.Is(err, tc.want) {
					t.Fatalf("err %v, want %v", err, tc.want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if _, err := node.NewController(cfg, nil); err == nil || !strings.Contains(err.Error(), "robot_description") {
				t.Fatalf("err %v, want a robot_description error", err)
			}
		})
	}
}

// TestNodeQoSMatches: the node's subscriptions match the publishers they
// meet: arm_sim's and robot drivers' reliable joint_states, `ros2 topic
// pub` (reliable) heartbeats, tf2 broadcasters; and a reliable trajectory
// controller subscription matches the targets.
func TestNodeQoSMatches(t *testing.T) {
	for _, tc := range []struct {
		name     string
		pub, sub qos.Profile
	}{
		{"joint_states from a reliable publisher", qos.Default, node.QoSJointStates},
		{"joint_states from a sensor-data publisher", qos.SensorData, node.QoSJointStates},
		{"heartbeat from ros2 topic pub", qos.Default, node.QoSHeartbeat},
		{"targets to a trajectory controller", node.QoSTrajectory, qos.Default},
		{"/tf from a broadcaster", qos.Default, node.QoSTF},
		{"/tf_static from a static broadcaster", qos.StaticTF, node.QoSTFStatic},
	} {
		if !qos.Compatible(tc.pub, tc.sub) {
			t.Errorf("%s: publisher %+v and subscription %+v do not match", tc.name, tc.pub, tc.sub)
		}
	}
}
