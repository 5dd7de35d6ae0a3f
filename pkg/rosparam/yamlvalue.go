package rosparam

import (
	"bytes"
	"errors"
	"fmt"
	"io"

	"gopkg.in/yaml.v3"
)

// ParseValue reads the value of a command-line rule `-p name:=value` as rcl
// does (rcl_parse_yaml_value): value is a YAML scalar typed by the rules of
// scalarValue (true, 3, 0x10, 2.5, .inf, 'quoted string', plain string) or
// a flow sequence of scalars of one type ([1, 2, 3], [a, b]). It never
// panics; errors wrap ErrValue or the YAML syntax error.
func ParseValue(s string) (ParameterValue, error) {
	v, err := parseValue(s)
	if err != nil {
		return ParameterValue{}, fmt.Errorf("rosparam: parse value %q: %w", s, err)
	}
	return v, nil
}

func parseValue(s string) (ParameterValue, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(s), &doc); err != nil {
		return ParameterValue{}, err
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) != 1 {
		return ParameterValue{}, fmt.Errorf("%w: empty value", ErrValue)
	}
	return nodeValue(doc.Content[0])
}

// decodeDocuments returns the document nodes of a YAML stream.
func decodeDocuments(data []byte) ([]*yaml.Node, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var docs []*yaml.Node
	for {
		var doc yaml.Node
		err := dec.Decode(&doc)
		if errors.Is(err, io.EOF) {
			return docs, nil
		}
		if err != nil {
			return nil, err
		}
		docs = append(docs, &doc)
	}
}

func isQuoted(n *yaml.Node) bool {
	return n.Style&(yaml.SingleQuotedStyle|yaml.DoubleQuotedStyle) != 0
}

// nodeValue converts a scalar or a sequence of scalars to a value. Tags are
// ignored (as rcl does); aliases and nested collections are refused.
func nodeValue(n *yaml.Node) (ParameterValue, error) {
	switch n.Kind {
	case yaml.ScalarNode:
		return scalarValue(n.Value, isQuoted(n))
	case yaml.SequenceNode:
		return sequenceValue(n)
	case yaml.AliasNode:
		return ParameterValue{}, fmt.Errorf("%w: line %d: YAML aliases are not supported", ErrValue, n.Line)
	case yaml.MappingNode:
		return ParameterValue{}, fmt.Errorf("%w: line %d: a mapping is not a value", ErrValue, n.Line)
	}
	return ParameterValue{}, fmt.Errorf("%w: line %d: unexpected YAML node", ErrValue, n.Line)
}

// sequenceValue types a sequence by its first element; every other element
// must have the same type (rcl: "Sequence should be of same type"). An empty
// sequence gives an emptyArray marker that Declare resolves against the
// declared array type.
func sequenceValue(n *yaml.Node) (ParameterValue, error) {
	if len(n.Content) == 0 {
		return emptyArray(), nil
	}
	var out ParameterValue
	for i, e := range n.Content {
		if e.Kind != yaml.ScalarNode {
			return ParameterValue{}, fmt.Errorf("%w: line %d: a sequence may hold only scalars", ErrValue, e.Line)
		}
		v, err := scalarValue(e.Value, isQuoted(e))
		if err != nil {
			return ParameterValue{}, fmt.Errorf("line %d: %w", e.Line, err)
		}
		if i == 0 {
			out.Type = arrayOf(v.Type)
		} else if arrayOf(v.Type) != out.Type {
			return ParameterValue{}, fmt.Errorf("%w: line %d: %s holds an element of type %s (%q)",
				ErrValue, e.Line, TypeName(out.Type), TypeName(v.Type), e.Value)
		}
		switch v.Type {
		case ParameterBool:
			out.BoolArrayValue = append(out.BoolArrayValue, v.BoolValue)
		case ParameterInteger:
			out.IntegerArrayValue = append(out.IntegerArrayValue, v.IntegerValue)
		case ParameterDouble:
			out.DoubleArrayValue = append(out.DoubleArrayValue, v.DoubleValue)
		case ParameterString:
			out.StringArrayValue = append(out.StringArrayValue, v.StringValue)
		}
	}
	return out, nil
}

// arrayOf returns the array type of a scalar type.
func arrayOf(t uint8) uint8 {
	switch t {
	case ParameterBool:
		return ParameterBoolArray
	case ParameterInteger:
		return ParameterIntegerArray
	case ParameterDouble:
		return ParameterDoubleArray
	case ParameterString:
		return ParameterStringArray
	}
	return ParameterNotSet
}

// isArray reports whether t is one of the array types.
func isArray(t uint8) bool { return t >= ParameterByteArray && t <= ParameterStringArray }

// emptyArray is how an empty YAML sequence is held until a declaration gives
// it a type: NOT_SET with a non-nil (empty) string array. Nothing outside
// this package ever sees it: Declare converts it or rejects it.
func emptyArray() ParameterValue {
	return ParameterValue{Type: ParameterNotSet, StringArrayValue: []string{}}
}

func isEmptyArray(v ParameterValue) bool {
	return v.Type == ParameterNotSet && v.StringArrayValue != nil
}

// typedEmpty returns an empty array of type t.
func typedEmpty(t uint8) ParameterValue {
	switch t {
	case ParameterByteArray:
		return ByteArray(nil)
	case ParameterBoolArray:
		return BoolArray(nil)
	case ParameterIntegerArray:
		return IntegerArray(nil)
	case ParameterDoubleArray:
		return DoubleArray(nil)
	}
	return StringArray(nil)
}
