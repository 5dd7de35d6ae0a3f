package trajectory

import (
	"fmt"
	"math"
	"time"
)

// Follower follows one goal at a time for an arm; see the package doc.
// It is not safe for concurrent use.
type Follower struct {
	cfg Config
	n   int

	status Status
	result Result
	start  time.Time
	// The goal's points in the arm's joint order: point k's values of
	// joint j at [k*n+j]. times are seconds from start.
	times          []float64
	pos, vel, acc  []float64
	hasVel, hasAcc []bool
	named          []bool
	// The state the trajectory starts from, at t0 seconds from start
	// (when it was accepted, or its start if that was later).
	p0, v0, a0       []float64
	t0               float64
	pathTol, goalTol []Tolerance // resolved: a zero field is not checked
	goalTime         float64     // [s]; 0: wait as long as it takes
	hold             []float64
	desired          Setpoint
	actual           State
	errPos, errVel   []float64
	haveSetpoint     bool
	lastVel, lastAcc []float64 // scratch for Start's initial state
	lastPos          []float64
}

// New checks cfg and returns an idle Follower.
func New(cfg Config) (*Follower, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	n := len(cfg.Joints)
	mk := func() []float64 { return make([]float64, n) }
	f := &Follower{cfg: cfg, n: n, named: make([]bool, n), p0: mk(), v0: mk(), a0: mk(),
		pathTol: make([]Tolerance, n), goalTol: make([]Tolerance, n), hold: mk(),
		desired: Setpoint{mk(), mk(), mk()}, errPos: mk(), errVel: mk(),
		lastPos: mk(), lastVel: mk(), lastAcc: mk()}
	return f, nil
}

// Joints returns the arm's joint names, the order of every state and
// setpoint.
func (f *Follower) Joints() []string { return append([]string(nil), f.cfg.Joints...) }

// Status returns where the current goal stands.
func (f *Follower) Status() Status { return f.status }

// Result returns how the last goal ended (Status Active or Idle while
// none has).
func (f *Follower) Result() Result { return f.result }

// StartTime returns when the current goal's times count from.
func (f *Follower) StartTime() time.Time { return f.start }

// EndTime returns when the current goal's last point is due.
func (f *Follower) EndTime() time.Time {
	if len(f.times) == 0 {
		return f.start
	}
	return f.start.Add(time.Duration(f.times[len(f.times)-1] * float64(time.Second)))
}

// Start validates g (see Validate) and makes it the running goal at time
// now, the arm's state being actual. A refused goal changes nothing. A running
// goal is preempted: it ends Canceled and its result is returned. The new
// trajectory's times count from g.Start or, if zero, now; it starts from
// the current setpoint (or, before any, the measured state) at now, or at
// its start if that is later (until then the joints hold), as the JTC
// interpolates from the state at a trajectory's reception to its first
// point. A first point already due is skipped: the joints go on between
// the points that follow.
func (f *Follower) Start(g *Goal, now time.Time, actual State) (preempted *Result, err *Error) {
	if e := f.cfg.Validate(g, now); e != nil {
		return nil, e
	}
	if len(actual.Positions) != f.n || (actual.Velocities != nil && len(actual.Velocities) != f.n) {
		return nil, errorf(InvalidGoal, "the arm's state has %d positions for %d joints", len(actual.Positions), f.n)
	}
	// Where the new trajectory starts: the setpoint in force, so that a
	// preemption is continuous.
	switch {
	case f.status == Active:
		f.Desired(now, Setpoint{f.lastPos, f.lastVel, f.lastAcc})
	case f.haveSetpoint:
		copy(f.lastPos, f.hold)
		clear(f.lastVel)
		clear(f.lastAcc)
	default:
		copy(f.lastPos, actual.Positions)
		clear(f.lastVel)
		if actual.Velocities != nil {
			copy(f.lastVel, actual.Velocities)
		}
		clear(f.lastAcc)
	}
	start := g.Start
	if start.IsZero() {
		start = now
	}
	if start.After(now) { // held until the start
		clear(f.lastVel)
		clear(f.lastAcc)
	}
	if f.status == Active {
		preempted = &Result{Status: Canceled, Code: Successful, Msg: "preempted by a newer goal"}
	}
	f.load(g, start, now)
	return preempted, nil
}

