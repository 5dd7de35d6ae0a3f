package jog

import (
	"fmt"
	"math"

	"github.com/telebridge/telebridge/pkg/jog/control"
	"github.com/telebridge/telebridge/pkg/rosparam"
)

// ErrParam is wrapped by every parameter error: unknown name, wrong type,
// value out of range, inconsistent joint limits. It is control.ErrParam.
var ErrParam = control.ErrParam

// Command types (drag&bot's robot_movement_interface names) that the jog
// parameters accept.
const (
	// CommandPTP: point to point in joint space, stopping at every target.
	CommandPTP = "PTP"
	// CommandPTPCP: point to point with continuous path: the next target
	// is taken within the blending radius, without stopping.
	CommandPTPCP = "PTPCP"
	// CommandLIN: the tool moves along the straight line (Cartesian goals).
	CommandLIN = "LIN"
)

// MoveSettings are the motion-command settings of one kind of move, in the
// drag&bot control panel's terms (a robot_movement_interface command);
// docs/jog/services.md says how each shapes the profile.
type MoveSettings struct {
	Replace          bool    // a new command replaces the current one (else it waits, or applies from the next target)
	CommandType      string  // "PTP", "PTPCP" or "LIN", as each move allows
	VelocityType     string  // "PERCENT" (of each joint's velocity limit)
	AccelerationType string  // "PERCENT" (of each joint's acceleration limit)
	BlendingType     string  // "M": the blending radius in metres (joint moves: rad or m in joint space)
	Velocity         float64 // [%], default 5
	Acceleration     float64 // [%], default 100
	Blending         float64 // [m, or rad/m in joint space], default 0.01
}

// RobotData names the robot's frames and description.
type RobotData struct {
	FixedFrame  string // robot base frame, default "manufacturer_base"
	FlangeFrame string // tool frame, default "robot_state_tcp"
	URDFParam   string // parameter holding the URDF, default "robot_description"
	WorldFrame  string // world frame, default "world"
}

// JointLimit is one entry of the joint_limits parameter: a range in
// degrees, or in metres when Unit is "m".
type JointLimit struct {
	Min, Max float64 // [deg, or m when Unit is "m"]
	Unit     string  // "" or "deg" for degrees, "m" for metres
	Step     float64 // GUI step [same unit]; 0 if not given
}

// Radians returns the limit in the joint's unit for the kinematics: [rad]
// for degrees, [m] for metres.
func (l JointLimit) Radians() (lo, hi float64) {
	if l.Unit == "m" {
		return l.Min, l.Max
	}
	return l.Min * math.Pi / 180, l.Max * math.Pi / 180
}

// Params are the jog server's parameters with the names, meanings and
// defaults of the drag&bot control panel (ParameterTable lists them).
// Build them with DefaultParams and change them with Set, which
// validates.
type Params struct {
	UpdateRate       float64 // loop rate [Hz], default 20
	HeartbeatTimeout float64 // [s], default 0.2

	StepTranslation float64 // [m] per iteration, default 0.01
	StepRotation    float64 // [rad] per iteration, default 0.2
	StepJoints      float64 // [rad or m] per iteration, default 0.2

	StepScaleJoints    bool // scale step_joints by the speed override, default false
	StepScaleCartesian bool // scale the Cartesian steps by the speed override, default false

	StepTranslationFactor float64 // recompute when this fraction of the step is left, default 1
	StepRotationFactor    float64 // same for rotation, default 1

	MinTranslationStep float64 // [m], default 0
	MinRotationStep    float64 // [rad], default 0

	JointsDelta, JointsGoal, CartesianDelta, CartesianGoal MoveSettings // the move settings of each service

	CartesianDeltaBlendingRot     float64 // [m], default 0.01
	CartesianDeltaAccelerationRot float64 // [%], default 50

	CartesianGoalCommandTypeRotational    string // default "PTP"
	CartesianGoalCommandTypeTranslational string // default "PTP"

	CartesianGoalLinCommandTypeRotational    string  // default "LIN"
	CartesianGoalLinCommandTypeTranslational string  // default "LIN"
	CartesianGoalLinVelocityType             string  // default "M/S"
	CartesianGoalLinAccelerationType         string  // default "PERCENT"
	CartesianGoalLinVelocity                 float64 // [m/s], default 0.1
	CartesianGoalLinAcceleration             float64 // [%], default 100

	RobotData RobotData // frames, chain and rates of the arm

	JointLimits []JointLimit // default none (the URDF limits apply)

	// JointAccelerations are the joints' acceleration limits [rad/s² or
	// m/s²], one per joint; empty: DefaultJointAcceleration for all.
	JointAccelerations []float64
	// DefaultJointAcceleration is the acceleration limit of every joint
	// when JointAccelerations is empty [rad/s² or m/s²], default 2.
	DefaultJointAcceleration float64
	// MaxStopTime bounds the deceleration of a stop [s], default 0.5: a
	// stop within the acceleration limits that would take longer
	// decelerates harder, to rest in this time.
	MaxStopTime float64
}

