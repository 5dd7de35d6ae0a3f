package rosparam

import (
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"

	"gopkg.in/yaml.v3"
)

// ErrParamsFile is wrapped by every error about the structure of a
// parameters file (as opposed to one of its values, ErrValue).
var ErrParamsFile = errors.New("invalid parameters file")

// paramsKey is the key under which a node's parameters sit in a file.
const paramsKey = "ros__parameters"

// Overrides holds the parameter values given on the command line
// (--params-file and -p), organised as rcl organises them: a list of node
// names or patterns in order of first appearance, each with its parameters.
// A name seen again, spelt the same (in a later file or -p rule), is merged
// into its first entry, later values replacing earlier ones; "drv" and
// "/drv" are different entries, as in rcl, though they match the same node.
// For resolves them for one node.
//
// The zero value is empty and ready to use. An Overrides is not safe for
// concurrent mutation; it is built once at start-up and then only read.
type Overrides struct {
	entries []overrideEntry
}

type overrideEntry struct {
	key     string // as written: "drv", "/drv", "ns/drv" (nested keys joined)
	pattern string // normalised: leading '/', e.g. "/**", "/ns/drv"
	names   []string
	values  map[string]ParameterValue
	match   *regexp.Regexp
}

// Set records value for parameter name under node pattern node (as a `-p`
// rule or one line of a file would). node is a node name or pattern as in a
// parameters file: "drv", "/ns/drv", "/**", "/**/drv", "/ns/*".
func (o *Overrides) Set(node, name string, value ParameterValue) error {
	if name == "" {
		return fmt.Errorf("rosparam: %w: empty parameter name under %q", ErrParamsFile, node)
	}
	e, err := o.entry(node)
	if err != nil {
		return err
	}
	if _, ok := e.values[name]; !ok {
		e.names = append(e.names, name)
	}
	e.values[name] = value
	return nil
}

func (o *Overrides) entry(key string) (*overrideEntry, error) {
	for i := range o.entries {
		if o.entries[i].key == key {
			return &o.entries[i], nil
		}
	}
	pattern, err := normaliseNode(key)
	if err != nil {
		return nil, err
	}
	re, err := patternRegexp(pattern)
	if err != nil {
		return nil, err
	}
	o.entries = append(o.entries, overrideEntry{
		key:     key,
		pattern: pattern,
		values:  map[string]ParameterValue{},
		match:   re,
	})
	return &o.entries[len(o.entries)-1], nil
}

// Merge adds the rules of other after those of o, as if they came later
// on the command line: a pattern o already has keeps its position and takes
// other's values.
func (o *Overrides) Merge(other *Overrides) error {
	for _, e := range other.entries {
		for _, n := range e.names {
			if err := o.Set(e.key, n, e.values[n]); err != nil {
				return err
			}
		}
	}
	return nil
}

// Patterns returns the node name patterns (normalised, with a leading '/')
// of the entries, in the order they apply; a pattern may appear twice when
// it was spelt two ways ("drv" and "/drv").
func (o *Overrides) Patterns() []string {
	out := make([]string, len(o.entries))
	for i, e := range o.entries {
		out[i] = e.pattern
	}
	return out
}

// For returns the values that apply to the node with fully qualified name
// fqn ("/drv", "/ns/drv"): the parameters of every matching pattern, taken in
// pattern order, a later pattern's value replacing an earlier one's (rclcpp's
// resolve_parameter_overrides). An empty YAML sequence is reported as a value
// of type NOT_SET with a non-nil, empty StringArrayValue until a declaration
// gives it a type.
func (o *Overrides) For(fqn string) map[string]ParameterValue {
	out := map[string]ParameterValue{}
	for _, e := range o.entries {
		if !e.match.MatchString(fqn) {
			continue
		}
		for _, n := range e.names {
			out[n] = e.values[n]
		}
	}
	return out
}

// MaxParamsFileSize is the largest parameters file LoadFile reads [bytes]:
// a guard against a path such as /dev/zero, far above any real file.
const MaxParamsFileSize = 16 << 20

// LoadFile adds the parameters of a YAML file (see AddYAML).
func (o *Overrides) LoadFile(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("rosparam: params file: %w", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxParamsFileSize+1))
	if err != nil {
		return fmt.Errorf("rosparam: params file: %w", err)
	}
	if len(data) > MaxParamsFileSize {
		return fmt.Errorf("rosparam: params file %s: %w: larger than %d bytes", path, ErrParamsFile, MaxParamsFileSize)
	}
	if err := o.AddYAML(data); err != nil {
		return fmt.Errorf("%w (file %s)", err, path)
	}
	return nil
}

