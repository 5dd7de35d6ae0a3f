package node

import (
	"fmt"

	"github.com/telebridge/telebridge/pkg/diag"
)

// Counts are arm_sim's counters at one instant (armsim.Arm's Violations
// and Timing).
type Counts struct {
	Targets    uint64 // targets accepted
	Violations uint64 // target positions outside the limits
	Late       uint64 // targets whose first point was due already
	OffClock   uint64 // stamps too far from the arm's clock, ignored
}

// Diagnose reports arm_sim's health as the status "simulation" (named on
// /diagnostics by diag.StatusName): WARN when, since the previous report
// (prev), a target was outside the joint limits, late or stamped off the
// arm's clock (the sender's timing or limits are wrong); OK otherwise.
// The counters go in the values.
func Diagnose(cfg Config, joints int, cur, prev Counts) diag.Status {
	s := diag.Status{Name: "simulation"}
	s.Raise(diag.OK, fmt.Sprintf("simulating %d joints at %g Hz", joints, cfg.Rate))
	if d := cur.Violations - min(prev.Violations, cur.Violations); d > 0 {
		s.Raise(diag.Warn, fmt.Sprintf("%d target positions outside the joint limits in the last interval", d))
	}
	if d := cur.Late - min(prev.Late, cur.Late); d > 0 {
		s.Raise(diag.Warn, fmt.Sprintf("%d late targets (first point already due) in the last interval", d))
	}
	if d := cur.OffClock - min(prev.OffClock, cur.OffClock); d > 0 {
		s.Raise(diag.Warn, fmt.Sprintf("%d target stamps off the arm's clock in the last interval", d))
	}
	s.Add("targets accepted", cur.Targets)
	s.Add("limit violations", cur.Violations)
	s.Add("late targets", cur.Late)
	s.Add("stamps off clock", cur.OffClock)
	return s
}