// load copies g into the follower in the arm's order, accepted at now; g
// is valid.
func (f *Follower) load(g *Goal, start, now time.Time) {
	n, m := f.n, len(g.Points)
	f.start = start
	f.t0 = max(0, now.Sub(start).Seconds())
	f.times = f.times[:0]
	f.pos, f.vel, f.acc = grow(f.pos, m*n), grow(f.vel, m*n), grow(f.acc, m*n)
	f.hasVel, f.hasAcc = f.hasVel[:0], f.hasAcc[:0]
	copy(f.p0, f.lastPos)
	copy(f.v0, f.lastVel)
	copy(f.a0, f.lastAcc)
	clear(f.named)
	for k := range g.Points {
		p := &g.Points[k]
		f.times = append(f.times, p.TimeFromStart.Seconds())
		f.hasVel = append(f.hasVel, len(p.Velocities) != 0)
		f.hasAcc = append(f.hasAcc, len(p.Accelerations) != 0)
		row := k * n
		for j := range n { // unnamed joints hold their start
			f.pos[row+j], f.vel[row+j], f.acc[row+j] = f.p0[j], 0, 0
		}
		for i, name := range g.JointNames {
			j := f.cfg.index(name)
			f.named[j] = true
			f.pos[row+j] = p.Positions[i]
			if f.hasVel[k] {
				f.vel[row+j] = p.Velocities[i]
			}
			if f.hasAcc[k] {
				f.acc[row+j] = p.Accelerations[i]
			}
		}
	}
	f.resolveTolerances(g)
	// Until the first Sample the setpoint is the start (what Abort holds).
	copy(f.desired.Positions, f.p0)
	clear(f.desired.Velocities)
	clear(f.desired.Accelerations)
	f.status, f.result, f.haveSetpoint = Active, Result{Status: Active}, true
}

func grow(s []float64, n int) []float64 {
	if cap(s) < n {
		return make([]float64, n)
	}
	return s[:n]
}

// resolveTolerances sets each joint's path and goal tolerances from g and
// the defaults: a zero field of g takes the default, a negative one means
// none (stored as zero, not checked).
func (f *Follower) resolveTolerances(g *Goal) {
	for j := range f.n {
		f.pathTol[j], f.goalTol[j] = Tolerance{}, Tolerance{}
		if len(f.cfg.PathTolerance) != 0 {
			f.pathTol[j] = f.cfg.PathTolerance[j]
		}
		if len(f.cfg.GoalTolerance) != 0 {
			f.goalTol[j] = f.cfg.GoalTolerance[j]
		}
		if f.goalTol[j].Velocity == 0 && f.cfg.StoppedVelocity > 0 {
			f.goalTol[j].Velocity = f.cfg.StoppedVelocity
		}
	}
	merge := func(dst []Tolerance, src []Tolerance) {
		for _, t := range src {
			d := &dst[f.cfg.index(t.Name)]
			for _, p := range [...]struct {
				to *float64
				v  float64
			}{{&d.Position, t.Position}, {&d.Velocity, t.Velocity}, {&d.Acceleration, t.Acceleration}} {
				switch {
				case p.v > 0:
					*p.to = p.v
				case p.v < 0:
					*p.to = 0
				}
			}
		}
	}
	merge(f.pathTol, g.PathTolerance)
	merge(f.goalTol, g.GoalTolerance)
	f.goalTime = f.cfg.GoalTime.Seconds()
	if g.GoalTime > 0 {
		f.goalTime = g.GoalTime.Seconds()
	}
}

// Desired writes into out (slices of len(Config.Joints)) the setpoint at
// t: the trajectory's while a goal runs (its start state before its
// start, its last point after its end), the held position once it has
// ended. It returns false, writing nothing, before any goal. It checks
// nothing and allocates nothing.
func (f *Follower) Desired(t time.Time, out Setpoint) bool {
	switch {
	case !f.haveSetpoint:
		return false
	case f.status != Active:
		copy(out.Positions, f.hold)
		clear(out.Velocities)
		clear(out.Accelerations)
		return true
	}
	s := t.Sub(f.start).Seconds()
	n, m := f.n, len(f.times)
	if s < f.t0 {
		copy(out.Positions, f.p0)
		clear(out.Velocities)
		clear(out.Accelerations)
		return true
	}
	if s >= f.times[m-1] {
		last := (m - 1) * n
		copy(out.Positions, f.pos[last:last+n])
		clear(out.Velocities)
		clear(out.Accelerations)
		if s == f.times[m-1] {
			copy(out.Velocities, f.vel[last:last+n])
			copy(out.Accelerations, f.acc[last:last+n])
		}
		return true
	}
	k := 0
	for f.times[k] <= s {
		k++
	}
	// Segment from point k-1 (or the start state) to point k.
	ta := f.t0
	aVel, aAcc := true, true
	pa, va, aa := f.p0, f.v0, f.a0
	if k > 0 {
		ta = f.times[k-1]
		r := (k - 1) * n
		pa, va, aa = f.pos[r:r+n], f.vel[r:r+n], f.acc[r:r+n]
		aVel, aAcc = f.hasVel[k-1], f.hasAcc[k-1]
	}
	kd := kindOf(aVel, aAcc, f.hasVel[k], f.hasAcc[k])
	T := f.times[k] - ta
	r := k * n
	for j := range n {
		if !f.named[j] {
			out.Positions[j], out.Velocities[j], out.Accelerations[j] = f.p0[j], 0, 0
			continue
		}
		out.Positions[j], out.Velocities[j], out.Accelerations[j] =
			interpolate(kd, T, s-ta, pa[j], va[j], aa[j], f.pos[r+j], f.vel[r+j], f.acc[r+j])
	}
	return true
}

