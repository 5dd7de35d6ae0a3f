package node_test

import (
	"math"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/telebridge/telebridge/pkg/armsim/node"
	"github.com/telebridge/telebridge/pkg/jog"
	jognode "github.com/telebridge/telebridge/pkg/jog/node"
	"github.com/telebridge/telebridge/pkg/rosparam"
)

func nodeStore(t *testing.T, yaml string) *rosparam.Store {
	t.Helper()
	var ov rosparam.Overrides
	if yaml != "" {
		if err := ov.AddYAML([]byte("arm_sim:\n  ros__parameters:\n" + yaml)); err != nil {
			t.Fatal(err)
		}
	}
	s, err := rosparam.New(rosparam.Config{Node: "/arm_sim", Table: node.ParameterTable(), Overrides: &ov})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestNodeConfig(t *testing.T) {
	if err := node.ParameterTable().Check(); err != nil {
		t.Fatal(err)
	}
	urdf, err := os.ReadFile("../../../launch/urdf/ur5_like.urdf")
	if err != nil {
		t.Fatal(err)
	}
	quoted := `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`).Replace(string(urdf)) + `"`
	cfg, err := node.LoadConfig(nodeStore(t, "    robot_description: "+quoted+"\n    rate: 100.0\n"))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Rate != 100 || cfg.TrajectoryTopic != jognode.TrajectoryTopic || cfg.DefaultVelocity != 0.5 {
		t.Fatalf("config %+v", cfg)
	}
	arm, err := node.NewArm(cfg)
	if err != nil {
		t.Fatal(err)
	}
	// ur5_like: six joints with limits symmetric about 0; the start is
	// the middle of the limits.
	if q := arm.Positions(); len(q) != 6 || q[0] != 0 || q[2] != 0 || q[5] != 0 {
		t.Fatalf("start %v, want six zeros", q)
	}
	if names := arm.Names(); len(names) != 6 || names[0] != "shoulder_pan_joint" {
		t.Fatalf("names %v", names)
	}
	cfg.Initial = []float64{0.1, -1, 1, 0, 0, 0}
	if arm, err = node.NewArm(cfg); err != nil || arm.Positions()[1] != -1 {
		t.Fatalf("initial positions not taken: %v %v", arm.Positions(), err)
	}
	cfg.Initial = []float64{0.1}
	if _, err := node.NewArm(cfg); err == nil {
		t.Fatal("one initial position for six joints accepted")
	}
	if _, err := node.LoadConfig(nodeStore(t, "")); err == nil || !strings.Contains(err.Error(), "robot_description") {
		t.Fatalf("no URDF: %v", err)
	}
	if r := nodeStore(t, "").SetParameters([]rosparam.Parameter{{Name: "rate", Value: rosparam.Double(10)}}); r[0].Successful {
		t.Fatal("read-only rate was set")
	}
}

// TestNodeArmOnTheWallClock: the node's arm keeps its clock on the wall
// clock, so that the stamps of jog_server's targets count (a clock of its
// own made arm_sim ignore every stamp as off its clock).
func TestNodeArmOnTheWallClock(t *testing.T) {
	urdf, err := os.ReadFile("../../../launch/urdf/ur5_like.urdf")
	if err != nil {
		t.Fatal(err)
	}
	before := time.Now()
	arm, err := node.NewArm(node.Config{RobotDescription: string(urdf), Base: "world", Tip: "tool0", DefaultVelocity: 0.5})
	if err != nil {
		t.Fatal(err)
	}
	if now := arm.Now(); now.Before(before) || now.After(time.Now()) {
		t.Fatalf("arm's clock starts at %v, not between %v and now", now, before)
	}
	q := arm.Positions()
	next := append([]float64(nil), q...)
	next[0] += 0.01
	stamp := time.Now()
	zero := make([]float64, len(q))
	if err := arm.WriteJointTarget(jog.JointTarget{JointNames: arm.Names(), Positions: q, Velocities: zero, Stamp: stamp, TimeFromStart: 50 * time.Millisecond,
		Next: next, NextVelocities: zero, NextTimeFromStart: 100 * time.Millisecond}); err != nil {
		t.Fatal(err)
	}
	if late, off := arm.Timing(); late != 0 || off != 0 {
		t.Fatalf("a target stamped now: %d late, %d off the arm's clock; want 0, 0", late, off)
	}
	// AdvanceTo follows the given clock and never goes back.
	arm.AdvanceTo(stamp.Add(100 * time.Millisecond))
	if got := arm.Now(); !got.Equal(stamp.Add(100 * time.Millisecond)) {
		t.Fatalf("arm's clock %v after AdvanceTo(stamp + 100 ms = %v)", got, stamp.Add(100*time.Millisecond))
	}
	if p := arm.Positions()[0]; math.Abs(p-next[0]) > 1e-9 {
		t.Fatalf("joint 0 at %v at the next point's time, want %v", p, next[0])
	}
	arm.AdvanceTo(stamp)
	if got := arm.Now(); !got.Equal(stamp.Add(100 * time.Millisecond)) {
		t.Fatalf("AdvanceTo an earlier time moved the clock to %v", got)
	}
}
