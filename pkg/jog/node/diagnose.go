package node

import (
	"time"

	"github.com/telebridge/telebridge/pkg/diag"
	"github.com/telebridge/telebridge/pkg/jog"
)

// JointStatesTimeout is the age of the latest joint_states after which
// jog_server reports the arm's state as stale [s]: the controller's
// default (jog.Config's JointStateTimeout), past which a motion
// stops.
const JointStatesTimeout = 500 * time.Millisecond

// Diagnose reports jog_server's health at now as the status "jog"
// (named on /diagnostics by diag.StatusName): WARN while no joint_states of the arm has
// arrived or the latest is older than JointStatesTimeout (a jog would not
// start, or stops); OK otherwise. The controller's mode, the reason the
// last motion ended, the runner's and the joint source's counters go in
// the values.
func Diagnose(st jog.Status, joints diag.Input, rs jog.RunnerStats, refused, foreign uint64, now time.Time) diag.Status {
	s := diag.Status{Name: "jog"}
	s.Raise(diag.OK, "ready: "+st.Mode.String())
	joints.Timeout = JointStatesTimeout
	s.Check(joints, now, diag.Warn)
	s.Add("mode", st.Mode.String())
	s.Add("last stop reason", st.Reason)
	s.Add("targets written", rs.Written)
	s.Add("hold targets", rs.Holds)
	s.Add("missed periods", rs.Missed)
	s.Add("output errors", rs.OutputErrors)
	s.Add("joint_states refused", refused)
	s.Add("joint_states of other robots", foreign)
	if rs.OutputErrors > 0 {
		s.Raise(diag.Warn, "joint targets could not be published")
	}
	return s
}
