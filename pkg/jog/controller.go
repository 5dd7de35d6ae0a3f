package jog

import (
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/telebridge/telebridge/pkg/geom"
	"github.com/telebridge/telebridge/pkg/jog/control"
	"github.com/telebridge/telebridge/pkg/kinematics"
	"gonum.org/v1/gonum/spatial/r3"
)

// Errors callers branch on.
var (
	// ErrRequest: a malformed request (speed, NaN, length, zero direction,
	// goal outside the limits); nothing moves. It is control.ErrRequest.
	ErrRequest = control.ErrRequest
	// ErrNoJointState: no fresh measured joint positions; nothing moves.
	ErrNoJointState = errors.New("jog: no fresh joint state")
	// ErrForeignJoints: a joint state message names none of the arm's
	// joints (another robot's, on a shared joint_states topic).
	ErrForeignJoints = errors.New("jog: joint state names none of the arm's joints")
	// ErrUnreachable: inverse kinematics found no in-limit solution; the
	// motion stops (or does not start). It is control.ErrUnreachable.
	ErrUnreachable = control.ErrUnreachable
	// ErrFrame: a reference frame could not be resolved; the motion stops
	// (or does not start).
	ErrFrame = errors.New("jog: reference frame")
)

// FrameSource resolves tf frames: T_target_source at time at (zero:
// latest). *tf.Buffer implements it.
type FrameSource interface {
	Lookup(target, source string, at time.Time) (geom.Transform, error)
}

// Config configures a Controller.
type Config struct {
	// Params are the parameters; nil means DefaultParams().
	Params *Params
	// Chain is the arm from robot_data.fixed_frame to the tool. Required.
	Chain *kinematics.Chain
	// Frames resolves reference frames; nil means no tf: only the world
	// frame (taken to be the base), the fixed frame and the flange frame
	// can be references.
	Frames FrameSource
	// IK tunes the inverse kinematics (defaults of kinematics.Config).
	IK kinematics.Config
	// GoalTolerance is how close every joint must be to an absolute goal
	// for the move to be done [rad or m]. Default 1e-3.
	GoalTolerance float64
	// DefaultVelocity is the velocity limit of joints whose URDF gives
	// none [rad/s or m/s]. Default 0.5.
	DefaultVelocity float64
	// JointStateTimeout stops the motion when the measured joints are
	// older than this [s]. Default 0.5 s.
	JointStateTimeout time.Duration
	// Relative says that the arm's output takes relative Cartesian
	// commands (a RelativeOutput). Without it, a
	// cartesian_delta_command_type of REL, RELW or RELT is refused (New,
	// ApplyParams), since a joint trajectory cannot carry one.
	Relative bool
}

// Mode is what the controller is doing.
type Mode int

// Modes.
const (
	Idle Mode = iota
	JointDelta
	JointGoal
	CartesianDelta
	CartesianGoal
	// Stopping: the arm decelerates to rest after a stop (service,
	// heartbeat timeout, stale joint state, an error); then Idle.
	Stopping
	// CartesianLine: an absolute Cartesian goal followed along the
	// straight line (command type LIN).
	CartesianLine
)

// String names the mode.
func (m Mode) String() string {
	return [...]string{"idle", "joint delta", "joint goal", "cartesian delta", "cartesian goal", "stopping", "cartesian line"}[m]
}

// Status is a snapshot of the controller.
type Status struct {
	Mode Mode // what the controller is doing
	// Reason says why the last motion ended ("stop", "heartbeat
	// timeout", "goal reached", an error...).
	Reason string
	// Speed is the override of the current motion.
	Speed float64
	// Sent counts the targets output, Holds the hold targets among them
	// (the first target of every stop: the rest point).
	Sent, Holds uint64
	// Queued counts the absolute goals waiting behind the current one
	// (goal moves with replace false).
	Queued int
}

// queued is an absolute goal waiting for the current one to end.
type queued struct {
	cmd   string // command type of a Cartesian goal
	mode  Mode   // JointGoal or CartesianGoal
	goal  []float64
	cart  CartesianMoveRequest
	speed float64
}

// maxQueue bounds the goals waiting behind the current one.
const maxQueue = 16

