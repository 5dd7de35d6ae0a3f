package jog

import (
	"errors"
	"fmt"
	"math"
	"strings"
)

// ErrParam is wrapped by every parameter error: unknown name, wrong type,
// value out of range.
var ErrParam = errors.New("jog: bad parameter")

// MoveSettings are the motion-command settings of one kind of move, in the
// drag&bot control panel's terms (a robot_movement_interface command).
// Only Velocity and VelocityType shape the JointTrajectory output (see
// Param.Used); the rest are kept for drivers that take such commands.
type MoveSettings struct {
	Replace          bool    // command list replace flag
	CommandType      string  // e.g. "PTP", "PTPCP", "LIN"
	VelocityType     string  // "PERCENT" (of each joint's velocity limit)
	AccelerationType string  // e.g. "PERCENT"
	BlendingType     string  // e.g. "M"
	Velocity         float64 // [VelocityType units], default 5 (%)
	Acceleration     float64 // [AccelerationType units], default 100 (%)
	Blending         float64 // [BlendingType units], default 0.01 (m)
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

// Params are the jog server's parameters with the names, meanings and
// defaults of the drag&bot control panel. Build them with DefaultParams
// and change them with Set, which validates.
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

	JointsDelta, JointsGoal, CartesianDelta, CartesianGoal MoveSettings

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

	RobotData RobotData

	JointLimits []JointLimit // default none (the URDF limits apply)
}

// DefaultParams returns every parameter at its drag&bot default.
func DefaultParams() Params {
	var p Params
	for _, d := range paramTable {
		_ = d.set(&p, d.Default) // the defaults are checked by the tests
	}
	return p
}

// ParamType is the type of a parameter value, as in ROS 2.
type ParamType int

// Parameter types.
const (
	Bool ParamType = iota
	Double
	String
	DoubleArray
	StringArray
)

// String returns the ROS 2 name of the type.
func (t ParamType) String() string {
	return [...]string{"bool", "double", "string", "double_array", "string_array"}[t]
}

// Value is a parameter value; the field matching Type is meaningful.
type Value struct {
	Type    ParamType
	Bool    bool
	Double  float64
	String  string
	Doubles []float64
	Strings []string
}

// BoolValue returns a bool Value.
func BoolValue(b bool) Value { return Value{Type: Bool, Bool: b} }

// DoubleValue returns a double Value.
func DoubleValue(f float64) Value { return Value{Type: Double, Double: f} }

// StringValue returns a string Value.
func StringValue(s string) Value { return Value{Type: String, String: s} }

// DoublesValue returns a double-array Value.
func DoublesValue(fs ...float64) Value { return Value{Type: DoubleArray, Doubles: fs} }

// StringsValue returns a string-array Value.
func StringsValue(ss ...string) Value { return Value{Type: StringArray, Strings: ss} }

// GoString formats the value as YAML would show it.
func (v Value) GoString() string {
	switch v.Type {
	case Bool:
		return fmt.Sprint(v.Bool)
	case Double:
		return fmt.Sprint(v.Double)
	case String:
		return fmt.Sprintf("'%s'", v.String)
	case DoubleArray:
		return fmt.Sprint(v.Doubles)
	default:
		return fmt.Sprintf("%q", v.Strings)
	}
}

// Param describes one parameter: everything the ROS 2 layer needs to
// declare it and to validate a change.
type Param struct {
	Name        string
	Type        ParamType
	Default     Value
	Unit        string // e.g. "s", "m", "rad", "%", "Hz"; "" if none
	Description string
	// Min and Max bound a double (inclusive unless MinOpen); NaN: no
	// bound.
	Min, Max float64
	MinOpen  bool
	// Choices lists the accepted strings; empty: any non-empty string.
	Choices []string
	// ReadOnly parameters are read at start only.
	ReadOnly bool
	// Used is false for settings accepted for drag&bot compatibility that
	// do not change the JointTrajectory output (robot_movement_interface
	// command details).
	Used bool

	field func(p *Params) any // pointer to the field
}

// Parameters returns a copy of the table of every parameter, in
// declaration order.
func Parameters() []Param { return append([]Param(nil), paramTable...) }

// LookupParam returns the description of the parameter name.
func LookupParam(name string) (Param, bool) {
	for _, d := range paramTable {
		if d.Name == name {
			return d, true
		}
	}
	return Param{}, false
}

// Set validates v against the table and stores it. Errors wrap ErrParam.
func (p *Params) Set(name string, v Value) error {
	d, ok := LookupParam(name)
	if !ok {
		return fmt.Errorf("%w: unknown parameter %q", ErrParam, name)
	}
	if err := d.Check(v); err != nil {
		return err
	}
	return d.set(p, v)
}

