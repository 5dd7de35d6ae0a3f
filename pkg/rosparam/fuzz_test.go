package rosparam

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzParseValue: ParseValue never panics, and a value it reads survives a
// dump and a reload unchanged.
func FuzzParseValue(f *testing.F) {
	for _, s := range []string{"true", "yes", "42", "0x1F", "017", "08", "1.5", "-.inf", ".nan", "1e400",
		"hello", "'yes'", `"a\tb"`, "[1, 2]", "[a, 'b']", "[1, 2.0]", "[]", "{a: 1}", "&x [1]", "*x", "", "[",
		"0x1p-1074", "-0", "- a", "? x", "!!str 5", "|\n  text", "9223372036854775808"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, err := ParseValue(s)
		if err != nil || isEmptyArray(v) {
			return
		}
		data, err := DumpYAML("/n", []Parameter{{Name: "p", Value: v}})
		if err != nil {
			t.Fatalf("dump %v: %v", v, err)
		}
		var o Overrides
		if err := o.AddYAML(data); err != nil {
			t.Fatalf("reload of %q (%s):\n%s\n%v", s, TypeName(v.Type), data, err)
		}
		back := o.For("/n")["p"]
		if !back.Equal(v) {
			t.Fatalf("%q: %s %v reloaded as %s %v from\n%s", s, TypeName(v.Type), v, TypeName(back.Type), back, data)
		}
	})
}

// FuzzAddYAML: the params-file loader never panics on any input, and what
// it accepts it can resolve for any node.
func FuzzAddYAML(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*.yaml"))
	for _, name := range files {
		if data, err := os.ReadFile(name); err == nil {
			f.Add(data)
		}
	}
	for _, s := range []string{"", "- a", "a: 1", "ros__parameters: {}", "/**: {ros__parameters: {a: [1, x]}}",
		"a: {b: {ros__parameters: {c: {d: 1}}}}", "a: &x {ros__parameters: {b: 1}}\nc: *x", "/*/x/**:\n  ros__parameters: {a: .inf}"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var o Overrides
		if err := o.AddYAML(data); err != nil {
			return
		}
		for _, fqn := range []string{"/drv", "/robot1/drv", "/a/b/c"} {
			_ = o.For(fqn)
		}
	})
}

// FuzzParseArgs: the command-line parser never panics.
func FuzzParseArgs(f *testing.F) {
	f.Add("--ros-args", "-p", "a:=1", "--", "x")
	f.Add("--ros-args", "-r", "drv:__ns:=/r", "-p", "drv:a.b:=[1, 2]")
	f.Add("x", "--ros-args", "--params-file", "testdata/nested.yaml", "-r")
	f.Fuzz(func(t *testing.T, a, b, c, d, e string) {
		in := []string{a, b, c, d, e}
		for i := 0; i+1 < len(in); i++ {
			if in[i] == "--params-file" && in[i+1] != "testdata/nested.yaml" {
				return // never let the fuzzer read /dev/zero; files are FuzzAddYAML's job
			}
		}
		args, err := ParseArgs(in)
		if err != nil {
			return
		}
		args.ResolveNode("drv", "")
		args.Overrides.For("/drv")
	})
}
