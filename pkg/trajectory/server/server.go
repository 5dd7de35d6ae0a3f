package server

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/telebridge/telebridge/pkg/jog"
	"github.com/telebridge/telebridge/pkg/rate"
	"github.com/telebridge/telebridge/pkg/trajectory"
)

// VelocitySource is implemented by arms that measure their joint
// velocities [rad/s or m/s] (in the arm's joint order); with it the
// velocity tolerances are checked.
type VelocitySource interface {
	JointVelocities(dst []float64) error
}

// Config configures a Server.
type Config struct {
	// Arm is the arm driven. Required. Its JointPositions order is
	// Follower.Joints.
	Arm jog.Arm
	// Follower describes the arm's joints, limits and default tolerances.
	Follower trajectory.Config
	// Period is the control period of Run. Default 20 ms.
	Period time.Duration
	// Lead is how far ahead of now the target's point is due (its Next
	// one Lead later). Default Period.
	Lead time.Duration
	// StateTimeout aborts a goal when the measured joints are older than
	// it (or unreadable): a lost link. Default 1 s, about a Servosila
	// driver's lost-link time at 50 Hz telemetry; shorter ones abort
	// goals on a loaded machine's scheduling gaps.
	StateTimeout time.Duration
}

// Server runs goals on an arm; see the package doc.
type Server struct {
	cfg   Config
	n     int
	names []string

	mu        sync.Mutex
	f         *trajectory.Follower
	cur       *Handle
	holding   bool // a goal's end is still to be written to the arm
	pos, vel  []float64
	hasVel    bool
	sp1, sp2  trajectory.Setpoint
	lastErr   error
	writeErrs uint64
}

// Handle is a goal submitted to a Server.
type Handle struct {
	feedback func(trajectory.Feedback)
	done     chan struct{}
	result   trajectory.Result
}

// Done is closed when the goal has ended.
func (h *Handle) Done() <-chan struct{} { return h.done }

// Result returns how the goal ended; valid once Done is closed.
func (h *Handle) Result() trajectory.Result { return h.result }

// New checks cfg and returns a Server with no goal.
func New(cfg Config) (*Server, error) {
	if cfg.Arm == nil {
		return nil, errors.New("trajectory server: new: no arm")
	}
	if cfg.Period == 0 {
		cfg.Period = 20 * time.Millisecond
	}
	if cfg.Lead == 0 {
		cfg.Lead = cfg.Period
	}
	if cfg.StateTimeout == 0 {
		cfg.StateTimeout = time.Second
	}
	if cfg.Period < 0 || cfg.Lead < 0 || cfg.StateTimeout < 0 {
		return nil, fmt.Errorf("trajectory server: new: period %v, lead %v, state timeout %v", cfg.Period, cfg.Lead, cfg.StateTimeout)
	}
	f, err := trajectory.New(cfg.Follower)
	if err != nil {
		return nil, fmt.Errorf("trajectory server: new: %w", err)
	}
	n := len(cfg.Follower.Joints)
	mk := func() trajectory.Setpoint {
		return trajectory.Setpoint{Positions: make([]float64, n), Velocities: make([]float64, n), Accelerations: make([]float64, n)}
	}
	_, hasVel := cfg.Arm.(VelocitySource)
	return &Server{cfg: cfg, n: n, names: f.Joints(), f: f, pos: make([]float64, n), vel: make([]float64, n),
		hasVel: hasVel, sp1: mk(), sp2: mk()}, nil
}

// Joints returns the arm's joint names, in the order of every state.
func (s *Server) Joints() []string { return append([]string(nil), s.names...) }

// state reads the measured joints at now; the caller holds s.mu.
func (s *Server) state(now time.Time) (trajectory.State, error) {
	at, err := s.cfg.Arm.JointPositions(s.pos)
	if err != nil {
		return trajectory.State{}, err
	}
	if age := now.Sub(at); age > s.cfg.StateTimeout {
		return trajectory.State{}, fmt.Errorf("joint state %v old (timeout %v)", age.Round(time.Millisecond), s.cfg.StateTimeout)
	}
	st := trajectory.State{Positions: s.pos}
	if s.hasVel {
		if err := s.cfg.Arm.(VelocitySource).JointVelocities(s.vel); err == nil {
			st.Velocities = s.vel
		}
	}
	return st, nil
}

