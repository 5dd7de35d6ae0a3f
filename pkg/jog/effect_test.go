package jog_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/telebridge/telebridge/pkg/geom"
	"github.com/telebridge/telebridge/pkg/jog"
	"github.com/telebridge/telebridge/pkg/rosparam"
	"gonum.org/v1/gonum/spatial/r3"
)

// A scenario drives the rig (heartbeats included) for a fixed number of
// cycles; the simulator's truth is what is compared.
type scenario func(r *rig)

func beats(r *rig, n int) {
	for range n {
		r.beatAndCycle()
	}
}

func noBeats(r *rig, n int) {
	for range n {
		r.cycle()
	}
}

var (
	jointJog = func(dir ...float64) scenario {
		return func(r *rig) {
			_ = r.ctrl.StartJointMove(r.now(), jog.JointMoveRequest{MoveDelta: true, JointValues: dir, Speed: 1})
			beats(r, 40)
		}
	}
	// Jog, then change direction: replace decides when it applies.
	jointJogTurn = func(r *rig) {
		_ = r.ctrl.StartJointMove(r.now(), jog.JointMoveRequest{MoveDelta: true, JointValues: []float64{0, 1, 0, 0, 0, 0}, Speed: 1})
		beats(r, 5)
		_ = r.ctrl.StartJointMove(r.now(), jog.JointMoveRequest{MoveDelta: true, JointValues: []float64{0, -1, 0, 0, 0, 0}, Speed: 1})
		beats(r, 30)
	}
	// Jog fast, then the heartbeats lapse.
	jointJogLapse = func(r *rig) {
		_ = r.ctrl.StartJointMove(r.now(), jog.JointMoveRequest{MoveDelta: true, JointValues: []float64{0, 0, 0, 1, 0, 0}, Speed: 1})
		beats(r, 30)
		noBeats(r, 40)
	}
	slowJog = func(r *rig) {
		_ = r.ctrl.StartJointMove(r.now(), jog.JointMoveRequest{MoveDelta: true, JointValues: []float64{0, 0, 0, 1, 0, 0}, Speed: 0.5})
		beats(r, 40)
	}
	goal1 = []float64{0.5, -1.2, 1.3, -1.6, -1.3, 0.6}
	goal2 = []float64{0.8, -1.0, 1.0, -1.4, -1.1, 0.9}
	// Two absolute joint goals, the second while the first runs.
	jointGoals = func(r *rig) {
		_ = r.ctrl.StartJointMove(r.now(), jog.JointMoveRequest{JointValues: goal1, Speed: 1})
		beats(r, 10)
		_ = r.ctrl.StartJointMove(r.now(), jog.JointMoveRequest{JointValues: goal2, Speed: 1})
		beats(r, 150)
	}
	cartJog = func(pose jog.EulerPose, speed float64) scenario {
		return func(r *rig) {
			_ = r.ctrl.StartCartesianMove(r.now(), jog.CartesianMoveRequest{Pose: pose, MoveDelta: true, Speed: speed})
			beats(r, 40)
		}
	}
	cartJogTurn = func(r *rig) {
		_ = r.ctrl.StartCartesianMove(r.now(), jog.CartesianMoveRequest{Pose: jog.EulerPose{Z: 1}, MoveDelta: true, Speed: 1})
		beats(r, 10)
		_ = r.ctrl.StartCartesianMove(r.now(), jog.CartesianMoveRequest{Pose: jog.EulerPose{X: 1}, MoveDelta: true, Speed: 1})
		beats(r, 20)
	}
	// Absolute Cartesian goals relative to the tool's start.
	cartGoal = func(moves ...geom.Transform) scenario {
		return func(r *rig) {
			start, _ := r.ctrl.Chain().FK(home)
			for i, m := range moves {
				g := geom.Transform{Translation: r3.Add(start.Translation, m.Translation), Rotation: m.Rotation.Mul(start.Rotation)}
				_ = r.ctrl.StartCartesianMove(r.now(), jog.CartesianMoveRequest{PoseReference: "base_link", Pose: jog.EulerPoseOf(g), Speed: 1})
				if i < len(moves)-1 {
					beats(r, 8)
				}
			}
			beats(r, 150)
		}
	}
	up     = geom.Translation(0, 0, 0.1)
	aside  = geom.Translation(0.1, 0.05, 0.1)
	turned = geom.Rotation(geom.FromEulerZYX(0.5, 0, 0))
)

func runScenario(t *testing.T, p *jog.Params, sc scenario) [][]float64 {
	t.Helper()
	r := newRig(t, jog.Config{Params: p}, home)
	sc(r)
	return r.truth
}

