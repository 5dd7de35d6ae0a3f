package rosparam

import (
	"bytes"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// DumpYAML writes params as a parameters file for node (a fully qualified
// name), in the layout `ros2 param dump` prints and --params-file reads:
// names split at '.' into nested mappings, keys sorted, arrays as block
// sequences, doubles always with a decimal point or exponent so they read
// back as doubles, strings quoted when they would read back as something
// else. A name that is both a value and a prefix of another is an error.
func DumpYAML(node string, params []Parameter) ([]byte, error) {
	sorted := append([]Parameter(nil), params...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].Name < sorted[j].Name })
	root := &yaml.Node{Kind: yaml.MappingNode}
	for _, p := range sorted {
		if p.Value.Type == ParameterNotSet {
			continue
		}
		parts := strings.Split(p.Name, ".")
		m := root
		for i, part := range parts {
			last := i == len(parts)-1
			child := lookup(m, part)
			switch {
			case last && child != nil:
				return nil, fmt.Errorf("rosparam: dump %s: %q is both a value and a prefix", node, p.Name)
			case last:
				m.Content = append(m.Content, scalarKey(part), valueNode(p.Value))
			case child == nil:
				child = &yaml.Node{Kind: yaml.MappingNode}
				m.Content = append(m.Content, scalarKey(part), child)
			case child.Kind != yaml.MappingNode:
				return nil, fmt.Errorf("rosparam: dump %s: %q is both a value and a prefix", node, p.Name)
			}
			m = child
		}
	}
	doc := &yaml.Node{Kind: yaml.MappingNode, Content: []*yaml.Node{
		scalarKey(node),
		{Kind: yaml.MappingNode, Content: []*yaml.Node{scalarKey(paramsKey), root}},
	}}
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(doc); err != nil {
		return nil, fmt.Errorf("rosparam: dump %s: %w", node, err)
	}
	if err := enc.Close(); err != nil {
		return nil, fmt.Errorf("rosparam: dump %s: %w", node, err)
	}
	return buf.Bytes(), nil
}

// DumpYAML dumps the store's parameters (see the package function).
func (s *Store) DumpYAML() ([]byte, error) { return DumpYAML(s.node, s.Values()) }

func lookup(m *yaml.Node, key string) *yaml.Node {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}

func scalarKey(s string) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s}
}

func valueNode(v ParameterValue) *yaml.Node {
	seq := func(n int, f func(i int) *yaml.Node) *yaml.Node {
		out := &yaml.Node{Kind: yaml.SequenceNode}
		if n == 0 {
			out.Style = yaml.FlowStyle
		}
		for i := 0; i < n; i++ {
			out.Content = append(out.Content, f(i))
		}
		return out
	}
	switch v.Type {
	case ParameterBool:
		return boolNode(v.BoolValue)
	case ParameterInteger:
		return intNode(v.IntegerValue)
	case ParameterDouble:
		return doubleNode(v.DoubleValue)
	case ParameterString:
		return stringNode(v.StringValue)
	case ParameterByteArray:
		return seq(len(v.ByteArrayValue), func(i int) *yaml.Node { return intNode(int64(v.ByteArrayValue[i])) })
	case ParameterBoolArray:
		return seq(len(v.BoolArrayValue), func(i int) *yaml.Node { return boolNode(v.BoolArrayValue[i]) })
	case ParameterIntegerArray:
		return seq(len(v.IntegerArrayValue), func(i int) *yaml.Node { return intNode(v.IntegerArrayValue[i]) })
	case ParameterDoubleArray:
		return seq(len(v.DoubleArrayValue), func(i int) *yaml.Node { return doubleNode(v.DoubleArrayValue[i]) })
	case ParameterStringArray:
		return seq(len(v.StringArrayValue), func(i int) *yaml.Node { return stringNode(v.StringArrayValue[i]) })
	}
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Value: "null"}
}

func boolNode(b bool) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: strconv.FormatBool(b)}
}

func intNode(i int64) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: strconv.FormatInt(i, 10)}
}

func doubleNode(f float64) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!float", Value: formatDouble(f)}
}

// stringNode quotes a string whenever rcl would not read it back plain as
// the same string.
func stringNode(s string) *yaml.Node {
	n := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s}
	if v, err := scalarValue(s, false); err != nil || v.Type != ParameterString || !plainSafe(s) {
		n.Style = yaml.DoubleQuotedStyle
	}
	return n
}
