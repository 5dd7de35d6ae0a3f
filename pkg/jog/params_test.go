package jog_test

import (
	"errors"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/telebridge/telebridge/pkg/jog"
	"github.com/telebridge/telebridge/pkg/jog/node"
	"github.com/telebridge/telebridge/pkg/rosparam"
)

// seedDefaults lists every parameter of the drag&bot control panel page
// with its default, as printed there.
var seedDefaults = map[string]any{
	"update_rate": 20.0, "heartbeat_timeout": 0.2,
	"step_translation": 0.01, "step_rotation": 0.2, "step_joints": 0.2,
	"step_scale_joints": false, "step_scale_cartesian": false,
	"step_translation_factor": 1.0, "step_rotation_factor": 1.0,
	"min_translation_step": 0.0, "min_rotation_step": 0.0,

	"joints_delta_replace": true, "joints_delta_command_type": "PTPCP", "joints_delta_velocity_type": "PERCENT",
	"joints_delta_acceleration_type": "PERCENT", "joints_delta_blending_type": "M",
	"joints_delta_velocity": 5.0, "joints_delta_acceleration": 100.0, "joints_delta_blending": 0.01,

	"joints_goal_replace": false, "joints_goal_command_type": "PTP", "joints_goal_velocity_type": "PERCENT",
	"joints_goal_acceleration_type": "PERCENT", "joints_goal_blending_type": "M",
	"joints_goal_velocity": 5.0, "joints_goal_acceleration": 100.0, "joints_goal_blending": 0.01,

	"cartesian_delta_replace": true, "cartesian_delta_command_type": "PTP", "cartesian_delta_velocity_type": "PERCENT",
	"cartesian_delta_acceleration_type": "PERCENT", "cartesian_delta_blending_type": "M",
	"cartesian_delta_velocity": 5.0, "cartesian_delta_acceleration": 100.0, "cartesian_delta_blending": 0.01,
	"cartesian_delta_blending_rot": 0.01, "cartesian_delta_acceleration_rot": 50.0,

	"cartesian_goal_replace": false, "cartesian_goal_command_type_rotational_movement": "PTP",
	"cartesian_goal_command_type_translational_movement": "PTP", "cartesian_goal_velocity_type": "PERCENT",
	"cartesian_goal_acceleration_type": "PERCENT", "cartesian_blending_type": "M",
	"cartesian_goal_velocity": 5.0, "cartesian_goal_acceleration": 100.0, "cartesian_blending": 0.0,

	"cartesian_goal_command_type_rotational_movement_lin": "LIN", "cartesian_goal_command_type_translational_movement_lin": "LIN",
	"cartesian_goal_velocity_type_lin": "M/S", "cartesian_goal_acceleration_type_lin": "PERCENT",
	"cartesian_goal_velocity_lin": 0.1, "cartesian_goal_acceleration_lin": 100.0,

	"robot_data.fixed_frame": "manufacturer_base", "robot_data.flange_frame": "robot_state_tcp",
	"robot_data.urdf_param": "robot_description", "robot_data.world_frame": "world",

	"joint_limits.min": []float64{}, "joint_limits.max": []float64{}, "joint_limits.unit": []string{}, "joint_limits.step": []float64{},
}

// ownDefaults are telebridge's own parameters, beyond drag&bot's: the
// acceleration limits URDF lacks and the bound of a stop.
var ownDefaults = map[string]any{
	"joint_acceleration_limits": []float64{}, "default_joint_acceleration": 2.0, "max_stop_time": 0.5,
}

func TestEveryParameterWithItsDefault(t *testing.T) {
	table := jog.ParameterTable()
	if err := table.Check(); err != nil {
		t.Fatal(err)
	}
	if len(table) != len(seedDefaults)+len(ownDefaults) {
		t.Errorf("%d parameters in the table, %d in the seed and %d of telebridge's", len(table), len(seedDefaults), len(ownDefaults))
	}
	p := jog.DefaultParams()
	if err := p.Validate(); err != nil {
		t.Fatal(err)
	}
	for _, d := range table {
		want, ok := seedDefaults[d.Name]
		if !ok {
			want, ok = ownDefaults[d.Name]
		}
		if !ok {
			t.Errorf("%s: not a drag&bot parameter", d.Name)
			continue
		}
		if d.Description == "" {
			t.Errorf("%s: no description", d.Name)
		}
		got, err := p.Get(d.Name)
		if err != nil {
			t.Fatal(err)
		}
		if !got.Equal(d.Default) {
			t.Errorf("%s: DefaultParams has %v, the table %v", d.Name, got, d.Default)
		}
		var match bool
		switch w := want.(type) {
		case float64:
			match = got.Type == rosparam.ParameterDouble && got.DoubleValue == w
		case bool:
			match = got.Type == rosparam.ParameterBool && got.BoolValue == w
		case string:
			match = got.Type == rosparam.ParameterString && got.StringValue == w
		case []float64:
			match = got.Type == rosparam.ParameterDoubleArray && len(got.DoubleArrayValue) == 0
		case []string:
			match = got.Type == rosparam.ParameterStringArray && len(got.StringArrayValue) == 0
		}
		if !match {
			t.Errorf("%s: default %v, want %v", d.Name, got, want)
		}
	}
}

