package rosparam

import (
	"errors"
	"fmt"
	"math"
	"strings"
)

// ErrTable is wrapped by every error about a parameter table itself (a bug
// in the node, found by its tests).
var ErrTable = errors.New("invalid parameter table")

// Range bounds a numeric parameter (or each element of a numeric array):
// From <= value <= To and, when Step is not 0, value = From + k*Step. For an
// integer parameter From, To and Step must be whole numbers.
type Range struct {
	From float64
	To   float64
	Step float64
}

// Param describes one parameter of a node: the core of every node provides
// a Table of them, tested without ROS, and the ROS layer declares them.
type Param struct {
	// Name is the parameter name; '.' separates levels ("limits.speed").
	Name string
	// Type is one of the Parameter* type constants; it must match
	// Default.Type. Parameters are statically typed: a set of another type is
	// refused.
	Type uint8
	// Default is the value used when no override is given.
	Default ParameterValue
	// Unit is the SI unit ("m/s", "rad", "s", "Hz"), or "" when unitless;
	// the descriptor's description ends with it in brackets.
	Unit string
	// Description says what the parameter does, for `ros2 param describe`.
	Description string
	// Constraints is free text shown as additional_constraints (optional).
	Constraints string
	// Range bounds a numeric parameter (optional).
	Range *Range
	// ReadOnly parameters can only be given at start-up (a set is refused).
	ReadOnly bool
	// Validate, when not nil, checks a value that already has the right type
	// and is in Range; a non-nil error refuses it, its text becomes the
	// reason. It must be fast, pure and safe for concurrent use.
	Validate func(ParameterValue) error
}

// Table is a node's parameter table.
type Table []Param

// Descriptor returns the ParameterDescriptor that describes p.
func (p Param) Descriptor() ParameterDescriptor {
	d := ParameterDescriptor{
		Name:                  p.Name,
		Type:                  p.Type,
		Description:           p.Description,
		AdditionalConstraints: p.Constraints,
		ReadOnly:              p.ReadOnly,
	}
	if p.Unit != "" {
		d.Description = strings.TrimSpace(d.Description + " [" + p.Unit + "]")
	}
	if p.Range != nil {
		switch p.Type {
		case ParameterInteger, ParameterIntegerArray:
			d.IntegerRange = []IntegerRange{{
				FromValue: int64(p.Range.From),
				ToValue:   int64(p.Range.To),
				Step:      uint64(p.Range.Step),
			}}
		case ParameterDouble, ParameterDoubleArray:
			d.FloatingPointRange = []FloatingPointRange{{
				FromValue: p.Range.From,
				ToValue:   p.Range.To,
				Step:      p.Range.Step,
			}}
		}
	}
	return d
}

// Check reports every mistake in the table: empty or repeated names, a
// name that is both a parameter and a prefix of others, a type that does not
// match the default, a range on a non-numeric type or with bad bounds, a
// default that its own range or validator refuses.
func (t Table) Check() error {
	var errs []error
	seen := map[string]bool{}
	for _, p := range t {
		if seen[p.Name] {
			errs = append(errs, fmt.Errorf("%q declared twice", p.Name))
		}
		seen[p.Name] = true
		if err := p.check(); err != nil {
			errs = append(errs, err)
		}
	}
	for _, p := range t {
		for _, q := range t {
			if strings.HasPrefix(q.Name, p.Name+".") {
				errs = append(errs, fmt.Errorf("%q is both a parameter and a prefix of %q", p.Name, q.Name))
			}
		}
	}
	if len(errs) > 0 {
		return fmt.Errorf("rosparam: %w: %w", ErrTable, errors.Join(errs...))
	}
	return nil
}

