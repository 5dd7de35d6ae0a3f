package rosparam

import (
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestParseArgsSplit(t *testing.T) {
	cases := []struct {
		name        string
		args        []string
		nonROS, ros []string
		rcl         []string // nil: same as ros
	}{
		{"none", []string{"a", "b"}, []string{"a", "b"}, nil, nil},
		{"one block to end", []string{"a", "--ros-args", "-r", "x:=y"},
			[]string{"a"}, []string{"--ros-args", "-r", "x:=y"}, nil},
		{"closed block", []string{"a", "--ros-args", "-r", "x:=y", "--", "b"},
			[]string{"a", "b"}, []string{"--ros-args", "-r", "x:=y"}, nil},
		{"two blocks", []string{"--ros-args", "-r", "x:=y", "--", "b", "--ros-args", "--log-level", "debug"},
			[]string{"b"}, []string{"--ros-args", "-r", "x:=y", "--ros-args", "--log-level", "debug"}, nil},
		{"-- outside a block is the node's", []string{"--", "a"}, []string{"--", "a"}, nil, nil},
		{"--ros-args inside a block", []string{"--ros-args", "--ros-args", "-r", "a:=b"},
			nil, []string{"--ros-args", "-r", "a:=b"}, nil},
		{"value looks like a flag", []string{"--ros-args", "-r", "--:=x", "--", "z"},
			[]string{"z"}, []string{"--ros-args", "-r", "--:=x"}, nil},
		{"log switches", []string{"--ros-args", "--disable-stdout-logs", "-e", "/enc", "--log-config-file", "f"},
			nil, []string{"--ros-args", "--disable-stdout-logs", "-e", "/enc", "--log-config-file", "f"}, nil},
		{"parameters are not for rcl",
			[]string{"--ros-args", "-p", "a:=1", "-r", "x:=y", "--params-file", "testdata/base.yaml", "--param", "b:=2"},
			nil, []string{"--ros-args", "-p", "a:=1", "-r", "x:=y", "--params-file", "testdata/base.yaml", "--param", "b:=2"},
			[]string{"--ros-args", "-r", "x:=y"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a, err := ParseArgs(c.args)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(a.NonROS, c.nonROS) {
				t.Errorf("NonROS = %q, want %q", a.NonROS, c.nonROS)
			}
			if !slices.Equal(a.ROS, c.ros) {
				t.Errorf("ROS = %q, want %q", a.ROS, c.ros)
			}
			wantRCL := c.rcl
			if wantRCL == nil {
				wantRCL = c.ros
			}
			if !slices.Equal(a.RCL, wantRCL) {
				t.Errorf("RCL = %q, want %q", a.RCL, wantRCL)
			}
		})
	}
}

func TestParseArgsOptions(t *testing.T) {
	a, err := ParseArgs([]string{"--ros-args",
		"-r", "cmd_vel:=/robot/cmd_vel", "--remap", "drv:__ns:=/robot1", "-r", "__node:=driver",
		"--log-level", "debug", "--log-level", "rcl:=warn", "--enclave", "/e", "--log-config-file", "log.conf",
		"--enable-rosout-logs"})
	if err != nil {
		t.Fatal(err)
	}
	wantRemaps := []Remap{
		{From: "cmd_vel", To: "/robot/cmd_vel"},
		{Node: "drv", From: "__ns", To: "/robot1"},
		{From: "__node", To: "driver"},
	}
	if !slices.Equal(a.Remaps, wantRemaps) {
		t.Errorf("Remaps = %+v, want %+v", a.Remaps, wantRemaps)
	}
	if !slices.Equal(a.LogLevels, []string{"debug", "rcl:=warn"}) || a.Enclave != "/e" ||
		a.LogConfigFile != "log.conf" || !slices.Equal(a.LogFlags, []string{"--enable-rosout-logs"}) {
		t.Errorf("logging options: %+v", a)
	}
}

func TestParseArgsErrors(t *testing.T) {
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"unknown flag", []string{"--ros-args", "--bogus"}, "unknown ROS argument"},
		{"stray word", []string{"--ros-args", "foo"}, "unknown ROS argument"},
		{"legacy remap form", []string{"--ros-args", "__node:=x"}, "unknown ROS argument"},
		{"-p without value", []string{"--ros-args", "-p"}, "needs a value"},
		{"--params-file without value", []string{"--ros-args", "--params-file"}, "needs a value"},
		{"-p without :=", []string{"--ros-args", "-p", "a=1"}, "name:=value"},
		{"-p empty name", []string{"--ros-args", "-p", ":=1"}, "empty name"},
		{"-p bad value", []string{"--ros-args", "-p", "a:=[1, x]"}, "holds an element"},
		{"-p empty value", []string{"--ros-args", "-p", "a:="}, "empty"},
		{"relative namespace", []string{"--ros-args", "-r", "__ns:=robot"}, "absolute"},
		{"missing file", []string{"--ros-args", "--params-file", "testdata/nope.yaml"}, "params file"},
		{"bad file", []string{"--ros-args", "--params-file", "testdata/base.yaml", "--params-file", "testdata/arrays.yaml", "-p", "x:=[1, a]"}, "holds an element"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ParseArgs(c.args)
			if err == nil {
				t.Fatalf("ParseArgs(%q) succeeded", c.args)
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %q does not mention %q", err, c.want)
			}
		})
	}
	if _, err := ParseArgs([]string{"--ros-args", "--bogus"}); !errors.Is(err, ErrArgs) {
		t.Errorf("error %v does not wrap ErrArgs", err)
	}
}

