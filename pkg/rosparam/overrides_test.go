package rosparam

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

func loadFiles(t *testing.T, files ...string) *Overrides {
	t.Helper()
	var o Overrides
	for _, f := range files {
		if err := o.LoadFile(filepath.Join("testdata", f)); err != nil {
			t.Fatal(err)
		}
	}
	return &o
}

// checkValues compares For(fqn) with want (name -> value).
func checkValues(t *testing.T, got map[string]ParameterValue, want map[string]ParameterValue) {
	t.Helper()
	var names []string
	for n := range got {
		names = append(names, n)
	}
	sort.Strings(names)
	if len(got) != len(want) {
		t.Errorf("got parameters %v, want %d of them", names, len(want))
	}
	for n, w := range want {
		g, ok := got[n]
		if !ok {
			t.Errorf("%s missing (got %v)", n, names)
			continue
		}
		if !g.Equal(w) || isEmptyArray(g) != isEmptyArray(w) {
			t.Errorf("%s = %s %v, want %s %v", n, TypeName(g.Type), g, TypeName(w.Type), w)
		}
	}
}

// TestNodeMatching: which entries of testdata/matching.yaml apply to which
// node, and that a later matching pattern wins (file order, as Humble's
// rclcpp: no "exact name beats wildcard" rule).
func TestNodeMatching(t *testing.T) {
	o := loadFiles(t, "matching.yaml")
	cases := []struct {
		fqn  string
		want map[string]ParameterValue
	}{
		{"/drv", map[string]ParameterValue{
			"from_all": Integer(1), "from_any_drv": Integer(2), "from_root_drv": Integer(3),
			"shared": String("root_drv"),
		}},
		{"/robot1/drv", map[string]ParameterValue{
			"from_all": Integer(1), "from_any_drv": Integer(2), "from_robot1_drv": Integer(4),
			"from_robot1_any": Integer(5), "shared": String("robot1_drv"),
		}},
		{"/robot2/drv", map[string]ParameterValue{
			"from_all": Integer(1), "from_any_drv": Integer(2), "from_nested": Integer(6),
			"shared": String("nested"),
		}},
		{"/a/b/c/drv", map[string]ParameterValue{
			"from_all": Integer(1), "from_any_drv": Integer(2), "shared": String("any_drv"),
		}},
		{"/robot1/cam", map[string]ParameterValue{
			"from_all": Integer(1), "from_robot1_any": Integer(5), "shared": String("all"),
		}},
		{"/robot1/x/cam", map[string]ParameterValue{ // /robot1/* is one level only
			"from_all": Integer(1), "shared": String("all"),
		}},
		{"/drv2", map[string]ParameterValue{ // no prefix match on names
			"from_all": Integer(1), "shared": String("all"),
		}},
	}
	for _, c := range cases {
		t.Run(c.fqn, func(t *testing.T) { checkValues(t, o.For(c.fqn), c.want) })
	}
	want := []string{"/**", "/**/drv", "/drv", "/robot1/drv", "/robot1/*", "/robot2/drv"}
	if got := o.Patterns(); strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("Patterns() = %v, want %v", got, want)
	}
}

func TestNestedAndArrays(t *testing.T) {
	o := loadFiles(t, "nested.yaml", "arrays.yaml")
	checkValues(t, o.For("/drv"), map[string]ParameterValue{
		"rate":               Integer(100),
		"limits.linear.max":  Double(1.5),
		"limits.linear.min":  Double(-1.5),
		"limits.angular.max": Double(2),
		"frame_id":           String("base_link"),
		"bools":              BoolArray([]bool{true, false, true}),
		"ints":               IntegerArray([]int64{1, -2, 16}),
		"doubles":            DoubleArray([]float64{1, 2.5, math.Inf(-1)}),
		"strings":            StringArray([]string{"a", "b", "1"}),
		"block":              StringArray([]string{"left", "right"}),
		"empty":              emptyArray(),
	})
}

func TestScalarsFile(t *testing.T) {
	o := loadFiles(t, "scalars.yaml")
	checkValues(t, o.For("/drv"), map[string]ParameterValue{
		"t1": Bool(true), "t2": Bool(true), "t3": Bool(true), "f1": Bool(false), "f2": Bool(false),
		"i1": Integer(42), "i2": Integer(-31), "i3": Integer(15),
		"d1": Double(1), "d2": Double(1000), "d3": Double(math.NaN()), "d4": Double(math.Inf(-1)), "d5": Double(8),
		"s1": String("hello"), "s2": String("true"), "s3": String("42"), "s4": String("1.2.3"), "s5": String("~"),
	})
}

// TestFilePrecedence: a pattern seen again in a later file is merged into
// its first position; later values replace earlier ones in it.
func TestFilePrecedence(t *testing.T) {
	o := loadFiles(t, "base.yaml", "overlay.yaml")
	checkValues(t, o.For("/drv"), map[string]ParameterValue{
		"a": Integer(10), // /** of overlay replaced /** of base
		"b": Integer(2),  // /drv comes after /** (its first position), so it wins
		"c": Integer(20), // overlay's /drv replaced base's /drv
		"d": Integer(30),
	})
	checkValues(t, o.For("/other"), map[string]ParameterValue{"a": Integer(10), "b": Integer(10)})
	// Reversed order: base's values win where the patterns overlap.
	o = loadFiles(t, "overlay.yaml", "base.yaml")
	checkValues(t, o.For("/drv"), map[string]ParameterValue{
		"a": Integer(1), "b": Integer(2), "c": Integer(2), "d": Integer(30),
	})
}

