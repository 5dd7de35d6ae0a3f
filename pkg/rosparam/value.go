package rosparam

import (
	"math"
	"slices"
	"strconv"
	"strings"
)

// Bool returns a ParameterValue of type ParameterBool.
func Bool(v bool) ParameterValue { return ParameterValue{Type: ParameterBool, BoolValue: v} }

// Integer returns a ParameterValue of type ParameterInteger.
func Integer(v int64) ParameterValue {
	return ParameterValue{Type: ParameterInteger, IntegerValue: v}
}

// Double returns a ParameterValue of type ParameterDouble.
func Double(v float64) ParameterValue {
	return ParameterValue{Type: ParameterDouble, DoubleValue: v}
}

// String returns a ParameterValue of type ParameterString.
func String(v string) ParameterValue {
	return ParameterValue{Type: ParameterString, StringValue: v}
}

// ByteArray returns a ParameterValue of type ParameterByteArray holding a
// copy of v.
func ByteArray(v []byte) ParameterValue {
	return ParameterValue{Type: ParameterByteArray, ByteArrayValue: cloneNonNil(v)}
}

// BoolArray returns a ParameterValue of type ParameterBoolArray holding a
// copy of v.
func BoolArray(v []bool) ParameterValue {
	return ParameterValue{Type: ParameterBoolArray, BoolArrayValue: cloneNonNil(v)}
}

// IntegerArray returns a ParameterValue of type ParameterIntegerArray holding
// a copy of v.
func IntegerArray(v []int64) ParameterValue {
	return ParameterValue{Type: ParameterIntegerArray, IntegerArrayValue: cloneNonNil(v)}
}

// DoubleArray returns a ParameterValue of type ParameterDoubleArray holding a
// copy of v.
func DoubleArray(v []float64) ParameterValue {
	return ParameterValue{Type: ParameterDoubleArray, DoubleArrayValue: cloneNonNil(v)}
}

// StringArray returns a ParameterValue of type ParameterStringArray holding
// a copy of v.
func StringArray(v []string) ParameterValue {
	return ParameterValue{Type: ParameterStringArray, StringArrayValue: cloneNonNil(v)}
}

// cloneNonNil copies s; an empty or nil s gives an empty, non-nil slice so
// that an empty array value never looks unset.
func cloneNonNil[T any](s []T) []T {
	out := make([]T, len(s))
	copy(out, s)
	return out
}

// TypeName returns the name rclcpp gives a parameter type ("bool",
// "integer", "double", "string", "byte_array", "bool_array",
// "integer_array", "double_array", "string_array", "not set"), or
// "unknown type N".
func TypeName(t uint8) string {
	switch t {
	case ParameterNotSet:
		return "not set"
	case ParameterBool:
		return "bool"
	case ParameterInteger:
		return "integer"
	case ParameterDouble:
		return "double"
	case ParameterString:
		return "string"
	case ParameterByteArray:
		return "byte_array"
	case ParameterBoolArray:
		return "bool_array"
	case ParameterIntegerArray:
		return "integer_array"
	case ParameterDoubleArray:
		return "double_array"
	case ParameterStringArray:
		return "string_array"
	}
	return "unknown type " + strconv.Itoa(int(t))
}

// Clone returns a deep copy of v holding only the field its Type selects, so
// that the copy shares no slice with v.
func (v ParameterValue) Clone() ParameterValue {
	out := ParameterValue{Type: v.Type}
	switch v.Type {
	case ParameterBool:
		out.BoolValue = v.BoolValue
	case ParameterInteger:
		out.IntegerValue = v.IntegerValue
	case ParameterDouble:
		out.DoubleValue = v.DoubleValue
	case ParameterString:
		out.StringValue = v.StringValue
	case ParameterByteArray:
		out.ByteArrayValue = cloneNonNil(v.ByteArrayValue)
	case ParameterBoolArray:
		out.BoolArrayValue = cloneNonNil(v.BoolArrayValue)
	case ParameterIntegerArray:
		out.IntegerArrayValue = cloneNonNil(v.IntegerArrayValue)
	case ParameterDoubleArray:
		out.DoubleArrayValue = cloneNonNil(v.DoubleArrayValue)
	case ParameterStringArray:
		out.StringArrayValue = cloneNonNil(v.StringArrayValue)
	}
	return out
}