func TestParameterValidation(t *testing.T) {
	for _, tc := range []struct {
		name string
		v    rosparam.ParameterValue
		want string
	}{
		{"no_such_parameter", rosparam.Double(1), "unknown"},
		{"heartbeat_timeout", rosparam.Double(0), "> 0"},
		{"heartbeat_timeout", rosparam.Double(61), "not in [0, 60]"},
		{"heartbeat_timeout", rosparam.Double(math.NaN()), "not in"},
		{"heartbeat_timeout", rosparam.Bool(true), "type bool, want double"},
		{"heartbeat_timeout", rosparam.Integer(1), "type integer, want double"},
		{"update_rate", rosparam.Double(-20), "not in [0, 1000]"},
		{"step_translation_factor", rosparam.Double(1.5), "not in [0, 1]"},
		{"min_rotation_step", rosparam.Double(-0.1), ">= 0"},
		{"min_rotation_step", rosparam.Double(math.Inf(1)), "finite"},
		{"joints_delta_velocity", rosparam.Double(101), "not in [0, 100]"},
		{"joints_goal_velocity_type", rosparam.String("RAD/S"), "one of PERCENT"},
		{"robot_data.world_frame", rosparam.String(""), "empty"},
		{"joint_limits.unit", rosparam.StringArray([]string{"m", "inch"}), "inch"},
		{"joint_limits.min", rosparam.DoubleArray([]float64{0, math.Inf(-1)}), "finite"},
	} {
		p := jog.DefaultParams()
		err := p.Set(tc.name, tc.v)
		if !errors.Is(err, jog.ErrParam) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s = %v: err = %v, want ErrParam mentioning %q", tc.name, tc.v, err, tc.want)
		}
	}
}

// TestJointLimitsParameter: the seed's example limits, degrees unless the
// unit is m.
func TestJointLimitsParameter(t *testing.T) {
	p := jog.DefaultParams()
	err := p.Apply([]rosparam.Parameter{
		{Name: "joint_limits.min", Value: rosparam.DoubleArray([]float64{-42, -141, -0.15, -360})},
		{Name: "joint_limits.max", Value: rosparam.DoubleArray([]float64{222, 141, 0, 360})},
		{Name: "joint_limits.unit", Value: rosparam.StringArray([]string{"", "deg", "m", ""})},
		{Name: "joint_limits.step", Value: rosparam.DoubleArray([]float64{0, 0, 0.005, 0})},
	})
	if err != nil {
		t.Fatal(err)
	}
	lo, hi := p.JointLimits[0].Radians()
	if math.Abs(lo+42*math.Pi/180) > 1e-15 || math.Abs(hi-222*math.Pi/180) > 1e-15 {
		t.Fatalf("degrees: [%g, %g]", lo, hi)
	}
	if lo, hi := p.JointLimits[2].Radians(); lo != -0.15 || hi != 0 || p.JointLimits[2].Step != 0.005 {
		t.Fatalf("metres: [%g, %g]", lo, hi)
	}
	if v, _ := p.Get("joint_limits.unit"); strings.Join(v.StringArrayValue, ",") != ",deg,m," {
		t.Fatalf("units read back as %q", v.StringArrayValue)
	}
	// min > max is refused as a whole, leaving p unchanged.
	err = p.Apply([]rosparam.Parameter{{Name: "joint_limits.max", Value: rosparam.DoubleArray([]float64{222, -200, 0, 360})}})
	if !errors.Is(err, jog.ErrParam) {
		t.Fatalf("min > max accepted: %v", err)
	}
	if p.JointLimits[1].Max != 141 {
		t.Fatalf("a refused update changed the limits: %+v", p.JointLimits[1])
	}
}

