package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
)

func TestRun(t *testing.T) {
	td := filepath.Join("..", "..", "testkit", "nav2path", "testdata")
	var out, errOut bytes.Buffer
	if err := run([]string{"eval", "-path", "straight:4", "-truth", filepath.Join(td, "truth_servosila.log"),
		"-cmd-vel", filepath.Join(td, "cmd_vel.csv")}, &out, &errOut); err != nil {
		t.Fatalf("eval: %v\n%s", err, errOut.String())
	}
	for _, want := range []string{"samples=6\n", "max_cross_track=0.0200\n", "final_error=0.0200\n", "drive_time=0.40\n", "sign_changes=2\n", "below_min=1\n"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("eval output lacks %q:\n%s", want, out.String())
		}
	}
	out.Reset()
	if err := run([]string{"goal", "-path", "straight:0.1"}, &out, &errOut); err != nil ||
		!strings.HasPrefix(out.String(), "{path: {header: {frame_id: odom}") || !strings.Contains(out.String(), "controller_id: FollowPath") {
		t.Errorf("goal: %v\n%s", err, out.String())
	}
	for _, bad := range [][]string{nil, {"drive"}, {"goal", "-path", "zigzag"}, {"eval", "-path", "straight:4", "-truth", "/nonexistent"}} {
		if err := run(bad, &out, &errOut); err == nil {
			t.Errorf("run(%q) succeeded", bad)
		}
	}
}