// TestArgsPrecedence: -p rules and params files apply in command-line
// order, merged by node pattern as rcl does.
func TestArgsPrecedence(t *testing.T) {
	base := filepath.Join("testdata", "base.yaml") // /**: a=1 b=1; /drv: b=2 c=2
	cases := []struct {
		name string
		args []string
		want map[string]ParameterValue
	}{
		{"file then -p", []string{"--params-file", base, "-p", "a:=5", "-p", "c:=5"},
			// -p goes to "/**", first seen in the file, before /drv: /drv's c wins.
			map[string]ParameterValue{"a": Integer(5), "b": Integer(2), "c": Integer(2)}},
		{"-p with node prefix", []string{"--params-file", base, "-p", "drv:c:=7"},
			map[string]ParameterValue{"a": Integer(1), "b": Integer(2), "c": Integer(7)}},
		{"-p then file", []string{"-p", "a:=5", "-p", "z:=true", "--params-file", base},
			map[string]ParameterValue{"a": Integer(1), "b": Integer(2), "c": Integer(2), "z": Bool(true)}},
		{"-p to another node", []string{"-p", "cam:a:=9", "--params-file", base},
			map[string]ParameterValue{"a": Integer(1), "b": Integer(2), "c": Integer(2)}},
		{"later -p wins", []string{"-p", "a:=1", "-p", "a:=2.5"},
			map[string]ParameterValue{"a": Double(2.5)}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a, err := ParseArgs(append([]string{"--ros-args"}, c.args...))
			if err != nil {
				t.Fatal(err)
			}
			checkValues(t, a.Overrides.For("/drv"), c.want)
		})
	}
}

func TestResolveNode(t *testing.T) {
	cases := []struct {
		name            string
		remaps          []string
		wantName, wantN string
	}{
		{"no rules", nil, "drv", "/"},
		{"rename", []string{"__node:=driver"}, "driver", "/"},
		{"__name is __node", []string{"__name:=driver"}, "driver", "/"},
		{"namespace", []string{"__ns:=/robot1"}, "drv", "/robot1"},
		{"first rule wins", []string{"__node:=a", "__node:=b"}, "a", "/"},
		{"prefixed for us", []string{"drv:__node:=mine", "__ns:=/r/"}, "mine", "/r"},
		{"prefixed for another node", []string{"cam:__node:=theirs", "cam:__ns:=/x"}, "drv", "/"},
		{"topic remaps ignored", []string{"cmd_vel:=/other"}, "drv", "/"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			args := []string{"--ros-args"}
			for _, r := range c.remaps {
				args = append(args, "-r", r)
			}
			a, err := ParseArgs(args)
			if err != nil {
				t.Fatal(err)
			}
			name, ns := a.ResolveNode("drv", "")
			if name != c.wantName || ns != c.wantN {
				t.Errorf("ResolveNode = %q %q, want %q %q", name, ns, c.wantName, c.wantN)
			}
		})
	}
}

func TestFullyQualifiedName(t *testing.T) {
	cases := []struct{ ns, name, want string }{
		{"", "drv", "/drv"},
		{"/", "drv", "/drv"},
		{"/robot1", "drv", "/robot1/drv"},
		{"robot1/", "drv", "/robot1/drv"},
		{"/a/b", "drv", "/a/b/drv"},
	}
	for _, c := range cases {
		if got := FullyQualifiedName(c.ns, c.name); got != c.want {
			t.Errorf("FullyQualifiedName(%q, %q) = %q, want %q", c.ns, c.name, got, c.want)
		}
	}
}
