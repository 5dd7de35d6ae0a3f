package trajectory

// What a Follower reports: its status, the result of a goal, the
// measured state, setpoints and feedback.

// Status is where a Follower's goal stands.
type Status uint8

// Goal statuses, as an action goal's.
const (
	// Idle: no goal yet; Sample holds nothing.
	Idle Status = iota
	// Active: the goal runs (its start may still be ahead).
	Active
	// Succeeded: the joints came within the goal tolerance; the last
	// point is held.
	Succeeded
	// Aborted: a tolerance was violated; the measured position at that
	// instant is held.
	Aborted
	// Canceled: Cancel or a newer goal ended it; the measured position
	// (Cancel) or the new goal takes over.
	Canceled
)

// String names the status.
func (s Status) String() string {
	return [...]string{"idle", "active", "succeeded", "aborted", "canceled"}[s]
}

// Result is how a goal ended: the action's status, result code and
// error_string.
type Result struct {
	Status Status // the action's final status
	Code   Code   // control_msgs' error_code
	Msg    string // the error_string
}

// State is the arm's measured state in Config.Joints order: Positions
// [rad or m], Velocities [rad/s or m/s] or nil when the arm does not
// measure them (velocity tolerances are then not checked).
type State struct {
	Positions, Velocities []float64
}

// Setpoint is where the joints should be, in Config.Joints order:
// Positions [rad or m], Velocities [rad/s or m/s], Accelerations [rad/s²
// or m/s²].
type Setpoint struct {
	Positions, Velocities, Accelerations []float64
}

// Feedback is a FollowJointTrajectory feedback: the setpoint, the
// measured state and their difference (desired − actual), in Config.Joints
// order. Its slices are the Follower's, valid until its next call.
type Feedback struct {
	Desired Setpoint // where the joints should be now
	Actual  State    // where they are measured
	// Error has Positions and, when the velocities are measured,
	// Velocities; no Accelerations.
	Error Setpoint
}