func TestAddYAMLErrors(t *testing.T) {
	cases := []struct {
		name, yaml string
		errIs      error
		want       string
	}{
		{"top level list", "- a\n- b\n", ErrParamsFile, "top level"},
		{"top level scalar", "hello\n", ErrParamsFile, "top level"},
		{"params at top", "ros__parameters: {a: 1}\n", ErrParamsFile, "needs a node name"},
		{"params not a map", "drv:\n  ros__parameters: 3\n", ErrParamsFile, "must be a mapping"},
		{"node maps to scalar", "drv: 3\n", ErrParamsFile, "expected a node name"},
		{"bad node name", "dr-v:\n  ros__parameters: {a: 1}\n", ErrParamsFile, "invalid node name"},
		{"repeated slash", "/robot1/:\n  drv:\n    ros__parameters: {a: 1}\n", ErrParamsFile, "repeated"},
		{"trailing slash", "/drv/:\n  ros__parameters: {a: 1}\n", ErrParamsFile, "invalid node name"},
		{"bare slash", "/:\n  ros__parameters: {a: 1}\n", ErrParamsFile, "invalid node name"},
		{"mixed array", "drv:\n  ros__parameters:\n    a: [1, x]\n", ErrValue, "parameter a"},
		{"nested seq", "drv:\n  ros__parameters:\n    a: [[1]]\n", ErrValue, "only scalars"},
		{"empty value", "drv:\n  ros__parameters:\n    a:\n", ErrValue, "empty"},
		{"alias", "drv:\n  ros__parameters:\n    a: &x 1\n    b: *x\n", ErrValue, "aliases"},
		{"syntax", "drv: [\n", ErrParamsFile, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var o Overrides
			if err := o.Set("/**", "kept", Integer(1)); err != nil {
				t.Fatal(err)
			}
			err := o.AddYAML([]byte(c.yaml))
			if err == nil {
				t.Fatalf("AddYAML accepted %q", c.yaml)
			}
			if !errors.Is(err, c.errIs) {
				t.Errorf("error %v does not wrap %v", err, c.errIs)
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %q does not mention %q", err, c.want)
			}
			// Nothing of a refused file is kept.
			if got := o.For("/drv"); len(got) != 1 {
				t.Errorf("after a refused file, For = %v", got)
			}
		})
	}
}

func TestLoadFileMissing(t *testing.T) {
	var o Overrides
	if err := o.LoadFile(filepath.Join("testdata", "nope.yaml")); err == nil {
		t.Fatal("missing file accepted")
	}
	if err := o.LoadFile(os.DevNull); err != nil {
		t.Errorf("empty file: %v", err)
	}
}

func TestLoadFileTooBig(t *testing.T) {
	name := filepath.Join(t.TempDir(), "big.yaml")
	must(t, os.WriteFile(name, make([]byte, MaxParamsFileSize+1), 0o600))
	var o Overrides
	if err := o.LoadFile(name); !errors.Is(err, ErrParamsFile) {
		t.Errorf("LoadFile of a too big file: %v", err)
	}
}

func TestMultiDocument(t *testing.T) {
	var o Overrides
	if err := o.AddYAML([]byte("drv:\n  ros__parameters: {a: 1}\n---\ndrv:\n  ros__parameters: {a: 2, b: 3}\n")); err != nil {
		t.Fatal(err)
	}
	checkValues(t, o.For("/drv"), map[string]ParameterValue{"a": Integer(2), "b": Integer(3)})
}

func TestMerge(t *testing.T) {
	a := loadFiles(t, "base.yaml")
	b := loadFiles(t, "overlay.yaml")
	must(t, a.Merge(b))
	// Same result as reading both files in order.
	checkValues(t, a.For("/drv"), loadFiles(t, "base.yaml", "overlay.yaml").For("/drv"))
	if got := strings.Join(a.Patterns(), " "); got != "/** /drv /**/drv" {
		t.Errorf("Patterns() = %s", got)
	}
}

// TestSpellingsAreSeparateEntries: rcl keys its entries by the name as
// written, so "drv" and "/drv" keep separate positions in the order.
func TestSpellingsAreSeparateEntries(t *testing.T) {
	var o Overrides
	must(t, o.AddYAML([]byte("drv:\n  ros__parameters: {x: 1}\n/**:\n  ros__parameters: {x: 2}\n")))
	must(t, o.AddYAML([]byte("/drv:\n  ros__parameters: {x: 3}\n")))
	checkValues(t, o.For("/drv"), map[string]ParameterValue{"x": Integer(3)})
	if got := strings.Join(o.Patterns(), " "); got != "/drv /** /drv" {
		t.Errorf("Patterns() = %s", got)
	}
	// The same spelling merges into the first position: /** (x=2) wins.
	var p Overrides
	must(t, p.AddYAML([]byte("drv:\n  ros__parameters: {x: 1}\n/**:\n  ros__parameters: {x: 2}\n")))
	must(t, p.AddYAML([]byte("drv:\n  ros__parameters: {x: 3}\n")))
	checkValues(t, p.For("/drv"), map[string]ParameterValue{"x": Integer(2)})
}