// Get returns the current value of the parameter name.
func (p *Params) Get(name string) (Value, error) {
	d, ok := LookupParam(name)
	if !ok {
		return Value{}, fmt.Errorf("%w: unknown parameter %q", ErrParam, name)
	}
	switch f := d.field(p).(type) {
	case *bool:
		return BoolValue(*f), nil
	case *float64:
		return DoubleValue(*f), nil
	case *string:
		return StringValue(*f), nil
	case *[]JointLimit:
		return jointLimitsValue(d.Name, *f), nil
	}
	return Value{}, fmt.Errorf("%w: %q has no field", ErrParam, name)
}

// Check validates v for the parameter: type, finiteness, range, choices.
func (d Param) Check(v Value) error {
	if v.Type != d.Type {
		return fmt.Errorf("%w: %s: type %v, want %v", ErrParam, d.Name, v.Type, d.Type)
	}
	bad := func(format string, a ...any) error {
		return fmt.Errorf("%w: %s = %s: %s", ErrParam, d.Name, v.GoString(), fmt.Sprintf(format, a...))
	}
	checkNum := func(x float64) error {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return bad("not a finite number")
		}
		if !math.IsNaN(d.Min) && (x < d.Min || (d.MinOpen && x == d.Min)) {
			if d.MinOpen {
				return bad("must be > %g", d.Min)
			}
			return bad("must be >= %g", d.Min)
		}
		if !math.IsNaN(d.Max) && x > d.Max {
			return bad("must be <= %g", d.Max)
		}
		return nil
	}
	switch d.Type {
	case Double:
		return checkNum(v.Double)
	case DoubleArray:
		for _, x := range v.Doubles {
			if err := checkNum(x); err != nil {
				return err
			}
		}
	case String:
		if len(d.Choices) > 0 {
			for _, c := range d.Choices {
				if v.String == c {
					return nil
				}
			}
			return bad("must be one of %s", strings.Join(d.Choices, ", "))
		}
		if v.String == "" {
			return bad("must not be empty")
		}
	case StringArray:
		for _, s := range v.Strings {
			if s != "" && s != "deg" && s != "m" {
				return bad(`units must be "", "deg" or "m"`)
			}
		}
	}
	return nil
}

func (d Param) set(p *Params, v Value) error {
	switch f := d.field(p).(type) {
	case *bool:
		*f = v.Bool
	case *float64:
		*f = v.Double
	case *string:
		*f = v.String
	case *[]JointLimit:
		return setJointLimits(d.Name, f, v)
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

func jointLimitsValue(name string, l []JointLimit) Value {
	switch name {
	case jointLimitsUnit:
		s := make([]string, len(l))
		for i, x := range l {
			s[i] = x.Unit
		}
		return StringsValue(s...)
	default:
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
		return DoublesValue(f...)
	}
}

// setJointLimits stores one of the four arrays, growing the list to the
// longest array given so far. Consistency (same lengths, min <= max) is
// checked by Params.Validate.
func setJointLimits(name string, l *[]JointLimit, v Value) error {
	n := len(v.Doubles)
	if name == jointLimitsUnit {
		n = len(v.Strings)
	}
	for len(*l) < n {
		*l = append(*l, JointLimit{})
	}
	for i := range *l {
		x := &(*l)[i]
		switch name {
		case jointLimitsMin:
			x.Min = at(v.Doubles, i)
		case jointLimitsMax:
			x.Max = at(v.Doubles, i)
		case jointLimitsStep:
			x.Step = at(v.Doubles, i)
		case jointLimitsUnit:
			x.Unit = ""
			if i < len(v.Strings) {
				x.Unit = v.Strings[i]
			}
		}
	}
	return nil
}

func at(f []float64, i int) float64 {
	if i < len(f) {
		return f[i]
	}
	return 0
}

// Validate checks every parameter against the table and the joint limits
// for consistency (min <= max). Errors wrap ErrParam.
func (p *Params) Validate() error {
	for _, d := range paramTable {
		v, err := p.Get(d.Name)
		if err != nil {
			return err
		}
		if err := d.Check(v); err != nil {
			return err
		}
	}
	for i, l := range p.JointLimits {
		if l.Min > l.Max {
			return fmt.Errorf("%w: joint_limits[%d]: min %g > max %g", ErrParam, i, l.Min, l.Max)
		}
	}
	return nil
}

// Radians returns the limit in the joint's unit for the kinematics: [rad]
// for degrees, [m] for metres.
func (l JointLimit) Radians() (lo, hi float64) {
	if l.Unit == "m" {
		return l.Min, l.Max
	}
	return l.Min * math.Pi / 180, l.Max * math.Pi / 180
}
