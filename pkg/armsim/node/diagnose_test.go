package node

import (
	"testing"

	"github.com/telebridge/telebridge/pkg/diag"
)

func TestDiagnose(t *testing.T) {
	cfg := Config{Rate: 50}
	for _, tc := range []struct {
		name      string
		cur, prev Counts
		level     diag.Level
		msg       string
	}{
		{"quiet", Counts{Targets: 10}, Counts{Targets: 4}, diag.OK, "simulating 6 joints at 50 Hz"},
		{"old violations only", Counts{Targets: 10, Violations: 2}, Counts{Violations: 2}, diag.OK, "simulating 6 joints at 50 Hz"},
		{"new violation", Counts{Violations: 3}, Counts{Violations: 2}, diag.Warn, "1 target positions outside the joint limits in the last interval"},
		{"late", Counts{Late: 2}, Counts{}, diag.Warn, "2 late targets (first point already due) in the last interval"},
		{"off clock", Counts{OffClock: 1}, Counts{}, diag.Warn, "1 target stamps off the arm's clock in the last interval"},
	} {
		s := Diagnose(cfg, 6, tc.cur, tc.prev)
		if s.Name != "simulation" || s.Level != tc.level || s.Message != tc.msg || len(s.Values) != 4 {
			t.Errorf("%s: %q %v %q %+v", tc.name, s.Name, s.Level, s.Message, s.Values)
		}
	}
}