// DefaultParams returns every parameter at its drag&bot default.
func DefaultParams() Params {
	var p Params
	for _, e := range entries {
		_ = e.set(&p, e.Default) // the defaults are checked by the tests
	}
	return p
}

// ParameterTable returns the table of every parameter for pkg/rosparam:
// name, type, default, unit, description, range, read-only, validation.
// Package jog/node declares jog_server's parameters from it
// (node.ParameterTable); Params validates every value against it.
func ParameterTable() rosparam.Table {
	t := make(rosparam.Table, len(entries))
	for i, e := range entries {
		t[i] = e.Param
	}
	return t
}

func lookup(name string) (*entry, error) {
	for i := range entries {
		if entries[i].Name == name {
			return &entries[i], nil
		}
	}
	return nil, fmt.Errorf("%w: unknown parameter %q", ErrParam, name)
}

// check validates v for the entry as rclcpp would: type, range, then the
// entry's own validation.
func (e *entry) check(v rosparam.ParameterValue) error {
	if v.Type != e.Type {
		return fmt.Errorf("%w: %s: type %s, want %s", ErrParam, e.Name, rosparam.TypeName(v.Type), rosparam.TypeName(e.Type))
	}
	if r := e.Range; r != nil {
		vals := v.DoubleArrayValue
		if v.Type == rosparam.ParameterDouble {
			vals = []float64{v.DoubleValue}
		}
		for _, x := range vals {
			if !(x >= r.From && x <= r.To) {
				return fmt.Errorf("%w: %s = %v: not in [%g, %g]", ErrParam, e.Name, v, r.From, r.To)
			}
		}
	}
	if e.Validate != nil {
		if err := e.Validate(v); err != nil {
			return fmt.Errorf("%w: %s = %v: %w", ErrParam, e.Name, v, err)
		}
	}
	return nil
}

// Set validates v against the table and stores it. Errors wrap ErrParam.
// Cross-parameter consistency (the joint_limits arrays) is checked by
// Validate.
func (p *Params) Set(name string, v rosparam.ParameterValue) error {
	e, err := lookup(name)
	if err != nil {
		return err
	}
	if err := e.check(v); err != nil {
		return err
	}
	return e.set(p, v)
}

// Apply sets every jog parameter of update (for example the store's values
// at start-up, or a live change) and validates the result as a whole.
// Parameters that are not jog's (use_sim_time, which every rosparam store
// declares) are skipped; rosparam itself reports unknown names. On error p
// is unchanged.
func (p *Params) Apply(update []rosparam.Parameter) error {
	next := p.clone()
	for _, u := range update {
		if _, err := lookup(u.Name); err != nil {
			continue
		}
		if err := next.Set(u.Name, u.Value); err != nil {
			return err
		}
	}
	if err := next.Validate(); err != nil {
		return err
	}
	*p = next
	return nil
}

func (p *Params) clone() Params {
	c := *p
	c.JointLimits = append([]JointLimit(nil), p.JointLimits...)
	c.JointAccelerations = append([]float64(nil), p.JointAccelerations...)
	return c
}