// Sample advances the running goal to now with the arm's measured state
// (the feedback's actual): it evaluates the setpoint (Feedback().Desired),
// and while the trajectory runs it aborts the goal with
// PathToleranceViolated when a joint is further from it than its path
// tolerance; from its end it succeeds once every joint is within its goal
// tolerance, or aborts with GoalToleranceViolated when the goal time
// tolerance has passed. An aborted goal holds the measured position. It
// returns the goal's status and allocates nothing unless the goal ends.
func (f *Follower) Sample(now time.Time, actual State) Status {
	if len(actual.Positions) != f.n || (actual.Velocities != nil && len(actual.Velocities) != f.n) {
		return f.status // not the arm's state: nothing to judge by
	}
	f.actual = actual
	if !f.Desired(now, f.desired) {
		return f.status
	}
	for j := range f.n {
		f.errPos[j] = f.desired.Positions[j] - actual.Positions[j]
		if actual.Velocities != nil {
			f.errVel[j] = f.desired.Velocities[j] - actual.Velocities[j]
		}
	}
	if f.status != Active {
		return f.status
	}
	s := now.Sub(f.start).Seconds()
	end := f.times[len(f.times)-1]
	switch {
	case s < 0:
	case s < end:
		if j, what, e, tol := f.outside(f.pathTol, actual); j >= 0 {
			f.end(Aborted, PathToleranceViolated, actual, fmt.Sprintf("joint %q: %s error %.4g beyond the path tolerance %.4g, %.3f s into the trajectory", f.cfg.Joints[j], what, e, tol, s))
		}
	default:
		j, what, e, tol := f.outside(f.goalTol, actual)
		switch {
		case j < 0:
			f.end(Succeeded, Successful, actual, "")
			copy(f.hold, f.pos[(len(f.times)-1)*f.n:])
		case f.goalTime > 0 && s-end > f.goalTime:
			f.end(Aborted, GoalToleranceViolated, actual, fmt.Sprintf("joint %q: %s error %.4g beyond the goal tolerance %.4g, %.3f s after the end (goal time tolerance %.3f s)", f.cfg.Joints[j], what, e, tol, s-end, f.goalTime))
		}
	}
	return f.status
}

// outside returns the first named joint whose error is beyond tol, what
// was beyond (position or velocity), the error and the tolerance; j < 0
// when none.
func (f *Follower) outside(tol []Tolerance, actual State) (j int, what string, e, bound float64) {
	for j := range f.n {
		if !f.named[j] {
			continue
		}
		if t := tol[j].Position; t > 0 && math.Abs(f.errPos[j]) > t {
			return j, "position", f.errPos[j], t
		}
		if t := tol[j].Velocity; t > 0 && actual.Velocities != nil && math.Abs(f.errVel[j]) > t {
			return j, "velocity", f.errVel[j], t
		}
	}
	return -1, "", 0, 0
}

// end ends the goal, holding the measured position.
func (f *Follower) end(s Status, c Code, actual State, msg string) {
	f.status, f.result = s, Result{Status: s, Code: c, Msg: msg}
	copy(f.hold, actual.Positions)
}

// Cancel ends a running goal at the arm's measured state: it holds the
// measured position and returns the result (Canceled, Successful), as the
// JTC does on a cancel request; nil when no goal runs.
func (f *Follower) Cancel(actual State) *Result {
	if f.status != Active || len(actual.Positions) != f.n {
		return nil
	}
	f.end(Canceled, Successful, actual, "canceled")
	r := f.result
	return &r
}

// Feedback returns the feedback of the last Sample.
func (f *Follower) Feedback() Feedback {
	fb := Feedback{Desired: f.desired, Actual: f.actual, Error: Setpoint{Positions: f.errPos}}
	if f.actual.Velocities != nil {
		fb.Error.Velocities = f.errVel
	}
	return fb
}

// Abort ends a running goal with code and msg, holding the last setpoint's
// position (for a runtime that lost the arm's state, so that it has no
// measured position to hold); nil when no goal runs.
func (f *Follower) Abort(c Code, msg string) *Result {
	if f.status != Active {
		return nil
	}
	f.status, f.result = Aborted, Result{Status: Aborted, Code: c, Msg: msg}
	copy(f.hold, f.desired.Positions)
	r := f.result
	return &r
}
