// Command paramsyaml writes params/<node>.yaml for every telebridge node
// from the node's parameter table in its core package, with each
// parameter's description, unit, range and read-only flag as a comment, so
// that the files users edit always list every parameter with its default.
//
//	go run ./internal/tools/paramsyaml            # rewrite params/*.yaml
//	go run ./internal/tools/paramsyaml -check     # fail if a file is out of date
//
// Its test does the -check, so CI fails when a table changes and the file
// does not.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	armsimnode "github.com/telebridge/telebridge/pkg/armsim/node"
	"github.com/telebridge/telebridge/pkg/console/graph"
	furbotnode "github.com/telebridge/telebridge/pkg/furbot/node"
	jognode "github.com/telebridge/telebridge/pkg/jog/node"
	"github.com/telebridge/telebridge/pkg/rosparam"
	servosilanode "github.com/telebridge/telebridge/pkg/servosila/node"
)

// nodes maps each node to its parameter table.
var nodes = []struct {
	name  string
	table func() rosparam.Table
}{
	{servosilanode.Name, servosilanode.ParameterTable},
	{furbotnode.BridgeName, furbotnode.BridgeNodeParameterTable},
	{furbotnode.TwistName, furbotnode.TwistNodeParameterTable},
	{furbotnode.OdometryName, furbotnode.OdomNodeParameterTable},
	{jognode.Name, jognode.ParameterTable},
	{armsimnode.Name, armsimnode.ParameterTable},
	{graph.NodeName, graph.NodeParameterTable},
}

func main() {
	check := flag.Bool("check", false, "compare instead of writing; exit 1 if a file differs")
	dir := flag.String("dir", "params", "directory of the parameter files")
	flag.Parse()
	stale, err := sync(*dir, *check)
	if err != nil {
		fmt.Fprintln(os.Stderr, "paramsyaml:", err)
		os.Exit(1)
	}
	if len(stale) > 0 {
		fmt.Fprintf(os.Stderr, "paramsyaml: out of date (run go run ./internal/tools/paramsyaml): %s\n", strings.Join(stale, ", "))
		os.Exit(1)
	}
}

// sync writes (or, with check, compares) every node's file and returns the
// files that differed.
func sync(dir string, check bool) ([]string, error) {
	var stale []string
	for _, n := range nodes {
		path := filepath.Join(dir, n.name+".yaml")
		want := render(n.name, n.table())
		have, err := os.ReadFile(path)
		if err != nil && !os.IsNotExist(err) {
			return nil, err
		}
		if bytes.Equal(have, want) {
			continue
		}
		stale = append(stale, path)
		if !check {
			if err := os.WriteFile(path, want, 0o644); err != nil {
				return nil, err
			}
		}
	}
	if !check {
		return nil, nil
	}
	return stale, nil
}

// render returns the YAML of one node's defaults.
func render(node string, table rosparam.Table) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "# Parameters of %s, with their defaults.\n", node)
	fmt.Fprintf(&b, "# Generated from the node's parameter table by `go run ./internal/tools/paramsyaml`:\n")
	fmt.Fprintf(&b, "# edit the table in the core package, not this file. Copy it to change values.\n")
	fmt.Fprintf(&b, "%s:\n  ros__parameters:\n", node)
	for _, p := range table {
		fmt.Fprintf(&b, "    # %s\n", comment(p))
		if emptyArray(p.Default) {
			// ROS types a parameter file's values from their YAML, and an
			// empty list has no type: the default stays unset here.
			fmt.Fprintf(&b, "    # %s: [%s, ...]  (default empty; a YAML [] has no type)\n", p.Name, value(sample(p.Default.Type)))
			continue
		}
		fmt.Fprintf(&b, "    %s: %s\n", p.Name, value(p.Default))
	}
	return b.Bytes()
}

// emptyArray reports whether v is an array value without elements.
func emptyArray(v rosparam.ParameterValue) bool {
	switch v.Type {
	case rosparam.ParameterBoolArray:
		return len(v.BoolArrayValue) == 0
	case rosparam.ParameterIntegerArray:
		return len(v.IntegerArrayValue) == 0
	case rosparam.ParameterDoubleArray:
		return len(v.DoubleArrayValue) == 0
	case rosparam.ParameterStringArray:
		return len(v.StringArrayValue) == 0
	case rosparam.ParameterByteArray:
		return len(v.ByteArrayValue) == 0
	}
	return false
}

// sample is an element of an array type, to show its syntax.
func sample(arrayType uint8) rosparam.ParameterValue {
	switch arrayType {
	case rosparam.ParameterBoolArray:
		return rosparam.Bool(false)
	case rosparam.ParameterIntegerArray:
		return rosparam.Integer(0)
	case rosparam.ParameterDoubleArray:
		return rosparam.Double(0)
	}
	return rosparam.String("")
}

func comment(p rosparam.Param) string {
	var parts []string
	parts = append(parts, p.Description)
	if p.Unit != "" {
		parts[0] += " [" + p.Unit + "]"
	}
	if p.Range != nil {
		parts = append(parts, fmt.Sprintf("range %s .. %s", num(p.Range.From), num(p.Range.To)))
	}
	if p.Constraints != "" {
		parts = append(parts, p.Constraints)
	}
	if p.ReadOnly {
		parts = append(parts, "read-only (start-up only)")
	}
	return strings.Join(parts, "; ")
}

func num(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }

// value writes a parameter value as rcl types it back: doubles always
// carry a decimal point, strings are quoted.
func value(v rosparam.ParameterValue) string {
	switch v.Type {
	case rosparam.ParameterBool:
		return strconv.FormatBool(v.BoolValue)
	case rosparam.ParameterInteger:
		return strconv.FormatInt(v.IntegerValue, 10)
	case rosparam.ParameterDouble:
		return double(v.DoubleValue)
	case rosparam.ParameterString:
		return strconv.Quote(v.StringValue)
	case rosparam.ParameterBoolArray:
		return list(len(v.BoolArrayValue), func(i int) string { return strconv.FormatBool(v.BoolArrayValue[i]) })
	case rosparam.ParameterIntegerArray:
		return list(len(v.IntegerArrayValue), func(i int) string { return strconv.FormatInt(v.IntegerArrayValue[i], 10) })
	case rosparam.ParameterDoubleArray:
		return list(len(v.DoubleArrayValue), func(i int) string { return double(v.DoubleArrayValue[i]) })
	case rosparam.ParameterStringArray:
		return list(len(v.StringArrayValue), func(i int) string { return strconv.Quote(v.StringArrayValue[i]) })
	}
	return "null"
}

func double(f float64) string {
	switch {
	case math.IsInf(f, 1):
		return ".inf"
	case math.IsInf(f, -1):
		return "-.inf"
	case math.IsNaN(f):
		return ".nan"
	}
	s := strconv.FormatFloat(f, 'g', -1, 64)
	if !strings.ContainsAny(s, ".e") {
		s += ".0"
	}
	return s
}

func list(n int, item func(int) string) string {
	parts := make([]string, n)
	for i := range parts {
		parts[i] = item(i)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}