// Controller is the jog logic: requests in, one joint target per cycle
// out. Its step is a pure function of its state, the measured joints and
// the time passed in; it never reads the clock. All methods are safe for
// concurrent use (one mutex): service callbacks call Start*/Stop/
// Heartbeat while the loop calls Step.
//
// Every motion is a profile of the commanded joints (position and
// velocity, advanced one cycle per Step): within each joint's velocity
// and acceleration limits, synchronised for point-to-point moves, along
// the straight line for LIN goals. Each Step sends the next point of it.
type Controller struct {
	// req serialises the solving of new Cartesian goals, done outside mu;
	// it guards solver, line, reqSeed, reqSol and reqAmax. Lock order:
	// req, then mu.
	req                      sync.Mutex
	reqSeed, reqSol, reqAmax []float64
	line                     *kinematics.Solver // one attempt from the seed, for LIN plans (under req)

	mu     sync.Mutex
	p      Params
	chain  *kinematics.Chain  // with the effective limits
	solver *kinematics.Solver // full search with restarts, for new goals (under req)
	local  *kinematics.Solver // one attempt from the seed, for each cycle
	frames FrameSource
	cfg    Config
	names  []string
	lo, hi []float64 // effective limits
	steps  []float64 // joint_limits.step [rad or m], 0: none
	vmax   []float64 // [rad/s or m/s]
	amax   []float64 // [rad/s² or m/s²]

	mode    Mode
	reason  string
	speed   float64
	beat    time.Time
	timeout time.Duration
	period  time.Duration

	measured   []float64
	measuredAt time.Time
	haveState  bool

	dir        []float64 // joint delta: unit direction
	pendingDir []float64 // joint delta: direction for the next step target (replace false)
	hasPending bool
	goal       []float64 // joint and Cartesian goals

	cart     CartesianMoveRequest
	dirP     r3.Vec         // Cartesian delta: unit position direction (or zero)
	dirR     r3.Vec         // unit (rz, ry, rx) direction (or zero)
	lastPose geom.Transform // the last incremental target computed
	havePose bool
	curPose  geom.Transform // the incremental target the joints head for
	haveCur  bool
	pend     []float64 // a computed incremental target waiting (replace false)
	pendPose geom.Transform
	havePend bool
	goalCmd  string // command type of the current absolute goal
	// relType is the relative command type of the current incremental
	// Cartesian move ("" none); relWorld the last T_base_world tf gave
	// (RELW), the base until then.
	relType  string
	relWorld geom.Transform

	// The commanded state: the point last sent, position and velocity.
	qc, vc []float64
	// fresh: the motion starts from rest at the measured joints (set
	// when a move starts while idle); retarget: the tracker's target is
	// to be set from the mode's goal at the next Step.
	fresh, retarget bool
	// The joint tracker: every joint heads for trk with its limits tv,
	// ta; arrived once all are there at rest.
	trk, tv, ta []float64
	arrived     bool
	stepMoved   bool // the last nextJointStep changed the target
	finalSent   bool // the goal at rest has been sent
	queue       []queued
	// The straight line of a LIN goal and the state along it.
	path       *control.Line
	ps, pv     float64 // [m or rad], [m/s or rad/s]
	pk         int     // segment of ps
	brk        control.Brake
	brkStart   time.Time
	brakeMoved bool // the brake's rest point was sent

	holdPending bool
	scratch     []float64 // joint state being read by name
	target      []float64 // Step's output
	velocity    []float64 // Step's output velocities
	next        []float64 // Step's lookahead point (JointTarget.Next)
	nextVel     []float64
	stopTarget  []float64 // Stop's output, apart: Stop may run while a Step target is read
	stopVel     []float64
	out         JointTarget
	sent, holds uint64
}

