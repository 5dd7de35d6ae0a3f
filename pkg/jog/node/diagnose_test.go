package node

import (
	"testing"
	"time"

	"github.com/telebridge/telebridge/pkg/diag"
	"github.com/telebridge/telebridge/pkg/jog"
)

func TestDiagnose(t *testing.T) {
	now := time.Unix(50, 0)
	for _, tc := range []struct {
		name  string
		last  time.Time
		rs    jog.RunnerStats
		level diag.Level
		msg   string
	}{
		{"fresh", now.Add(-20 * time.Millisecond), jog.RunnerStats{Written: 3}, diag.OK, "ready: idle"},
		{"no arm", time.Time{}, jog.RunnerStats{}, diag.Warn, "no joint_states received"},
		{"stale", now.Add(-time.Second), jog.RunnerStats{}, diag.Warn, "joint_states is 1.000 s old"},
		{"output errors", now, jog.RunnerStats{OutputErrors: 1}, diag.Warn, "joint targets could not be published"},
	} {
		s := Diagnose(jog.Status{Mode: jog.Idle}, diag.Input{Name: "joint_states", Count: 1, Last: tc.last}, tc.rs, 0, 0, now)
		if s.Name != "jog" || s.Level != tc.level || s.Message != tc.msg {
			t.Errorf("%s: %q %v %q", tc.name, s.Name, s.Level, s.Message)
		}
	}
}