func sameTruth(a, b [][]float64) bool {
	if len(a) != len(b) {
		return false
	}
	for k := range a {
		if maxAbsDiff(a[k], b[k]) > 1e-12 {
			return false
		}
	}
	return true
}

// TestEveryParameterHasAnEffect: every jog parameter either changes what
// the arm does (the simulator's truth, in a scenario where it matters) or
// accepts a single value and refuses any other with a clear message.
// The node-level parameters (robot_data.*, joint_limits.*) are covered by
// the node and limit tests named in docs/parameters.md;
// cartesian_delta_command_type's relative types change the commands the
// arm gets, not its path, and are tested in relative_test.go.
func TestEveryParameterHasAnEffect(t *testing.T) {
	ptp := func(p *jog.Params) { p.JointsDelta.CommandType = "PTP" }
	ptpcpGoals := func(p *jog.Params) { p.JointsGoal.CommandType, p.JointsGoal.Blending = "PTPCP", 0.1 }
	lin := func(p *jog.Params) {
		p.CartesianGoalCommandTypeTranslational, p.CartesianGoalCommandTypeRotational = "LIN", "LIN"
	}
	cartBlend := func(p *jog.Params) {
		p.CartesianGoalCommandTypeTranslational, p.CartesianGoal.Blending = "PTPCP", 0.05
	}
	minRot := func(p *jog.Params) { p.MinTranslationStep = 1 }
	// Both minima must be met for a target to be skipped.
	minTrans := func(p *jog.Params) { p.MinRotationStep = 0.1 }
	queueCart := func(p *jog.Params) { p.CartesianDelta.Replace = false }
	stopCart := func(p *jog.Params) { p.CartesianDelta.Blending, p.CartesianDeltaBlendingRot = 0, 0 }
	rot := cartJog(jog.EulerPose{RZ: 1}, 1)
	for _, tc := range []struct {
		name  string
		value rosparam.ParameterValue
		base  func(*jog.Params) // the setting the parameter matters in
		sc    scenario
	}{
		{"update_rate", rosparam.Double(50), nil, jointJog(0, 1, -1, 0, 0, 0)},
		{"heartbeat_timeout", rosparam.Double(0.5), nil, jointJogLapse},
		{"step_translation", rosparam.Double(0.002), nil, cartJog(jog.EulerPose{Z: 1}, 1)},
		{"step_rotation", rosparam.Double(0.02), nil, rot},
		{"step_joints", rosparam.Double(0.05), ptp, jointJog(0, 1, 0, 0, 0, 0)},
		{"step_scale_joints", rosparam.Bool(true), ptp, slowJog},
		{"step_scale_cartesian", rosparam.Bool(true), nil, cartJog(jog.EulerPose{Z: 1}, 0.5)},
		{"step_translation_factor", rosparam.Double(0.3), nil, cartJog(jog.EulerPose{Z: 1}, 1)},
		{"step_rotation_factor", rosparam.Double(0.3), nil, rot},
		{"min_translation_step", rosparam.Double(0.008), minTrans, cartJog(jog.EulerPose{Z: 1}, 1)},
		{"min_rotation_step", rosparam.Double(0.15), minRot, rot},
		{"joints_delta_replace", rosparam.Bool(false), nil, jointJogTurn},
		{"joints_delta_command_type", rosparam.String("PTP"), nil, jointJog(0, 1, 0, 0, 0, 0)},
		{"joints_delta_velocity", rosparam.Double(10), nil, jointJog(0, 1, 0, 0, 0, 0)},
		{"joints_delta_acceleration", rosparam.Double(20), nil, jointJog(0, 1, 0, 0, 0, 0)},
		{"joints_delta_blending", rosparam.Double(0), nil, jointJog(0, 1, 0, 0, 0, 0)},
		{"joints_goal_replace", rosparam.Bool(true), nil, jointGoals},
		{"joints_goal_command_type", rosparam.String("PTPCP"), func(p *jog.Params) { p.JointsGoal.Blending = 0.1 }, jointGoals},
		{"joints_goal_velocity", rosparam.Double(10), nil, jointGoals},
		{"joints_goal_acceleration", rosparam.Double(20), nil, jointGoals},
		{"joints_goal_blending", rosparam.Double(0.02), ptpcpGoals, jointGoals},
		{"cartesian_delta_replace", rosparam.Bool(false), stopCart, cartJogTurn},
		{"cartesian_delta_velocity", rosparam.Double(10), nil, cartJog(jog.EulerPose{Z: 1}, 1)},
		{"cartesian_delta_acceleration", rosparam.Double(5), nil, cartJog(jog.EulerPose{Z: 1}, 1)},
		{"cartesian_delta_blending", rosparam.Double(0), queueCart, cartJog(jog.EulerPose{Z: 1}, 1)},
		{"cartesian_delta_blending_rot", rosparam.Double(0), queueCart, rot},
		{"cartesian_delta_acceleration_rot", rosparam.Double(5), nil, rot},
		{"cartesian_goal_replace", rosparam.Bool(true), nil, cartGoal(up, aside)},
		{"cartesian_goal_command_type_rotational_movement", rosparam.String("LIN"), nil, cartGoal(turned)},
		{"cartesian_goal_command_type_translational_movement", rosparam.String("LIN"), nil, cartGoal(aside)},
		{"cartesian_goal_velocity", rosparam.Double(10), nil, cartGoal(aside)},
		{"cartesian_goal_acceleration", rosparam.Double(20), nil, cartGoal(aside)},
		{"cartesian_blending", rosparam.Double(0.01), cartBlend, cartGoal(up, aside)},
		{"cartesian_goal_velocity_lin", rosparam.Double(0.05), lin, cartGoal(aside)},
		{"cartesian_goal_acceleration_lin", rosparam.Double(10), lin, cartGoal(aside)},
		{"default_joint_acceleration", rosparam.Double(0.5), nil, jointJog(0, 1, 0, 0, 0, 0)},
		{"joint_acceleration_limits", rosparam.DoubleArray([]float64{2, 0.5, 2, 2, 2, 2}), nil, jointJog(0, 1, 0, 0, 0, 0)},
		{"max_stop_time", rosparam.Double(2), func(p *jog.Params) { p.JointsDelta.Velocity = 100 }, jointJogLapse},
	} {
		t.Run(tc.name, func(t *testing.T) {
			base := testParams()
			if tc.base != nil {
				tc.base(base)
			}
			changed := *base
			if err := changed.Set(tc.name, tc.value); err != nil {
				t.Fatal(err)
			}
			a := runScenario(t, base, tc.sc)
			b := runScenario(t, &changed, tc.sc)
			if sameTruth(a, b) {
				t.Fatalf("%s = %v changed nothing", tc.name, tc.value)
			}
			if maxAbsDiff(a[len(a)-1], home) == 0 {
				t.Fatal("the scenario did not move the arm")
			}
		})
	}
	// Parameters with a single meaningful value refuse the others.
	for _, tc := range []struct{ name, value, want string }{
		{"joints_delta_velocity_type", "RAD/S", "one of PERCENT"},
		{"joints_delta_acceleration_type", "RAD/S2", "one of PERCENT"},
		{"joints_delta_blending_type", "PERCENT", "one of M"},
		{"joints_delta_command_type", "LIN", "one of PTP, PTPCP"},
		{"joints_goal_velocity_type", "RAD/S", "one of PERCENT"},
		{"joints_goal_acceleration_type", "RAD/S2", "one of PERCENT"},
		{"joints_goal_blending_type", "PERCENT", "one of M"},
		{"joints_goal_command_type", "LIN", "one of PTP, PTPCP"},
		{"cartesian_delta_command_type", "PTPCP", "one of PTP"},
		{"cartesian_delta_velocity_type", "M/S", "one of PERCENT"},
		{"cartesian_delta_acceleration_type", "M/S2", "one of PERCENT"},
		{"cartesian_delta_blending_type", "PERCENT", "one of M"},
		{"cartesian_goal_command_type_translational_movement", "REL", "only cartesian_delta_command_type"},
		{"joints_delta_command_type", "RELT", "only cartesian_delta_command_type"},
		{"cartesian_goal_velocity_type", "M/S", "one of PERCENT"},
		{"cartesian_goal_acceleration_type", "M/S2", "one of PERCENT"},
		{"cartesian_blending_type", "PERCENT", "one of M"},
		{"cartesian_goal_command_type_rotational_movement_lin", "PTP", "one of LIN"},
		{"cartesian_goal_command_type_translational_movement_lin", "PTP", "one of LIN"},
		{"cartesian_goal_velocity_type_lin", "PERCENT", "one of M/S"},
		{"cartesian_goal_acceleration_type_lin", "M/S2", "one of PERCENT"},
	} {
		p := jog.DefaultParams()
		err := p.Set(tc.name, rosparam.String(tc.value))
		if !errors.Is(err, jog.ErrParam) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s = %q: err = %v, want ErrParam mentioning %q", tc.name, tc.value, err, tc.want)
		}
	}
}