// New validates cfg and returns an idle controller.
func New(cfg Config) (*Controller, error) {
	if cfg.Chain == nil {
		return nil, fmt.Errorf("jog: new: %w: no kinematic chain", ErrParam)
	}
	p := DefaultParams()
	if cfg.Params != nil {
		p = *cfg.Params
	}
	if err := p.Validate(); err != nil {
		return nil, fmt.Errorf("jog: new: %w", err)
	}
	if err := CheckRelative(&p, cfg.Relative); err != nil {
		return nil, fmt.Errorf("jog: new: %w", err)
	}
	if cfg.GoalTolerance < 0 || cfg.DefaultVelocity < 0 || cfg.JointStateTimeout < 0 {
		return nil, fmt.Errorf("jog: new: %w: negative tolerance, velocity or timeout", ErrParam)
	}
	if cfg.GoalTolerance == 0 {
		cfg.GoalTolerance = 1e-3
	}
	if cfg.DefaultVelocity == 0 {
		cfg.DefaultVelocity = 0.5
	}
	if cfg.JointStateTimeout == 0 {
		cfg.JointStateTimeout = 500 * time.Millisecond
	}
	n := cfg.Chain.DOF()
	joints, steps, err := JointRanges(cfg.Chain, p)
	if err != nil {
		return nil, fmt.Errorf("jog: new: %w", err)
	}
	c := &Controller{
		p: p, frames: cfg.Frames, cfg: cfg,
		lo: make([]float64, n), hi: make([]float64, n), vmax: make([]float64, n),
		measured: make([]float64, n), dir: make([]float64, n), goal: make([]float64, n),
		target: make([]float64, n), stopTarget: make([]float64, n), scratch: make([]float64, n),
		next: make([]float64, n), nextVel: make([]float64, n),
		reqSeed: make([]float64, n), reqSol: make([]float64, n), reqAmax: make([]float64, n),
		pend: make([]float64, n), amax: make([]float64, n), pendingDir: make([]float64, n), qc: make([]float64, n), vc: make([]float64, n),
		trk: make([]float64, n), tv: make([]float64, n), ta: make([]float64, n), velocity: make([]float64, n),
		stopVel: make([]float64, n), brk: control.Brake{Q0: make([]float64, n), V0: make([]float64, n)},
		relWorld: geom.Identity(), // until tf gives the world frame
		steps:    steps,
	}
	if len(p.JointAccelerations) != 0 && len(p.JointAccelerations) != n {
		return nil, fmt.Errorf("jog: new: %w: %d joint_acceleration_limits for %d joints", ErrParam, len(p.JointAccelerations), n)
	}
	for i := range joints {
		j := &joints[i]
		c.lo[i], c.hi[i] = j.Lower, j.Upper
		c.vmax[i] = j.MaxVelocity
		if c.vmax[i] == 0 {
			c.vmax[i] = cfg.DefaultVelocity
		}
	}
	chain, err := kinematics.NewChain(cfg.Chain.Base, cfg.Chain.TipName, joints, cfg.Chain.Tip)
	if err != nil {
		return nil, fmt.Errorf("jog: new: %w", err)
	}
	if c.solver, err = kinematics.NewSolver(chain, cfg.IK); err != nil {
		return nil, fmt.Errorf("jog: new: %w", err)
	}
	// Each cycle's target must stay on the arm's current branch: a random
	// restart could find a far-away configuration, so no restarts there.
	local := cfg.IK
	local.MaxAttempts = 1
	if c.local, err = kinematics.NewSolver(chain, local); err != nil {
		return nil, fmt.Errorf("jog: new: %w", err)
	}
	if c.line, err = kinematics.NewSolver(chain, local); err != nil {
		return nil, fmt.Errorf("jog: new: %w", err)
	}
	c.chain = chain
	c.names = chain.JointNames()
	c.applyParams()
	c.out.JointNames = c.names
	return c, nil
}

// CheckRelative refuses, wrapping ErrParam and ErrRelativeOutput, a
// relative cartesian_delta_command_type in p when the output takes joint
// targets only (relative false).
func CheckRelative(p *Params, relative bool) error {
	if t := p.CartesianDelta.CommandType; control.IsRelative(t) && !relative {
		return fmt.Errorf("%w: cartesian_delta_command_type %s sends increments to a robot that takes relative Cartesian commands: %w (use PTP)", ErrParam, t, ErrRelativeOutput)
	}
	return nil
}

func (c *Controller) applyParams() {
	c.timeout = time.Duration(c.p.HeartbeatTimeout * float64(time.Second))
	c.period = time.Duration(float64(time.Second) / c.p.UpdateRate)
	for i := range c.amax {
		c.amax[i] = c.p.DefaultJointAcceleration
		if len(c.p.JointAccelerations) == len(c.amax) {
			c.amax[i] = c.p.JointAccelerations[i]
		}
	}
}
