package node

import (
	"testing"
	"time"

	"github.com/telebridge/telebridge/pkg/diag"
	"github.com/telebridge/telebridge/pkg/furbot/control"
)

func TestDiagnoseOdometry(t *testing.T) {
	now := time.Unix(100, 0)
	for _, tc := range []struct {
		name  string
		last  time.Time
		level diag.Level
		msg   string
	}{
		{"fresh", now.Add(-10 * time.Millisecond), diag.OK, "integrating traction data"},
		{"never", time.Time{}, diag.Error, "no traction received: odom and tf not updated"},
		{"stale", now.Add(-2 * time.Second), diag.Error, "traction is 2.000 s old: odom and tf not updated"},
	} {
		s := DiagnoseOdometry(diag.Input{Name: "traction", Count: 7, Last: tc.last}, OdomStats{Used: 5, Gaps: 1}, now)
		if s.Name != "odometry" || s.Level != tc.level || s.Message != tc.msg {
			t.Errorf("%s: %q %v %q", tc.name, s.Name, s.Level, s.Message)
		}
	}
}

func TestDiagnoseTwist(t *testing.T) {
	now := time.Unix(100, 0)
	cmd := diag.Input{Name: "cmd_vel", Count: 3, Last: now.Add(-5 * time.Second), Timeout: 500 * time.Millisecond}
	for _, tc := range []struct {
		mode  control.Mode
		level diag.Level
		msg   string
	}{
		{control.ModeDisabled, diag.Warn, "vehicle not ready (no fresh traction feedback, or traction not running): full brake"},
		{control.ModeEStop, diag.Warn, "vehicle emergency stop latched: full brake"},
		{control.ModeDrive, diag.OK, "following cmd_vel"},
		{control.ModeHold, diag.OK, "stopped or braking to a stop"},
	} {
		s := DiagnoseTwist(control.Output{Mode: tc.mode}, cmd, 2, now)
		if s.Name != "control" || s.Level != tc.level || s.Message != tc.msg || s.Values[0] != (diag.KeyValue{Key: "mode", Value: tc.mode.String()}) {
			t.Errorf("%v: %q %v %q %+v", tc.mode, s.Name, s.Level, s.Message, s.Values)
		}
	}
}
