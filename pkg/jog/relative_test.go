package jog_test

import (
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/telebridge/telebridge/pkg/armsim"
	"github.com/telebridge/telebridge/pkg/geom"
	"github.com/telebridge/telebridge/pkg/jog"
	"github.com/telebridge/telebridge/pkg/jog/control"
	"github.com/telebridge/telebridge/pkg/jog/node"
	"github.com/telebridge/telebridge/pkg/rosparam"
	"github.com/telebridge/telebridge/pkg/tf"
	"gonum.org/v1/gonum/spatial/r3"
)

// TestRelativeDelta: the increment of each relative type, worked by hand,
// and Apply taking it back to the target.
func TestRelativeDelta(t *testing.T) {
	// The tool is turned 90° about the base's z: its x is the base's y.
	tool := geom.FromXYZEuler(0.5, 0, 0.3, math.Pi/2, 0, 0)
	// The world is turned 90° about the base's z too.
	world := geom.FromXYZEuler(2, 1, 0, math.Pi/2, 0, 0)
	shift := geom.FromXYZEuler(0.5+0.01, 0, 0.3, math.Pi/2, 0, 0)                             // 1 cm along the base's x
	turn := geom.FromXYZEuler(0.5, 0, 0.3, math.Pi/2, 0, 0.1)                                 // 0.1 rad about the tool's x
	turnBase := geom.Rotation(geom.FromEulerZYX(0.1, 0, 0)).Mul(geom.Rotation(tool.Rotation)) // 0.1 rad about the base's z
	turnBase.Translation = tool.Translation
	for _, tc := range []struct {
		name, typ string
		target    geom.Transform
		want      geom.Transform
	}{
		{"REL shift", control.CommandREL, shift, geom.Translation(0.01, 0, 0)},
		// Base x is the world's -y, and the tool's -y.
		{"RELW shift", control.CommandRELW, shift, geom.Translation(0, -0.01, 0)},
		{"RELT shift", control.CommandRELT, shift, geom.Translation(0, -0.01, 0)},
		// About the tool's x, which is the base's y and the world's x.
		{"REL turn", control.CommandREL, turn, geom.Rotation(geom.FromEulerZYX(0, 0.1, 0))},
		{"RELW turn", control.CommandRELW, turn, geom.Rotation(geom.FromEulerZYX(0, 0, 0.1))},
		{"RELT turn", control.CommandRELT, turn, geom.Rotation(geom.FromEulerZYX(0, 0, 0.1))},
		// About the base's z, which is the world's z, and the tool's z.
		{"REL turn base", control.CommandREL, turnBase, geom.Rotation(geom.FromEulerZYX(0.1, 0, 0))},
		{"RELW turn base", control.CommandRELW, turnBase, geom.Rotation(geom.FromEulerZYX(0.1, 0, 0))},
		{"RELT turn base", control.CommandRELT, turnBase, geom.Rotation(geom.FromEulerZYX(0.1, 0, 0))},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, err := control.RelativeDelta(tc.typ, tool, tc.target, world)
			if err != nil {
				t.Fatal(err)
			}
			if dt, dr := geom.Distance(d, tc.want); dt > 1e-12 || dr > 1e-12 {
				t.Fatalf("delta %v, want %v", d, tc.want)
			}
			back, err := control.RelativeCommand{Type: tc.typ, Delta: d}.Apply(tool, world)
			if err != nil {
				t.Fatal(err)
			}
			if dt, dr := geom.Distance(back, tc.target); dt > 1e-12 || dr > 1e-12 {
				t.Fatalf("applied: %v, want %v", back, tc.target)
			}
		})
	}
	if _, err := control.RelativeDelta("PTP", tool, shift, world); !errors.Is(err, jog.ErrParam) {
		t.Fatalf("PTP as a relative type: %v", err)
	}
}

// relParams are the test parameters with a relative command type.
func relParams(typ string) *jog.Params {
	p := testParams()
	p.CartesianDelta.CommandType = typ
	p.CartesianDelta.Velocity = 20
	return p
}

