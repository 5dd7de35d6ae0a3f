package node

import (
	"time"

	"github.com/telebridge/telebridge/pkg/diag"
	"github.com/telebridge/telebridge/pkg/furbot/control"
)

// OdomInputTimeout is the age of the latest TractionData after which
// furbot_odometry reports its odometry as not updated [s]: 50 bridge
// periods.
const OdomInputTimeout = 500 * time.Millisecond

// DiagnoseOdometry reports furbot_odometry's health at now as the status
// "odometry" (named on /diagnostics by diag.StatusName): ERROR while no TractionData has
// arrived or the latest is older than OdomInputTimeout (odom and tf are
// not updated); OK otherwise. The tracker's counters go in the values.
func DiagnoseOdometry(traction diag.Input, st OdomStats, now time.Time) diag.Status {
	s := diag.Status{Name: "odometry"}
	s.Raise(diag.OK, "integrating traction data")
	traction.Timeout = OdomInputTimeout
	s.Check(traction, now, diag.Error)
	if s.Level != diag.OK {
		s.Message += ": odom and tf not updated"
	}
	s.Add("samples integrated", st.Used)
	s.Add("repeats skipped", st.Old)
	s.Add("vehicle clock restarts", st.Resyncs)
	s.Add("gaps (pose held)", st.Gaps)
	return s
}

// DiagnoseTwist reports furbot_twist_control's health at now as the
// status "control": WARN while the vehicle is not ready (no fresh traction
// feedback, or traction not running: the output is disabled with full
// brake) or its e-stop is latched; OK otherwise, whether cmd_vel is fresh
// (driving) or not (braking to a stop is the normal idle). The mode, the
// cmd_vel input and the refused commands go in the values.
func DiagnoseTwist(out control.Output, cmd diag.Input, refused uint64, now time.Time) diag.Status {
	s := diag.Status{Name: "control"}
	switch out.Mode {
	case control.ModeDisabled:
		s.Raise(diag.Warn, "vehicle not ready (no fresh traction feedback, or traction not running): full brake")
	case control.ModeEStop:
		s.Raise(diag.Warn, "vehicle emergency stop latched: full brake")
	case control.ModeDrive, control.ModeGear:
		s.Raise(diag.OK, "following cmd_vel")
	default:
		s.Raise(diag.OK, "stopped or braking to a stop")
	}
	s.Add("mode", out.Mode.String())
	s.Check(cmd, now, diag.OK)
	s.Add("cmd_vel refused", refused)
	return s
}
