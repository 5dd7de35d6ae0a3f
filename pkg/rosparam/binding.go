package rosparam

import (
	"fmt"
	"math"
	"time"
)

// Binding ties one parameter to a field of a core package's configuration
// struct C, so that a package writes its parameter table once: the
// declaration (name, unit, description, range, read-only) and where the
// value lives. Defaults are read from the package's default configuration,
// so Config.WithDefaults (or its equivalent) stays the one source of them.
type Binding[C any] struct {
	// Param is the declaration; its Default is filled in by Bindings.Table.
	Param
	// Get reads the field from a configuration.
	Get func(*C) ParameterValue
	// Set writes a value that has the declared type and passed the range
	// and validator checks.
	Set func(*C, ParameterValue)
}

// Bindings is the parameter table of a node bound to its configuration.
type Bindings[C any] []Binding[C]

// Table returns the declarations with their defaults taken from def.
func (bs Bindings[C]) Table(def C) Table {
	t := make(Table, len(bs))
	for i, b := range bs {
		t[i] = b.Param
		t[i].Default = b.Get(&def)
	}
	return t
}

// Apply writes each parameter into cfg. A name that no binding has, or a
// value of another type, is an error (nothing after it is applied).
func (bs Bindings[C]) Apply(cfg *C, params []Parameter) error {
	for _, p := range params {
		b, ok := bs.lookup(p.Name)
		if !ok {
			return fmt.Errorf("rosparam: no parameter %q", p.Name)
		}
		if p.Value.Type != b.Type {
			return fmt.Errorf("rosparam: parameter %q: %w", p.Name, errType(b.Type, p.Value.Type))
		}
		b.Set(cfg, p.Value)
	}
	return nil
}

// Load fills cfg from every bound parameter's current value in s (the
// start-up values: defaults with the overrides applied).
func (bs Bindings[C]) Load(cfg *C, s *Store) error {
	params := make([]Parameter, 0, len(bs))
	for _, b := range bs {
		v, ok := s.Get(b.Name)
		if !ok {
			return fmt.Errorf("rosparam: parameter %q is not declared", b.Name)
		}
		params = append(params, Parameter{Name: b.Name, Value: v})
	}
	return bs.Apply(cfg, params)
}

// Values returns the parameters of cfg, in table order.
func (bs Bindings[C]) Values(cfg *C) []Parameter {
	out := make([]Parameter, len(bs))
	for i, b := range bs {
		out[i] = Parameter{Name: b.Name, Value: b.Get(cfg)}
	}
	return out
}

func (bs Bindings[C]) lookup(name string) (Binding[C], bool) {
	for _, b := range bs {
		if b.Name == name {
			return b, true
		}
	}
	return Binding[C]{}, false
}

func errType(want, got uint8) error {
	return fmt.Errorf("has type %s, want %s", TypeName(got), TypeName(want))
}

// Opt adjusts a binding's declaration (range, read-only, validator).
type Opt func(*Param)

// ReadOnly makes a parameter settable only at start-up.
func ReadOnly() Opt { return func(p *Param) { p.ReadOnly = true } }

// Within bounds a numeric parameter to [from, to] (step 0: continuous).
func Within(from, to float64) Opt {
	return func(p *Param) { p.Range = &Range{From: from, To: to} }
}

// Check adds a validator for values that passed the type and range checks.
func Check(f func(ParameterValue) error) Opt { return func(p *Param) { p.Validate = f } }

// Constraint sets the free-text constraints shown by `ros2 param describe`.
func Constraint(text string) Opt { return func(p *Param) { p.Constraints = text } }

func bind[C any](name, unit, desc string, typ uint8, opts []Opt, get func(*C) ParameterValue, set func(*C, ParameterValue)) Binding[C] {
	b := Binding[C]{Param: Param{Name: name, Type: typ, Unit: unit, Description: desc}, Get: get, Set: set}
	for _, o := range opts {
		o(&b.Param)
	}
	return b
}

// BindDouble binds a float64 field [unit].
func BindDouble[C any](name, unit, desc string, field func(*C) *float64, opts ...Opt) Binding[C] {
	return bind(name, unit, desc, ParameterDouble, opts,
		func(c *C) ParameterValue { return Double(*field(c)) },
		func(c *C, v ParameterValue) { *field(c) = v.DoubleValue })
}

// BindSeconds binds a time.Duration field, exposed in seconds.
func BindSeconds[C any](name, desc string, field func(*C) *time.Duration, opts ...Opt) Binding[C] {
	return bind(name, "s", desc, ParameterDouble, opts,
		func(c *C) ParameterValue { return Double(field(c).Seconds()) },
		func(c *C, v ParameterValue) {
			*field(c) = time.Duration(math.Round(v.DoubleValue * float64(time.Second)))
		})
}

// BindInt binds an int field.
func BindInt[C any](name, unit, desc string, field func(*C) *int, opts ...Opt) Binding[C] {
	return bind(name, unit, desc, ParameterInteger, opts,
		func(c *C) ParameterValue { return Integer(int64(*field(c))) },
		func(c *C, v ParameterValue) { *field(c) = int(v.IntegerValue) })
}

// BindString binds a string field.
func BindString[C any](name, desc string, field func(*C) *string, opts ...Opt) Binding[C] {
	return bind(name, "", desc, ParameterString, opts,
		func(c *C) ParameterValue { return String(*field(c)) },
		func(c *C, v ParameterValue) { *field(c) = v.StringValue })
}

// BindBool binds a bool field.
func BindBool[C any](name, desc string, field func(*C) *bool, opts ...Opt) Binding[C] {
	return bind(name, "", desc, ParameterBool, opts,
		func(c *C) ParameterValue { return Bool(*field(c)) },
		func(c *C, v ParameterValue) { *field(c) = v.BoolValue })
}

// BindDoubles binds a []float64 field [unit]; the slice is copied both ways.
func BindDoubles[C any](name, unit, desc string, field func(*C) *[]float64, opts ...Opt) Binding[C] {
	return bind(name, unit, desc, ParameterDoubleArray, opts,
		func(c *C) ParameterValue { return DoubleArray(append([]float64(nil), *field(c)...)) },
		func(c *C, v ParameterValue) { *field(c) = append([]float64(nil), v.DoubleArrayValue...) })
}

// BindStrings binds a []string field; the slice is copied both ways.
func BindStrings[C any](name, desc string, field func(*C) *[]string, opts ...Opt) Binding[C] {
	return bind(name, "", desc, ParameterStringArray, opts,
		func(c *C) ParameterValue { return StringArray(append([]string(nil), *field(c)...)) },
		func(c *C, v ParameterValue) { *field(c) = append([]string(nil), v.StringArrayValue...) })
}

// Nest lifts bindings of a sub-configuration I into an outer configuration
// O (a node's config that holds a driver's config, say), through field,
// which returns the sub-configuration inside an outer one.
func Nest[O, I any](bs Bindings[I], field func(*O) *I) Bindings[O] {
	out := make(Bindings[O], len(bs))
	for i, b := range bs {
		out[i] = Binding[O]{
			Param: b.Param,
			Get:   func(o *O) ParameterValue { return b.Get(field(o)) },
			Set:   func(o *O, v ParameterValue) { b.Set(field(o), v) },
		}
	}
	return out
}
