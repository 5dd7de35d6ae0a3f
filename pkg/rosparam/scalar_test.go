package rosparam

import (
	"errors"
	"math"
	"strings"
	"testing"
)

// TestParseValue: the typing rules of rcl_yaml_param_parser for -p values
// (and every scalar of a params file).
func TestParseValue(t *testing.T) {
	cases := []struct {
		in   string
		want ParameterValue
	}{
		{"true", Bool(true)},
		{"True", Bool(true)},
		{"yes", Bool(true)},
		{"Y", Bool(true)},
		{"ON", Bool(true)},
		{"false", Bool(false)},
		{"no", Bool(false)},
		{"n", Bool(false)},
		{"Off", Bool(false)},
		{"tRUE", String("tRUE")}, // mixed case is not a bool for rcl
		{"42", Integer(42)},
		{"-7", Integer(-7)},
		{"+7", Integer(7)},
		{"0x1F", Integer(31)},
		{"-0x10", Integer(-16)},
		{"017", Integer(15)}, // C octal
		{"0", Integer(0)},
		{"9223372036854775807", Integer(math.MaxInt64)},
		{"-9223372036854775808", Integer(math.MinInt64)},
		{"9223372036854775808", Double(9223372036854775808)}, // strtol overflows, strtod does not
		{"08", Double(8)},                                    // not octal, strtod reads it
		{"1.0", Double(1)},
		{"1.", Double(1)},
		{".5", Double(0.5)},
		{"-2.5e3", Double(-2500)},
		{"1e3", Double(1000)},
		{"0x1p4", Double(16)},
		{"0x1.8", Double(1.5)},
		{".inf", Double(math.Inf(1))},
		{"-.Inf", Double(math.Inf(-1))},
		{"+.INF", Double(math.Inf(1))},
		{"inf", Double(math.Inf(1))},
		{"-Infinity", Double(math.Inf(-1))},
		{".nan", Double(math.NaN())},
		{"NaN", Double(math.NaN())},
		{"1e400", String("1e400")},   // strtod overflow: ERANGE
		{"1e-400", String("1e-400")}, // strtod underflow: ERANGE
		{"0.0e-400", Double(0)},      // an exact zero is no underflow
		{"1_000", String("1_000")},
		{"0b101", String("0b101")},
		{"1.2.3", String("1.2.3")},
		{"e5", String("e5")},
		{"hello", String("hello")},
		{"base_link", String("base_link")},
		{"'yes'", String("yes")},
		{`"42"`, String("42")},
		{"''", String("")},
		{"~", String("~")},
		{"null", String("null")},
		{"[1, 2, 3]", IntegerArray([]int64{1, 2, 3})},
		{"[1.0, 2.5]", DoubleArray([]float64{1, 2.5})},
		{"[true, no]", BoolArray([]bool{true, false})},
		{"[a, 'b', \"1\"]", StringArray([]string{"a", "b", "1"})},
		{"[]", emptyArray()},
	}
	for _, c := range cases {
		t.Run(c.in, func(t *testing.T) {
			got, err := ParseValue(c.in)
			if err != nil {
				t.Fatalf("ParseValue(%q): %v", c.in, err)
			}
			if !got.Equal(c.want) || isEmptyArray(got) != isEmptyArray(c.want) {
				t.Errorf("ParseValue(%q) = %s %v, want %s %v", c.in, TypeName(got.Type), got, TypeName(c.want.Type), c.want)
			}
		})
	}
}

func TestParseValueErrors(t *testing.T) {
	cases := []struct {
		in      string
		errIs   error // nil: any error (YAML syntax)
		wantErr string
	}{
		{"", ErrValue, "empty"},
		{"[1, 2.0]", ErrValue, "integer_array holds an element of type double"},
		{"[1, '2']", ErrValue, "integer_array holds an element of type string"},
		{"[x, y]", ErrValue, "string_array holds an element of type bool"}, // y is true to rcl
		{"[[1], [2]]", ErrValue, "only scalars"},
		{"{a: 1}", ErrValue, "mapping"},
		{"[a, {b: 1}]", ErrValue, "only scalars"},
		{"&x 1", nil, ""},
		{"[1, ", nil, ""},
		{"'unterminated", nil, ""},
	}
	for _, c := range cases {
		t.Run(c.in, func(t *testing.T) {
			v, err := ParseValue(c.in)
			if err == nil {
				// An anchor on a plain scalar is legal YAML: rcl ignores it too.
				if c.in == "&x 1" && v.Equal(Integer(1)) {
					return
				}
				t.Fatalf("ParseValue(%q) = %v, want an error", c.in, v)
			}
			if c.errIs != nil && !errors.Is(err, c.errIs) {
				t.Errorf("error %v does not wrap %v", err, c.errIs)
			}
			if c.wantErr != "" && !strings.Contains(err.Error(), c.wantErr) {
				t.Errorf("error %q does not mention %q", err, c.wantErr)
			}
		})
	}
}

// TestFormatRoundTrip: String() writes values so that ParseValue reads back
// the same value and type (what dump relies on).
func TestFormatRoundTrip(t *testing.T) {
	values := []ParameterValue{
		Bool(true), Integer(-3), Double(1), Double(-0.5), Double(1e300), Double(1e-300),
		Double(math.Inf(-1)), Double(math.NaN()),
		String("plain"), String("true"), String("42"), String("1.5"), String(""), String("a: b"),
		String("yes"), String("-x"), String("with space"), String("0x10"), String("~"),
		IntegerArray([]int64{1, 2}), DoubleArray([]float64{1, 2}), BoolArray([]bool{false}),
		StringArray([]string{"on", "x", "3"}),
	}
	for _, v := range values {
		got, err := ParseValue(v.String())
		if err != nil {
			t.Errorf("ParseValue(%q): %v", v.String(), err)
			continue
		}
		if !got.Equal(v) {
			t.Errorf("%s %q read back as %s %v", TypeName(v.Type), v.String(), TypeName(got.Type), got)
		}
	}
}
