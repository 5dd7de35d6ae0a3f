package rosparam

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"
)

// ErrDeclare is wrapped by New's errors about a start-up value (an override
// of the wrong type, out of range, or refused by a validator).
var ErrDeclare = errors.New("parameter declaration refused")

// UseSimTime is the name of the parameter every ROS 2 node has; New declares
// it when the table does not.
const UseSimTime = "use_sim_time"

// useSimTimeParam is the declaration rclcpp makes in every node.
var useSimTimeParam = Param{
	Name:        UseSimTime,
	Type:        ParameterBool,
	Default:     Bool(false),
	Description: "Take time from the /clock topic instead of the system clock",
}

// Config configures a Store.
type Config struct {
	// Node is the node's fully qualified name ("/drv", "/robot1/drv"), as
	// FullyQualifiedName(Args.ResolveNode(...)) gives it. Required.
	Node string
	// Table declares the node's parameters. use_sim_time is added when
	// absent. Required (may be empty).
	Table Table
	// Overrides are the command-line values (Args.Overrides); those matching
	// Node replace the defaults. Optional.
	Overrides *Overrides
	// Clock stamps parameter events and follows use_sim_time. Optional:
	// defaults to NewClock(nil) (the system clock).
	Clock *Clock
	// Validate, when not nil, checks a whole accepted update (each value
	// already valid on its own) against the others; current returns the
	// present value of any parameter. A non-nil error refuses the update and
	// becomes the reason. It runs with the store locked: it must not call the
	// Store.
	Validate func(update []Parameter, current func(name string) ParameterValue) error
	// OnChange, when not nil, receives every accepted update (values copied)
	// so that the node applies it live. Calls are serialised and in commit
	// order, from the goroutine that set the parameters; it may read the
	// Store but must not set parameters.
	OnChange func(update []Parameter)
	// OnEvent, when not nil, receives the ParameterEvent of every accepted
	// update (and of the declarations, from New), for /parameter_events;
	// same calling rules as OnChange, called after it.
	OnEvent func(ParameterEvent)
}

// Store holds a node's declared parameters and implements the semantics of
// the six parameter services (see the methods named after them). All
// methods are safe for concurrent use.
type Store struct {
	node     string
	clock    *Clock
	validate func([]Parameter, func(string) ParameterValue) error
	onChange func([]Parameter)
	onEvent  func(ParameterEvent)
	unused   []string

	commit sync.Mutex // serialises updates and their notifications
	mu     sync.RWMutex
	params map[string]*entry
	names  []string // sorted
}

type entry struct {
	param Param
	desc  ParameterDescriptor
	value ParameterValue
}

// New declares the parameters of cfg.Table with their start-up values: the
// override for the node when one matches, else the default. It returns an
// error wrapping ErrTable for a faulty table, and ErrDeclare when overrides
// are refused (wrong type, out of range, validator: every refused one is
// named) or when Config.Validate refuses the start-up set as a whole. It
// calls OnEvent once with every declared parameter as new.
func New(cfg Config) (*Store, error) {
	if !strings.HasPrefix(cfg.Node, "/") {
		return nil, fmt.Errorf("rosparam: node name %q must be fully qualified", cfg.Node)
	}
	table := slices.Clone(cfg.Table)
	if !slices.ContainsFunc(table, func(p Param) bool { return p.Name == UseSimTime }) {
		table = append(table, useSimTimeParam)
	}
	if err := table.Check(); err != nil {
		return nil, err
	}
	if i := slices.IndexFunc(table, func(p Param) bool { return p.Name == UseSimTime }); table[i].Type != ParameterBool {
		return nil, fmt.Errorf("rosparam: %w: %s must be a bool", ErrTable, UseSimTime)
	}
	s := &Store{
		node:     cfg.Node,
		clock:    cfg.Clock,
		validate: cfg.Validate,
		onChange: cfg.OnChange,
		onEvent:  cfg.OnEvent,
		params:   make(map[string]*entry, len(table)),
	}
	if s.clock == nil {
		s.clock = NewClock(nil)
	}
	overrides := map[string]ParameterValue{}
	if cfg.Overrides != nil {
		overrides = cfg.Overrides.For(cfg.Node)
	}
	var declared []Parameter
	var refused []error
	for _, p := range table {
		v := p.Default
		if o, ok := overrides[p.Name]; ok {
			delete(overrides, p.Name)
			v = o
			if isEmptyArray(o) {
				if !isArray(p.Type) {
					refused = append(refused, fmt.Errorf("%s: an empty sequence is not of type %s", p.Name, TypeName(p.Type)))
					continue
				}
				v = typedEmpty(p.Type)
			}
			if reason := p.accepts(v); reason != "" {
				refused = append(refused, fmt.Errorf("%s: %s", p.Name, reason))
				continue
			}
		}
		v = v.Clone()
		s.params[p.Name] = &entry{param: p, desc: p.Descriptor(), value: v}
		s.names = append(s.names, p.Name)
		declared = append(declared, Parameter{Name: p.Name, Value: v.Clone()})
	}
	if len(refused) > 0 {
		return nil, fmt.Errorf("rosparam: %w: %w", ErrDeclare, errors.Join(refused...))
	}
	if s.validate != nil {
		if err := s.validate(cloneParams(declared), func(name string) ParameterValue {
			if e, ok := s.params[name]; ok {
				return e.value.Clone()
			}
			return ParameterValue{}
		}); err != nil {
			return nil, fmt.Errorf("rosparam: %w: %w", ErrDeclare, err)
		}
	}
	sort.Strings(s.names)
	for name := range overrides {
		s.unused = append(s.unused, name)
	}
	sort.Strings(s.unused)
	s.clock.SetUseSimTime(s.params[UseSimTime].value.BoolValue)
	if s.onEvent != nil {
		s.onEvent(ParameterEvent{Stamp: s.clock.Stamp(), Node: s.node, NewParameters: declared})
	}
	return s, nil
}