// Submit validates g at now and starts it, preempting the running goal
// (its handle ends Canceled). feedback, if not nil, is called on every
// Step with the goal's feedback (its slices valid during the call; it
// must not call the Server). A refused goal returns a *trajectory.Error
// and changes nothing; a goal submitted while the arm's state is
// unavailable is refused with an error that is not one.
func (s *Server) Submit(g *trajectory.Goal, now time.Time, feedback func(trajectory.Feedback)) (*Handle, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if e := s.f.Validate(g, now); e != nil {
		return nil, e
	}
	st, err := s.state(now)
	if err != nil {
		return nil, fmt.Errorf("trajectory server: submit: %w", err)
	}
	prev, e := s.f.Start(g, now, st)
	if e != nil {
		return nil, e
	}
	if prev != nil {
		s.finish(*prev)
	}
	s.cur = &Handle{feedback: feedback, done: make(chan struct{})}
	s.holding = false
	s.stepLocked(now)
	return s.cur, nil
}

// Cancel ends h at now if it is the running goal (Canceled, the arm
// holding its measured position) and reports whether it did.
func (s *Server) Cancel(h *Handle, now time.Time) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if h == nil || h != s.cur {
		return false
	}
	st, err := s.state(now)
	var r *trajectory.Result
	if err == nil {
		r = s.f.Cancel(st)
	} else if r = s.f.Abort(trajectory.Successful, "canceled"); r != nil {
		r.Status = trajectory.Canceled
	}
	if r == nil {
		return false
	}
	s.finish(*r)
	s.writeHold(now)
	return true
}

// finish ends the current handle with r; the caller holds s.mu.
func (s *Server) finish(r trajectory.Result) {
	if s.cur != nil {
		s.cur.result = r
		close(s.cur.done)
		s.cur = nil
	}
	s.holding = true
}

// Step runs one control period at now; see the package doc.
func (s *Server) Step(now time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.stepLocked(now)
}

func (s *Server) stepLocked(now time.Time) {
	if s.cur == nil {
		if s.holding {
			s.writeHold(now)
		}
		return
	}
	st, err := s.state(now)
	if err != nil {
		if r := s.f.Abort(trajectory.PathToleranceViolated, "the arm's joint state is lost: "+err.Error()); r != nil {
			s.finish(*r)
		}
		s.writeHold(now)
		return
	}
	if s.f.Sample(now, st) != trajectory.Active {
		s.finish(s.f.Result())
		s.writeHold(now)
		return
	}
	if s.cur.feedback != nil {
		s.cur.feedback(s.f.Feedback())
	}
	s.f.Desired(now.Add(s.cfg.Lead), s.sp1)
	s.f.Desired(now.Add(2*s.cfg.Lead), s.sp2)
	err = s.write(jog.JointTarget{Stamp: now, JointNames: s.names,
		Positions: s.sp1.Positions, Velocities: s.sp1.Velocities, TimeFromStart: s.cfg.Lead,
		Next: s.sp2.Positions, NextVelocities: s.sp2.Velocities, NextTimeFromStart: 2 * s.cfg.Lead})
	if err != nil { // an e-stop, a limit: the goal cannot go on
		if r := s.f.Abort(trajectory.PathToleranceViolated, "the arm refused the setpoint: "+err.Error()); r != nil {
			s.finish(*r)
		}
		s.writeHold(now)
	}
}

// writeHold writes the follower's held position as a rest point, once.
func (s *Server) writeHold(now time.Time) {
	s.holding = false
	if !s.f.Desired(now, s.sp1) {
		return
	}
	_ = s.write(jog.JointTarget{Stamp: now, JointNames: s.names, Positions: s.sp1.Positions, Hold: true}) // counted
}

func (s *Server) write(t jog.JointTarget) error {
	err := s.cfg.Arm.WriteJointTarget(t)
	if err != nil {
		s.lastErr = err
		s.writeErrs++
	}
	return err
}

// WriteErrors returns how many targets the arm refused and the last
// refusal.
func (s *Server) WriteErrors() (uint64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.writeErrs, s.lastErr
}

// Run calls Step every Period on the wall clock until ctx is cancelled;
// the running goal is then canceled.
func (s *Server) Run(ctx context.Context) error {
	err := rate.Run(ctx, s.cfg.Period, func(t rate.Tick) error {
		s.Step(t.Now)
		return nil
	})
	s.mu.Lock()
	cur := s.cur
	s.mu.Unlock()
	s.Cancel(cur, time.Now())
	return err
}

// Validate checks g at now as Submit would, without starting it (for an
// action server that must reject a goal before accepting it).
func (s *Server) Validate(g *trajectory.Goal, now time.Time) *trajectory.Error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.f.Validate(g, now)
}