// TestWithRosparamStore wires the table into a rosparam store as the ROS
// layer will: start-up overrides, the cross-check, live changes applied to
// the controller.
func TestWithRosparamStore(t *testing.T) {
	args, err := rosparam.ParseArgs([]string{"--ros-args", "-p", "heartbeat_timeout:=0.5", "-p", "robot_data.fixed_frame:=base_link",
		"-p", "robot_data.flange_frame:=tool0", "-p", "joint_limits.min:=[-20.0, -360.0, -180.0, -360.0, -360.0, -360.0]",
		"-p", "joint_limits.max:=[20.0, 360.0, 180.0, 360.0, 360.0, 360.0]"})
	if err != nil {
		t.Fatal(err)
	}
	var ctrl *jog.Controller
	store, err := rosparam.New(rosparam.Config{
		Node: "/" + node.Name, Table: jog.ParameterTable(), Overrides: &args.Overrides,
		Validate: node.ValidateUpdate,
		OnChange: func(u []rosparam.Parameter) {
			if ctrl != nil {
				if err := ctrl.ApplyParams(u); err != nil {
					t.Errorf("apply %v: %v", u, err)
				}
			}
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	p := jog.DefaultParams()
	var all []rosparam.Parameter
	for _, d := range jog.ParameterTable() {
		all = append(all, rosparam.Parameter{Name: d.Name, Value: store.GetParameters([]string{d.Name})[0]})
	}
	if err := p.Apply(all); err != nil {
		t.Fatal(err)
	}
	if ctrl, err = jog.New(jog.Config{Chain: ur5(t), Params: &p}); err != nil {
		t.Fatal(err)
	}
	if got := ctrl.Params(); got.HeartbeatTimeout != 0.5 || got.RobotData.FixedFrame != "base_link" {
		t.Fatalf("start-up values not taken: %+v", got)
	}
	if _, hi := ctrl.Limits(); math.Abs(hi[0]-20*math.Pi/180) > 1e-15 {
		t.Fatalf("pan limit %g", hi[0])
	}
	for _, tc := range []struct {
		p  rosparam.Parameter
		ok bool
	}{
		{rosparam.Parameter{Name: "step_joints", Value: rosparam.Double(0.1)}, true},
		{rosparam.Parameter{Name: "heartbeat_timeout", Value: rosparam.Double(0)}, false},
		{rosparam.Parameter{Name: "update_rate", Value: rosparam.Double(50)}, false},
		{rosparam.Parameter{Name: "joint_limits.max", Value: rosparam.DoubleArray([]float64{-30})}, false},
	} {
		if r := store.SetParameters([]rosparam.Parameter{tc.p}); r[0].Successful != tc.ok {
			t.Errorf("set %s = %v: %+v", tc.p.Name, tc.p.Value, r[0])
		}
	}
	if got := ctrl.Params().StepJoints; got != 0.1 {
		t.Fatalf("live step_joints %g", got)
	}
}

func TestControllerParameters(t *testing.T) {
	ctrl, err := jog.New(jog.Config{Chain: ur5(t), Params: testParams()})
	if err != nil {
		t.Fatal(err)
	}
	if err := ctrl.SetParam("update_rate", rosparam.Double(50)); !errors.Is(err, jog.ErrParam) {
		t.Fatalf("read-only update_rate changed: %v", err)
	}
	if err := ctrl.SetHeartbeatTimeout(-1); !errors.Is(err, jog.ErrParam) {
		t.Fatalf("negative timeout: %v", err)
	}
	if err := ctrl.SetParam("step_joints", rosparam.Double(0.1)); err != nil {
		t.Fatal(err)
	}
	if got := ctrl.Params().StepJoints; got != 0.1 {
		t.Fatalf("step_joints %g", got)
	}
	if ctrl.Period().Milliseconds() != 50 {
		t.Fatalf("period %v at 20 Hz", ctrl.Period())
	}
	// joint_limits must match the chain: count and units.
	p := testParams()
	p.JointLimits = []jog.JointLimit{{Min: -10, Max: 10}}
	if _, err := jog.New(jog.Config{Chain: ur5(t), Params: p}); !errors.Is(err, jog.ErrParam) {
		t.Fatalf("1 limit for 6 joints: %v", err)
	}
	p.JointLimits = make([]jog.JointLimit, 6)
	for i := range p.JointLimits {
		p.JointLimits[i] = jog.JointLimit{Min: -1, Max: 1, Unit: "m"}
	}
	if _, err := jog.New(jog.Config{Chain: ur5(t), Params: p}); !errors.Is(err, jog.ErrParam) {
		t.Fatalf("metres on revolute joints: %v", err)
	}
	if _, err := jog.New(jog.Config{Params: p}); !errors.Is(err, jog.ErrParam) {
		t.Fatalf("no chain: %v", err)
	}
}

// TestDocsListEveryParameter keeps docs/jog/parameters.md in step with the table.
func TestDocsListEveryParameter(t *testing.T) {
	doc, err := os.ReadFile("../../docs/jog/parameters.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range jog.ParameterTable() {
		row := "| `" + p.Name + "` | " + rosparam.TypeName(p.Type) + " | " + p.Default.String() + " |"
		if !strings.Contains(string(doc), row) {
			t.Errorf("docs/jog/parameters.md has no row starting %q", row)
		}
	}
}