// Node returns the fully qualified node name.
func (s *Store) Node() string { return s.node }

// Clock returns the clock the store stamps events with and drives from
// use_sim_time.
func (s *Store) Clock() *Clock { return s.clock }

// Unused returns, sorted, the names of overrides that matched this node but
// no declared parameter (typos in a params file: rclcpp ignores them
// silently; a node should log them).
func (s *Store) Unused() []string { return slices.Clone(s.unused) }

// Get returns a copy of the value of a declared parameter.
func (s *Store) Get(name string) (ParameterValue, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	e, ok := s.params[name]
	if !ok {
		return ParameterValue{}, false
	}
	return e.value.Clone(), true
}

// Values returns a copy of every parameter, sorted by name.
func (s *Store) Values() []Parameter {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := make([]Parameter, len(s.names))
	for i, n := range s.names {
		out[i] = Parameter{Name: n, Value: s.params[n].value.Clone()}
	}
	return out
}

// GetParameters implements ~/get_parameters: one value per name, in order;
// an undeclared name gives a NOT_SET value.
func (s *Store) GetParameters(names []string) []ParameterValue {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := make([]ParameterValue, len(names))
	for i, n := range names {
		if e, ok := s.params[n]; ok {
			out[i] = e.value.Clone()
		}
	}
	return out
}

// GetParameterTypes implements ~/get_parameter_types: one type per name;
// ParameterNotSet for an undeclared name.
func (s *Store) GetParameterTypes(names []string) []uint8 {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := make([]uint8, len(names))
	for i, n := range names {
		if e, ok := s.params[n]; ok {
			out[i] = e.value.Type
		}
	}
	return out
}

// DescribeParameters implements ~/describe_parameters: one descriptor per
// name; an undeclared name gives a descriptor with only its name (type
// NOT_SET).
func (s *Store) DescribeParameters(names []string) []ParameterDescriptor {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := make([]ParameterDescriptor, len(names))
	for i, n := range names {
		e, ok := s.params[n]
		if !ok {
			out[i] = ParameterDescriptor{Name: n}
			continue
		}
		d := e.desc
		d.FloatingPointRange = slices.Clone(d.FloatingPointRange)
		d.IntegerRange = slices.Clone(d.IntegerRange)
		out[i] = d
	}
	return out
}