// AddYAML adds the parameters of a ROS 2 parameters file:
//
//	/ns/drv:            # node: "/ns/drv", "drv" (= "/drv"), "/**", "/**/drv", "/ns/*"
//	  ros__parameters:
//	    rate: 100       # -> rate
//	    limits:
//	      speed: 1.5    # -> limits.speed
//	    names: [a, b]   # string array
//
// Node names may also be nested (`ns: {drv: {ros__parameters: ...}}` is
// /ns/drv). Values follow rcl's typing rules (see ParseValue). On error,
// nothing from data is added. It never panics.
func (o *Overrides) AddYAML(data []byte) error {
	docs, err := decodeDocuments(data)
	if err != nil {
		return fmt.Errorf("rosparam: %w: %w", ErrParamsFile, err)
	}
	var staged Overrides
	for _, doc := range docs {
		if len(doc.Content) == 0 {
			continue
		}
		root := doc.Content[0]
		if root.Kind != yaml.MappingNode {
			return fmt.Errorf("rosparam: %w: line %d: top level must map node names to parameters", ErrParamsFile, root.Line)
		}
		if err := staged.walkNodes(root, nil); err != nil {
			return err
		}
	}
	return o.Merge(&staged)
}

// walkNodes descends node-name keys until ros__parameters.
func (o *Overrides) walkNodes(m *yaml.Node, ns []string) error {
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		if k.Kind != yaml.ScalarNode || k.Value == "" {
			return fmt.Errorf("rosparam: %w: line %d: node names must be non-empty scalars", ErrParamsFile, k.Line)
		}
		if k.Value == paramsKey {
			if len(ns) == 0 {
				return fmt.Errorf("rosparam: %w: line %d: %s needs a node name above it", ErrParamsFile, k.Line, paramsKey)
			}
			if v.Kind != yaml.MappingNode {
				return fmt.Errorf("rosparam: %w: line %d: %s must be a mapping", ErrParamsFile, v.Line, paramsKey)
			}
			node := strings.Join(ns, "/")
			if _, err := normaliseNode(node); err != nil {
				return fmt.Errorf("%w (line %d)", err, k.Line)
			}
			if err := o.walkParams(v, node, ""); err != nil {
				return err
			}
			continue
		}
		if v.Kind != yaml.MappingNode {
			return fmt.Errorf("rosparam: %w: line %d: %q: expected a node name with %s below it", ErrParamsFile, k.Line, k.Value, paramsKey)
		}
		if err := o.walkNodes(v, append(ns[:len(ns):len(ns)], k.Value)); err != nil {
			return err
		}
	}
	return nil
}

// walkParams flattens nested mappings with '.' and records each value.
func (o *Overrides) walkParams(m *yaml.Node, node, prefix string) error {
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		if k.Kind != yaml.ScalarNode || k.Value == "" {
			return fmt.Errorf("rosparam: %w: line %d: parameter names must be non-empty scalars", ErrParamsFile, k.Line)
		}
		name := k.Value
		if prefix != "" {
			name = prefix + "." + k.Value
		}
		if v.Kind == yaml.MappingNode {
			if err := o.walkParams(v, node, name); err != nil {
				return err
			}
			continue
		}
		val, err := nodeValue(v)
		if err != nil {
			return fmt.Errorf("rosparam: %s: parameter %s: %w", node, name, err)
		}
		if err := o.Set(node, name, val); err != nil {
			return err
		}
	}
	return nil
}

// normaliseNode gives a node name or pattern its leading '/' and checks it
// as rcl does: name tokens of letters, digits and '_', or the wildcards '*'
// and '**', separated by single '/'.
func normaliseNode(node string) (string, error) {
	parts := strings.Split(strings.TrimPrefix(node, "/"), "/")
	for _, p := range parts {
		if p == "" {
			return "", fmt.Errorf("rosparam: %w: invalid node name %q (empty or repeated '/')", ErrParamsFile, node)
		}
		if p == "*" || p == "**" {
			continue
		}
		for _, r := range p {
			if !(r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
				return "", fmt.Errorf("rosparam: %w: invalid node name %q", ErrParamsFile, node)
			}
		}
	}
	return "/" + strings.Join(parts, "/"), nil
}

// patternRegexp turns a normalised pattern into the regular expression
// rclcpp matches fully qualified names against: "/**" is any number of
// "/token", "/*" exactly one.
func patternRegexp(pattern string) (*regexp.Regexp, error) {
	var b strings.Builder
	b.WriteString("^")
	for _, p := range strings.Split(pattern[1:], "/") {
		switch p {
		case "**":
			b.WriteString(`(/\w+)*`)
		case "*":
			b.WriteString(`(/\w+)`)
		default:
			b.WriteString("/" + regexp.QuoteMeta(p))
		}
	}
	b.WriteString("$")
	re, err := regexp.Compile(b.String())
	if err != nil {
		return nil, fmt.Errorf("rosparam: node pattern %q: %w", pattern, err)
	}
	return re, nil
}