// TestRelativeJogMovesLikePTP: an incremental Cartesian jog along the base
// z with each relative type goes to the simulated arm as relative
// commands only, and the arm's truth moves the tool as the same jog with
// PTP does (the same points, sent as increments); a heartbeat loss stops
// it within the stop time.
func TestRelativeJogMovesLikePTP(t *testing.T) {
	// A world frame turned about the base's z, so that RELW's increments
	// differ from REL's.
	world := geom.FromXYZEuler(1, -2, 0, 0.7, 0, 0)
	frames, _ := tf.New(tf.Config{})
	_ = frames.SetStatic("base_link", "world", world)
	const cycles = 30
	run := func(t *testing.T, typ string) (moved geom.Transform, r *rig) {
		r = newRigArm(t, jog.Config{Params: relParams(typ), Frames: frames, Relative: true}, home,
			func(c *armsim.Config) { c.World = world })
		start, _ := r.ctrl.Chain().FK(r.arm.Positions())
		req := jog.CartesianMoveRequest{PoseReference: "base_link", MoveDelta: true, Pose: jog.EulerPose{Z: 1}, Speed: 1}
		if err := r.ctrl.StartCartesianMove(r.now(), req); err != nil {
			t.Fatal(err)
		}
		for i := range cycles {
			if _, _, err := r.beatAndCycle(); err != nil {
				t.Fatalf("cycle %d: %v", i, err)
			}
		}
		end, _ := r.ctrl.Chain().FK(r.arm.Positions())
		moved = geom.Transform{Translation: r3.Sub(end.Translation, start.Translation), Rotation: end.Rotation.Mul(start.Rotation.Conj())}
		return moved, r
	}
	ref, rr := run(t, jog.CommandPTP)
	if n := rr.arm.Relative(); n != 0 {
		t.Fatalf("PTP: the arm took %d relative commands", n)
	}
	if ref.Translation.Z < 0.02 {
		t.Fatalf("PTP moved the tool only %v", ref.Translation)
	}
	for _, typ := range []string{control.CommandREL, control.CommandRELW, control.CommandRELT} {
		t.Run(typ, func(t *testing.T) {
			got, r := run(t, typ)
			for i, tg := range r.targets {
				if tg.Relative.Type != typ {
					t.Fatalf("target %d: relative type %q", i, tg.Relative.Type)
				}
			}
			if n, sent := r.arm.Relative(), len(r.targets); n != uint64(sent) || sent == 0 {
				t.Fatalf("the arm took %d relative commands of %d targets", n, sent)
			}
			if v, _ := r.arm.Violations(); v != 0 {
				t.Fatalf("%d targets outside the joint limits", v)
			}
			// Same points, sent as increments from the measured tool: the
			// truth matches PTP's to the IK tolerance.
			if d, a := geom.Distance(got, ref); d > 1e-4 || a > 1e-3 {
				t.Fatalf("moved %v, PTP moved %v (%.3g m, %.3g rad apart)", got.Translation, ref.Translation, d, a)
			}
			// Heartbeat loss: the stop arrives as a relative command too
			// and the arm is at rest within max_stop_time.
			stopAt := r.now()
			for range 40 {
				r.cycle()
			}
			at := r.truth[len(r.truth)-1]
			before := r.truth[len(r.truth)-2]
			if d := maxAbsDiff(at, before); d > 1e-9 {
				t.Fatalf("still moving %g rad per cycle %v after the last heartbeat", d, r.now().Sub(stopAt))
			}
		})
	}
}

// TestRelativeRefused: a relative command type is refused where the
// output cannot carry it, and for the moves that have none.
func TestRelativeRefused(t *testing.T) {
	chain := ur5(t)
	if _, err := jog.New(jog.Config{Chain: chain, Params: relParams(control.CommandREL)}); !errors.Is(err, jog.ErrRelativeOutput) || !errors.Is(err, jog.ErrParam) {
		t.Fatalf("REL for a joint-trajectory arm: %v", err)
	}
	ctrl, err := jog.New(jog.Config{Chain: chain, Params: testParams()})
	if err != nil {
		t.Fatal(err)
	}
	if err := ctrl.SetParam("cartesian_delta_command_type", rosparam.String("RELT")); !errors.Is(err, jog.ErrRelativeOutput) {
		t.Fatalf("live RELT for a joint-trajectory arm: %v", err)
	}
	if got := ctrl.Params().CartesianDelta.CommandType; got != jog.CommandPTP {
		t.Fatalf("command type after a refused set: %q", got)
	}
	rel, err := jog.New(jog.Config{Chain: chain, Params: testParams(), Relative: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := rel.SetParam("cartesian_delta_command_type", rosparam.String("RELW")); err != nil {
		t.Fatalf("live RELW for a relative arm: %v", err)
	}
	if _, err := jog.NewRunner(rel, jointsOnly{}, jointsOnly{}); !errors.Is(err, jog.ErrRelativeOutput) {
		t.Fatalf("runner of a relative controller on a joint-only output: %v", err)
	}
	for _, name := range []string{"joints_goal_command_type", "joints_delta_command_type", "cartesian_goal_command_type_translational_movement"} {
		err := rel.SetParam(name, rosparam.String("REL"))
		if err == nil || !strings.Contains(err.Error(), "only cartesian_delta_command_type") {
			t.Fatalf("%s REL: %v", name, err)
		}
	}
}

// jointsOnly is an arm interface that takes joint targets only.
type jointsOnly struct{}

func (jointsOnly) WriteJointTarget(jog.JointTarget) error { return nil }

func (jointsOnly) JointPositions(dst []float64) (time.Time, error) { return time.Time{}, nil }

// TestValidateUpdateRefusesRelative: the jog_server node's check refuses a
// relative command type (its output is a JointTrajectory), live and at
// start-up alike.
func TestValidateUpdateRefusesRelative(t *testing.T) {
	current := func(string) rosparam.ParameterValue { return rosparam.ParameterValue{} }
	err := node.ValidateUpdate([]rosparam.Parameter{{Name: "cartesian_delta_command_type", Value: rosparam.String("REL")}}, current)
	if !errors.Is(err, jog.ErrRelativeOutput) || !strings.Contains(err.Error(), "relative Cartesian commands") {
		t.Fatalf("REL: %v", err)
	}
	if err := node.ValidateUpdate([]rosparam.Parameter{{Name: "cartesian_delta_command_type", Value: rosparam.String("PTP")}}, current); err != nil {
		t.Fatalf("PTP: %v", err)
	}
}