// Get returns the current value of the parameter name.
func (p *Params) Get(name string) (rosparam.ParameterValue, error) {
	e, err := lookup(name)
	if err != nil {
		return rosparam.ParameterValue{}, err
	}
	switch f := e.field(p).(type) {
	case *bool:
		return rosparam.Bool(*f), nil
	case *float64:
		return rosparam.Double(*f), nil
	case *string:
		return rosparam.String(*f), nil
	case *[]JointLimit:
		return jointLimitsValue(e.Name, *f), nil
	case *[]float64:
		return rosparam.DoubleArray(append([]float64{}, *f...)), nil
	}
	return rosparam.ParameterValue{}, fmt.Errorf("%w: %q has no field", ErrParam, name)
}

// Validate checks every parameter against the table and the joint_limits
// arrays for consistency (min <= max, the same number of min and max).
// Errors wrap ErrParam.
func (p *Params) Validate() error {
	for i := range entries {
		v, err := p.Get(entries[i].Name)
		if err != nil {
			return err
		}
		if err := entries[i].check(v); err != nil {
			return err
		}
	}
	for i, l := range p.JointLimits {
		if l.Min > l.Max {
			return fmt.Errorf("%w: joint_limits[%d]: min %g > max %g", ErrParam, i, l.Min, l.Max)
		}
		if !(l.Step >= 0) || math.IsInf(l.Step, 0) {
			return fmt.Errorf("%w: joint_limits[%d]: step %g (want >= 0; 0 for none)", ErrParam, i, l.Step)
		}
	}
	return nil
}

func (e *entry) set(p *Params, v rosparam.ParameterValue) error {
	switch f := e.field(p).(type) {
	case *bool:
		*f = v.BoolValue
	case *float64:
		*f = v.DoubleValue
	case *string:
		*f = v.StringValue
	case *[]JointLimit:
		setJointLimits(e.Name, f, v)
	case *[]float64:
		*f = append([]float64(nil), v.DoubleArrayValue...)
	}
	return nil
}

// The joint_limits parameter is four parallel arrays (ROS 2 parameters
// cannot be lists of maps): joint_limits.min, .max, .unit and .step.
const (
	jointLimitsMin  = "joint_limits.min"
	jointLimitsMax  = "joint_limits.max"
	jointLimitsUnit = "joint_limits.unit"
	jointLimitsStep = "joint_limits.step"
)

func jointLimitsValue(name string, l []JointLimit) rosparam.ParameterValue {
	if name == jointLimitsUnit {
		s := make([]string, len(l))
		for i, x := range l {
			s[i] = x.Unit
		}
		return rosparam.StringArray(s)
	}
	f := make([]float64, len(l))
	for i, x := range l {
		switch name {
		case jointLimitsMin:
			f[i] = x.Min
		case jointLimitsMax:
			f[i] = x.Max
		case jointLimitsStep:
			f[i] = x.Step
		}
	}
	return rosparam.DoubleArray(f)
}

// setJointLimits stores one of the four arrays, growing the list to the
// longest array given so far; missing entries read as 0 (or "").
// Consistency is checked by Params.Validate.
func setJointLimits(name string, l *[]JointLimit, v rosparam.ParameterValue) {
	n := len(v.DoubleArrayValue)
	if name == jointLimitsUnit {
		n = len(v.StringArrayValue)
	}
	for len(*l) < n {
		*l = append(*l, JointLimit{})
	}
	for i := range *l {
		x := &(*l)[i]
		switch name {
		case jointLimitsMin:
			x.Min = at(v.DoubleArrayValue, i)
		case jointLimitsMax:
			x.Max = at(v.DoubleArrayValue, i)
		case jointLimitsStep:
			x.Step = at(v.DoubleArrayValue, i)
		case jointLimitsUnit:
			x.Unit = ""
			if i < len(v.StringArrayValue) {
				x.Unit = v.StringArrayValue[i]
			}
		}
	}
}

func at(f []float64, i int) float64 {
	if i < len(f) {
		return f[i]
	}
	return 0
}