// Equal reports whether v and w have the same type and value. Doubles are
// compared bit for bit after normalising NaN, so a NaN equals a NaN (the
// value did not change) and 0 equals -0 is false.
func (v ParameterValue) Equal(w ParameterValue) bool {
	if v.Type != w.Type {
		return false
	}
	switch v.Type {
	case ParameterNotSet:
		return true
	case ParameterBool:
		return v.BoolValue == w.BoolValue
	case ParameterInteger:
		return v.IntegerValue == w.IntegerValue
	case ParameterDouble:
		return sameFloat(v.DoubleValue, w.DoubleValue)
	case ParameterString:
		return v.StringValue == w.StringValue
	case ParameterByteArray:
		return slices.Equal(v.ByteArrayValue, w.ByteArrayValue)
	case ParameterBoolArray:
		return slices.Equal(v.BoolArrayValue, w.BoolArrayValue)
	case ParameterIntegerArray:
		return slices.Equal(v.IntegerArrayValue, w.IntegerArrayValue)
	case ParameterDoubleArray:
		return slices.EqualFunc(v.DoubleArrayValue, w.DoubleArrayValue, sameFloat)
	case ParameterStringArray:
		return slices.Equal(v.StringArrayValue, w.StringArrayValue)
	}
	return false
}

func sameFloat(a, b float64) bool {
	if math.IsNaN(a) || math.IsNaN(b) {
		return math.IsNaN(a) && math.IsNaN(b)
	}
	return math.Float64bits(a) == math.Float64bits(b)
}

// String formats v the way it would be written in a parameters YAML file
// (doubles always with a '.', an exponent, or .inf/.nan so that they read
// back as doubles; strings quoted when they would otherwise read back as
// another type). A NOT_SET value formats as "<not set>".
func (v ParameterValue) String() string {
	switch v.Type {
	case ParameterNotSet:
		return "<not set>"
	case ParameterBool:
		return strconv.FormatBool(v.BoolValue)
	case ParameterInteger:
		return strconv.FormatInt(v.IntegerValue, 10)
	case ParameterDouble:
		return formatDouble(v.DoubleValue)
	case ParameterString:
		return formatString(v.StringValue)
	case ParameterByteArray:
		return formatList(v.ByteArrayValue, func(b byte) string { return strconv.Itoa(int(b)) })
	case ParameterBoolArray:
		return formatList(v.BoolArrayValue, strconv.FormatBool)
	case ParameterIntegerArray:
		return formatList(v.IntegerArrayValue, func(i int64) string { return strconv.FormatInt(i, 10) })
	case ParameterDoubleArray:
		return formatList(v.DoubleArrayValue, formatDouble)
	case ParameterStringArray:
		return formatList(v.StringArrayValue, formatString)
	}
	return "<" + TypeName(v.Type) + ">"
}

func formatList[T any](s []T, f func(T) string) string {
	parts := make([]string, len(s))
	for i, e := range s {
		parts[i] = f(e)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// formatDouble writes x so that the rcl scalar rules read it back as the
// same double.
func formatDouble(x float64) string {
	switch {
	case math.IsNaN(x):
		return ".nan"
	case math.IsInf(x, 1):
		return ".inf"
	case math.IsInf(x, -1):
		return "-.inf"
	}
	s := strconv.FormatFloat(x, 'g', -1, 64)
	if !strings.ContainsAny(s, ".eE") {
		s += ".0"
	}
	return s
}

// formatString quotes s when reading it back plain would not give the same
// string (it would parse as another type, or it holds YAML syntax).
func formatString(s string) string {
	if v, err := scalarValue(s, false); err == nil && v.Type == ParameterString && plainSafe(s) {
		return s
	}
	return strconv.Quote(s)
}

// plainSafe reports whether s can be written as a plain YAML scalar in flow
// or block context without changing meaning: conservative, anything unusual
// gets quoted.
func plainSafe(s string) bool {
	if s == "" || s != strings.TrimSpace(s) {
		return false
	}
	for _, r := range s {
		if !(r == '_' || r == '-' || r == '.' || r == '/' || r >= '0' && r <= '9' ||
			r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			return false
		}
	}
	return s[0] != '-' && s != "~" && s != "null" && s != "Null" && s != "NULL"
}