// ListParameters implements ~/list_parameters with rclcpp's rules. With no
// prefixes it lists every name with fewer than depth '.' separators (all of
// them for DepthRecursive). With prefixes it lists each name equal to a
// prefix, or starting with prefix+"." where the rest (counting that '.')
// has fewer than depth separators, or any depth for DepthRecursive.
// Prefixes of the result are the parts before the last '.' of the listed
// names, each once. Names come sorted.
func (s *Store) ListParameters(prefixes []string, depth uint64) ListParametersResult {
	s.mu.RLock()
	defer s.mu.RUnlock()
	shallow := func(x string) bool {
		return depth == DepthRecursive || uint64(strings.Count(x, ".")) < depth
	}
	res := ListParametersResult{Names: []string{}, Prefixes: []string{}}
	for _, n := range s.names {
		match := len(prefixes) == 0 && shallow(n)
		for _, p := range prefixes {
			if n == p || strings.HasPrefix(n, p+".") && shallow(n[len(p):]) {
				match = true
				break
			}
		}
		if !match {
			continue
		}
		res.Names = append(res.Names, n)
		if i := strings.LastIndexByte(n, '.'); i >= 0 && !slices.Contains(res.Prefixes, n[:i]) {
			res.Prefixes = append(res.Prefixes, n[:i])
		}
	}
	return res
}

// SetParameters implements ~/set_parameters: each parameter is set on its
// own (as SetParametersAtomically with one element), one result each.
func (s *Store) SetParameters(params []Parameter) []SetParametersResult {
	out := make([]SetParametersResult, len(params))
	for i, p := range params {
		out[i] = s.set([]Parameter{p}, false)
	}
	return out
}

// SetParametersAtomically implements ~/set_parameters_atomically: every
// parameter is accepted or none is. A parameter is refused when its name is
// undeclared, it is read-only, its value is NOT_SET (the table's parameters
// cannot be undeclared), of another type, out of range, or refused by its
// validator or by Config.Validate. On success the values are committed,
// then OnChange and OnEvent are called (ChangedParameters holds the update;
// a name given twice keeps its last value). As in rclcpp, an undeclared
// name gives the reason "One or more parameters were not declared before
// setting"; the other reasons name the parameter.
func (s *Store) SetParametersAtomically(params []Parameter) SetParametersResult {
	return s.set(params, true)
}

func (s *Store) set(params []Parameter, atomic bool) SetParametersResult {
	s.commit.Lock()
	defer s.commit.Unlock()
	update, res := s.apply(params, atomic)
	if !res.Successful || len(update) == 0 {
		return res
	}
	for _, p := range update {
		if p.Name == UseSimTime {
			s.clock.SetUseSimTime(p.Value.BoolValue)
		}
	}
	if s.onChange != nil {
		s.onChange(cloneParams(update))
	}
	if s.onEvent != nil {
		s.onEvent(ParameterEvent{Stamp: s.clock.Stamp(), Node: s.node, ChangedParameters: cloneParams(update)})
	}
	return res
}

// apply checks and commits an update under the data lock.
func (s *Store) apply(params []Parameter, atomic bool) ([]Parameter, SetParametersResult) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var update []Parameter
	for _, p := range params {
		if _, ok := s.params[p.Name]; !ok && atomic && p.Name != "" {
			return nil, SetParametersResult{Reason: "One or more parameters were not declared before setting"}
		}
		if reason := s.refuse(p); reason != "" {
			return nil, SetParametersResult{Reason: reason}
		}
		p.Value = p.Value.Clone()
		if i := slices.IndexFunc(update, func(q Parameter) bool { return q.Name == p.Name }); i >= 0 {
			update[i] = p
		} else {
			update = append(update, p)
		}
	}
	if s.validate != nil && len(update) > 0 {
		current := func(name string) ParameterValue {
			if e, ok := s.params[name]; ok {
				return e.value.Clone()
			}
			return ParameterValue{}
		}
		if err := s.validate(cloneParams(update), current); err != nil {
			return nil, SetParametersResult{Reason: err.Error()}
		}
	}
	for _, p := range update {
		s.params[p.Name].value = p.Value
	}
	return update, SetParametersResult{Successful: true}
}

// refuse returns why p cannot be set, in rclcpp's words, or "".
func (s *Store) refuse(p Parameter) string {
	if p.Name == "" {
		return "parameter name must not be empty"
	}
	e, ok := s.params[p.Name]
	if !ok {
		return "parameter '" + p.Name + "' cannot be set because it was not declared"
	}
	if e.param.ReadOnly {
		return "parameter '" + p.Name + "' cannot be set because it is read-only"
	}
	if p.Value.Type == ParameterNotSet {
		return "cannot undeclare a statically typed parameter"
	}
	return e.param.accepts(p.Value)
}

func cloneParams(ps []Parameter) []Parameter {
	out := make([]Parameter, len(ps))
	for i, p := range ps {
		out[i] = Parameter{Name: p.Name, Value: p.Value.Clone()}
	}
	return out
}
