package main

import (
	"encoding/json"
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

const (
	ur5URDF       = "../../launch/urdf/ur5_like.urdf"
	telescopeURDF = "../../pkg/kinematics/testdata/telescope7.urdf"
)

func TestKinFK(t *testing.T) {
	code, out, errs := runParamsCmd(t, "kin", "fk", "--urdf", ur5URDF, "--joints", "0,0,0,0,0,0")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var p poseJSON
	if err := json.Unmarshal([]byte(out), &p); err != nil {
		t.Fatalf("%v in %s", err, out)
	}
	// The UR5 zero pose, worked out by hand in pkg/kinematics.
	want := [3]float64{-0.81725, -0.19145, 0.089159 - 0.09465}
	for i := range want {
		if math.Abs(p.XYZ[i]-want[i]) > 1e-12 {
			t.Fatalf("xyz %v, want %v", p.XYZ, want)
		}
	}
	if math.Abs(p.RZYX[2]-math.Pi/2) > 1e-12 || p.Base != "world" || p.Tip != "tool0" {
		t.Fatalf("pose %+v", p)
	}
	// Chosen links: from base_link to the upper arm, two joints.
	code, out, errs = runParamsCmd(t, "kin", "fk", "--urdf", ur5URDF, "--base", "base_link", "--tip", "upper_arm_link", "--joints", "0,0")
	if code != 0 || !strings.Contains(out, `"tip": "upper_arm_link"`) {
		t.Fatalf("exit %d: %s %s", code, out, errs)
	}
}

func TestKinIKRoundTrip(t *testing.T) {
	// FK of a known configuration, then IK of that pose from elsewhere.
	q := "0.3,-0.5,1.1,0.25,0.4,-0.7,1.2"
	code, out, errs := runParamsCmd(t, "kin", "fk", "--urdf", telescopeURDF, "--joints", q)
	if code != 0 {
		t.Fatalf("fk exit %d: %s", code, errs)
	}
	var p poseJSON
	_ = json.Unmarshal([]byte(out), &p)
	var parts []string
	for _, v := range append(p.XYZ[:], p.RZYX[:]...) {
		parts = append(parts, strconv.FormatFloat(v, 'g', -1, 64))
	}
	pose := strings.Join(parts, ",")
	code, out, errs = runParamsCmd(t, "kin", "ik", "--urdf", telescopeURDF, "--pose", pose, "--seed", "0,0,0,0.1,0,0,0")
	if code != 0 {
		t.Fatalf("ik exit %d: %s", code, errs)
	}
	var r ikJSON
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("%v in %s", err, out)
	}
	if len(r.Joints) != 7 || r.PositionError > 1e-5 || r.RotationError > 1e-5 {
		t.Fatalf("ik %+v", r)
	}
	for i := range 3 {
		if math.Abs(r.Pose.XYZ[i]-p.XYZ[i]) > 1e-5 {
			t.Fatalf("solution pose %v, want %v", r.Pose.XYZ, p.XYZ)
		}
	}
}

func TestKinBadInput(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"no subcommand", []string{"kin"}, 2, "usage"},
		{"unknown subcommand", []string{"kin", "dance"}, 2, "unknown kin subcommand"},
		{"unknown flag", []string{"kin", "fk", "--nope"}, 2, "flag provided but not defined"},
		{"no urdf", []string{"kin", "fk", "--joints", "0"}, 1, "--urdf is required"},
		{"missing file", []string{"kin", "fk", "--urdf", "nope.urdf", "--joints", "0"}, 1, "no such file"},
		{"not a urdf", []string{"kin", "fk", "--urdf", "kin_test.go", "--joints", "0"}, 1, "bad chain"},
		{"too few joints", []string{"kin", "fk", "--urdf", ur5URDF, "--joints", "0,0"}, 1, "2 values, want 6"},
		{"not a number", []string{"kin", "fk", "--urdf", ur5URDF, "--joints", "0,0,x,0,0,0"}, 1, `"x" is not a finite number`},
		{"NaN", []string{"kin", "fk", "--urdf", ur5URDF, "--joints", "0,0,NaN,0,0,0"}, 1, "not a finite number"},
		{"beyond limit", []string{"kin", "fk", "--urdf", telescopeURDF, "--joints", "0,0,0,0.5,0,0,0"}, 1, "out of limits"},
		{"no joints", []string{"kin", "fk", "--urdf", ur5URDF}, 1, "--joints is required"},
		{"unknown tip", []string{"kin", "fk", "--urdf", ur5URDF, "--tip", "hand", "--joints", "0"}, 1, `no link "hand"`},
		{"short pose", []string{"kin", "ik", "--urdf", ur5URDF, "--pose", "0,0,0"}, 1, "3 values, want 6"},
		{"bad seed", []string{"kin", "ik", "--urdf", ur5URDF, "--pose", "0.3,0,0.3,0,0,0", "--seed", "1,2"}, 1, "--seed: 2 values"},
		{"unreachable", []string{"kin", "ik", "--urdf", telescopeURDF, "--pose", "5,0,0,0,0,0"}, 1, "no IK solution"},
		{"bench zero poses", []string{"kin", "bench", "--urdf", ur5URDF, "--poses", "0"}, 1, "must be positive"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := runParamsCmd(t, tc.args...)
			if code != tc.code || !strings.Contains(errs, tc.want) {
				t.Fatalf("exit %d (want %d), stderr %q (want %q)", code, tc.code, errs, tc.want)
			}
			if out != "" {
				t.Fatalf("stdout on error: %q", out)
			}
		})
	}
}

func TestKinBench(t *testing.T) {
	code, out, errs := runParamsCmd(t, "kin", "bench", "--urdf", telescopeURDF, "--poses", "200")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var b benchJSON
	if err := json.Unmarshal([]byte(out), &b); err != nil {
		t.Fatal(err)
	}
	if b.Poses != 200 || b.SolveRate < 99.5 || b.LimitViolations != 0 || b.DOF != 7 {
		t.Fatalf("bench %+v", b)
	}
}

func TestJogDemo(t *testing.T) {
	code, out, errs := runParamsCmd(t, "jog", "--urdf", ur5URDF, "--joints", "0.2,-1.4,1.6,-1.8,-1.57,0.3")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"hold sent (heartbeat timeout)", "goal reached", "incremental Cartesian move", "stop: decelerating", "LIN goal reached", "as RELT commands"} {
		if !strings.Contains(out, want) {
			t.Fatalf("no %q in:\n%s", want, out)
		}
	}
	if !regexp.MustCompile(`the arm took [1-9][0-9]* relative commands`).MatchString(out) {
		t.Fatalf("the arm took no relative commands:\n%s", out)
	}
	if code, _, errs := runParamsCmd(t, "jog", "--urdf", ur5URDF, "--joints", "1,2"); code != 1 || !strings.Contains(errs, "2 values") {
		t.Fatalf("bad joints: exit %d %s", code, errs)
	}
}