func (p Param) check() error {
	if !validParamName(p.Name) {
		return fmt.Errorf("invalid parameter name %q", p.Name)
	}
	if p.Type == ParameterNotSet || p.Type > ParameterStringArray {
		return fmt.Errorf("%s: type %s cannot be declared", p.Name, TypeName(p.Type))
	}
	if p.Default.Type != p.Type {
		return fmt.Errorf("%s: default is %s, type is %s", p.Name, TypeName(p.Default.Type), TypeName(p.Type))
	}
	if r := p.Range; r != nil {
		numeric := p.Type == ParameterInteger || p.Type == ParameterIntegerArray ||
			p.Type == ParameterDouble || p.Type == ParameterDoubleArray
		if !numeric {
			return fmt.Errorf("%s: a range needs a numeric type, not %s", p.Name, TypeName(p.Type))
		}
		if math.IsNaN(r.From) || math.IsNaN(r.To) || math.IsNaN(r.Step) || r.From > r.To || r.Step < 0 {
			return fmt.Errorf("%s: bad range %+v", p.Name, *r)
		}
		if (p.Type == ParameterInteger || p.Type == ParameterIntegerArray) &&
			(r.From != math.Trunc(r.From) || r.To != math.Trunc(r.To) || r.Step != math.Trunc(r.Step) ||
				math.Abs(r.From) > 1<<62 || math.Abs(r.To) > 1<<62 || r.Step > 1<<62) {
			return fmt.Errorf("%s: an integer range needs whole bounds and step: %+v", p.Name, *r)
		}
	}
	if reason := p.accepts(p.Default); reason != "" {
		return fmt.Errorf("%s: default refused: %s", p.Name, reason)
	}
	return nil
}

// validParamName: non-empty '.'-separated tokens of letters, digits, '_'
// and '/' (topic names inside a name, as in rclcpp's
// "qos_overrides./ns/topic.publisher.depth").
func validParamName(name string) bool {
	for _, tok := range strings.Split(name, ".") {
		if !isToken(strings.ReplaceAll(tok, "/", "_")) {
			return false
		}
	}
	return true
}

// accepts returns "" when v is a valid value for p (type, range, validator)
// or the reason it is not, worded as rclcpp words it.
func (p Param) accepts(v ParameterValue) string {
	if v.Type != p.Type {
		hint := ""
		if p.Type == ParameterDouble && v.Type == ParameterInteger ||
			p.Type == ParameterDoubleArray && v.Type == ParameterIntegerArray {
			hint = " (write a double with a decimal point: 1.0, not 1)"
		}
		return fmt.Sprintf("Wrong parameter type, parameter {%s} is of type {%s}, setting it to {%s} is not allowed.%s",
			p.Name, TypeName(p.Type), TypeName(v.Type), hint)
	}
	if reason := p.Descriptor().rangeReason(v); reason != "" {
		return reason
	}
	if p.Validate != nil {
		if err := p.Validate(v); err != nil {
			return fmt.Sprintf("Parameter {%s}: %v", p.Name, err)
		}
	}
	return ""
}

// rangeReason checks v against the descriptor's range, element by element
// for arrays, with rclcpp's rule: the bounds themselves are always valid,
// then the interval, then the step (doubles compared within 100 ULP).
func (d ParameterDescriptor) rangeReason(v ParameterValue) string {
	if len(d.IntegerRange) > 0 {
		r := d.IntegerRange[0]
		ok := func(x int64) bool {
			if x == r.FromValue || x == r.ToValue {
				return true
			}
			if x < r.FromValue || x > r.ToValue {
				return false
			}
			return r.Step == 0 || uint64(x-r.FromValue)%r.Step == 0
		}
		vals := v.IntegerArrayValue
		if v.Type == ParameterInteger {
			vals = []int64{v.IntegerValue}
		}
		if !all(vals, ok) {
			return fmt.Sprintf("Parameter {%s} doesn't comply with integer range.", d.Name)
		}
	}
	if len(d.FloatingPointRange) > 0 {
		r := d.FloatingPointRange[0]
		ok := func(x float64) bool {
			if doublesEqual(x, r.FromValue) || doublesEqual(x, r.ToValue) {
				return true
			}
			if !(x >= r.FromValue && x <= r.ToValue) { // NaN fails here
				return false
			}
			if r.Step == 0 {
				return true
			}
			k := math.Round((x - r.FromValue) / r.Step)
			return doublesEqual(x, r.FromValue+k*r.Step)
		}
		vals := v.DoubleArrayValue
		if v.Type == ParameterDouble {
			vals = []float64{v.DoubleValue}
		}
		if !all(vals, ok) {
			return fmt.Sprintf("Parameter {%s} doesn't comply with floating point range.", d.Name)
		}
	}
	return ""
}

// all reports whether ok holds for every element of s.
func all[T any](s []T, ok func(T) bool) bool {
	for _, x := range s {
		if !ok(x) {
			return false
		}
	}
	return true
}

// doublesEqual is rclcpp's comparison: within 100 ULP of the magnitude.
func doublesEqual(x, y float64) bool {
	const eps = 2.220446049250313e-16
	return math.Abs(x-y) <= eps*math.Abs(x+y)*100
}
