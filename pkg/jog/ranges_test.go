package jog_test

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/telebridge/telebridge/pkg/jog"
	"github.com/telebridge/telebridge/pkg/jog/node"
)

func TestJointRangesFromFile(t *testing.T) {
	p, err := node.ParamsFromFile("testdata/joint_steps.yaml", "/jog_server")
	if err != nil {
		t.Fatal(err)
	}
	if p.StepJoints != 0.1 || len(p.JointLimits) != 6 {
		t.Fatalf("step_joints %g, %d joint_limits", p.StepJoints, len(p.JointLimits))
	}
	chain := ur5(t)
	joints, steps, err := jog.JointRanges(chain, p)
	if err != nil {
		t.Fatal(err)
	}
	deg := math.Pi / 180
	wantSteps := []float64{5 * deg, 1 * deg, 0, 10 * deg, 10 * deg, 15 * deg}
	wantLo := []float64{-90 * deg, -math.Pi, -math.Pi, -2 * math.Pi, -2 * math.Pi, -2 * math.Pi} // elbow: the URDF's ±π is narrower than ±200°
	wantHi := []float64{90 * deg, 0, math.Pi, 2 * math.Pi, 2 * math.Pi, 2 * math.Pi}
	for i, j := range joints {
		if math.Abs(steps[i]-wantSteps[i]) > 1e-15 || math.Abs(j.Lower-wantLo[i]) > 1e-12 || math.Abs(j.Upper-wantHi[i]) > 1e-12 {
			t.Errorf("%s: [%g, %g] step %g, want [%g, %g] step %g", j.Name, j.Lower, j.Upper, steps[i], wantLo[i], wantHi[i], wantSteps[i])
		}
	}
	// The controller moves within the same ranges and reports the steps.
	ctrl, err := jog.New(jog.Config{Chain: chain, Params: &p})
	if err != nil {
		t.Fatal(err)
	}
	lo, hi := ctrl.Limits()
	for i, s := range ctrl.Steps() {
		if s != steps[i] || lo[i] != joints[i].Lower || hi[i] != joints[i].Upper {
			t.Errorf("controller joint %d: [%g, %g] step %g; JointRanges [%g, %g] step %g", i, lo[i], hi[i], s, joints[i].Lower, joints[i].Upper, steps[i])
		}
	}
	// A node the file does not name starts from the defaults: no limits, no steps.
	other, err := node.ParamsFromFile("testdata/joint_steps.yaml", "/other_node")
	if err != nil || len(other.JointLimits) != 0 || other.StepJoints != jog.DefaultParams().StepJoints {
		t.Fatalf("another node's parameters: %+v (%v)", other.JointLimits, err)
	}
	if _, steps, _ := jog.JointRanges(chain, other); steps[0] != 0 {
		t.Fatalf("steps without joint_limits: %v", steps)
	}
	// An empty sequence is typed by the declaration, as jog_server types it.
	empty := filepath.Join(t.TempDir(), "empty.yaml")
	if err := os.WriteFile(empty, []byte("/jog_server:\n  ros__parameters:\n    joint_limits:\n      step: []\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if p, err := node.ParamsFromFile(empty, "/jog_server"); err != nil || len(p.JointLimits) != 0 {
		t.Fatalf("joint_limits.step: []: %+v (%v)", p.JointLimits, err)
	}
}

func TestJointRangesRefused(t *testing.T) {
	chain := ur5(t)
	tests := []struct {
		name, yaml string
		file       bool // refused by ParamsFromFile (else by JointRanges)
	}{
		{"negative step", "/jog_server:\n  ros__parameters:\n    joint_limits:\n      min: [-10.0]\n      max: [10.0]\n      step: [-1.0]\n", true},
		{"step as text", "/jog_server:\n  ros__parameters:\n    joint_limits.step: [\"5\"]\n", true},
		{"min above max", "/jog_server:\n  ros__parameters:\n    joint_limits:\n      min: [10.0]\n      max: [-10.0]\n", true},
		{"not a YAML mapping", "- a\n- b\n", true},
		{"three limits for six joints", "/jog_server:\n  ros__parameters:\n    joint_limits:\n      min: [-10.0, -10.0, -10.0]\n      max: [10.0, 10.0, 10.0]\n", false},
		{"metres on a revolute joint", "/jog_server:\n  ros__parameters:\n    joint_limits:\n      min: [-1.0, -1.0, -1.0, -1.0, -1.0, -1.0]\n      max: [1.0, 1.0, 1.0, 1.0, 1.0, 1.0]\n      unit: [m, '', '', '', '', '']\n", false},
		{"elbow outside the URDF's ±180°", "/jog_server:\n  ros__parameters:\n    joint_limits:\n      min: [-10.0, -10.0, 200.0, -10.0, -10.0, -10.0]\n      max: [10.0, 10.0, 300.0, 10.0, 10.0, 10.0]\n", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "p.yaml")
			if err := os.WriteFile(path, []byte(tt.yaml), 0o644); err != nil {
				t.Fatal(err)
			}
			p, err := node.ParamsFromFile(path, "/jog_server")
			if tt.file {
				if err == nil {
					t.Fatalf("accepted: %+v", p.JointLimits)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if _, _, err := jog.JointRanges(chain, p); !errors.Is(err, jog.ErrParam) {
				t.Fatalf("JointRanges: %v, want ErrParam", err)
			}
			if _, err := jog.New(jog.Config{Chain: chain, Params: &p}); !errors.Is(err, jog.ErrParam) {
				t.Fatalf("New: %v, want ErrParam", err)
			}
		})
	}
	if _, err := node.ParamsFromFile("testdata/no-such-file.yaml", "/jog_server"); err == nil {
		t.Fatal("a missing file was accepted")
	}
}
