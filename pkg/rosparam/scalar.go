package rosparam

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// ErrValue is wrapped by every error about a parameter value that cannot be
// read (empty scalar, mixed-type or nested sequence, mapping where a value
// was expected).
var ErrValue = errors.New("invalid parameter value")

// scalarValue types one YAML scalar the way rcl_yaml_param_parser does
// (get_value in parse.c), so that a file means the same to a Go node as to a
// C++ one:
//   - a quoted scalar ('...' or "...") is always a string;
//   - y Y yes Yes YES true True TRUE on On ON are true, and n N no No NO
//     false False FALSE off Off OFF are false;
//   - what C strtol (base 0: 0x hex, leading 0 octal) reads in full without
//     overflow is an integer;
//   - what C strtod reads in full without overflow or underflow is a double
//     (1.5, 1e3, inf, nan, 0x1p3), and so are .inf .Inf .INF +.inf -.inf
//     (and cases) .nan .NaN .NAN;
//   - anything else is a string; an empty plain scalar is an error.
func scalarValue(s string, quoted bool) (ParameterValue, error) {
	if quoted {
		return String(s), nil
	}
	if s == "" {
		return ParameterValue{}, fmt.Errorf("%w: empty value", ErrValue)
	}
	switch s {
	case "Y", "y", "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON":
		return Bool(true), nil
	case "N", "n", "no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF":
		return Bool(false), nil
	}
	if i, ok := parseCInt(s); ok {
		return Integer(i), nil
	}
	switch s {
	case ".nan", ".NaN", ".NAN":
		return Double(math.NaN()), nil
	case ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF":
		return Double(math.Inf(1)), nil
	case "-.inf", "-.Inf", "-.INF":
		return Double(math.Inf(-1)), nil
	}
	if f, ok := parseCDouble(s); ok {
		return Double(f), nil
	}
	return String(s), nil
}

// isCSpace is C isspace in the "C" locale.
func isCSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'
}

// splitSign skips leading C white space and an optional sign.
func splitSign(s string) (neg bool, rest string) {
	i := 0
	for i < len(s) && isCSpace(s[i]) {
		i++
	}
	s = s[i:]
	if s != "" && (s[0] == '+' || s[0] == '-') {
		return s[0] == '-', s[1:]
	}
	return false, s
}

func isDigitIn(c byte, base int) bool {
	switch {
	case c >= '0' && c <= '9':
		return int(c-'0') < base
	case c >= 'a' && c <= 'f':
		return base == 16
	case c >= 'A' && c <= 'F':
		return base == 16
	}
	return false
}

func allDigits(s string, base int) bool {
	for i := 0; i < len(s); i++ {
		if !isDigitIn(s[i], base) {
			return false
		}
	}
	return s != ""
}

// parseCInt reports whether C strtol(s, &end, 0) consumes all of s without
// overflow, and the value.
func parseCInt(s string) (int64, bool) {
	neg, body := splitSign(s)
	base, digits := 10, body
	switch {
	case len(body) > 2 && (body[:2] == "0x" || body[:2] == "0X") && isDigitIn(body[2], 16):
		base, digits = 16, body[2:]
	case len(body) > 1 && body[0] == '0':
		base, digits = 8, body[1:]
	}
	if !allDigits(digits, base) {
		return 0, false
	}
	u, err := strconv.ParseUint(digits, base, 64)
	if err != nil {
		return 0, false
	}
	if neg {
		if u > 1<<63 {
			return 0, false
		}
		return -int64(u), true // -(1<<63) wraps to MinInt64 as intended
	}
	if u > math.MaxInt64 {
		return 0, false
	}
	return int64(u), true
}

// parseCDouble reports whether C strtod(s, &end) consumes all of s without
// setting ERANGE (overflow, or underflow to zero or a subnormal), and the
// value.
func parseCDouble(s string) (float64, bool) {
	neg, body := splitSign(s)
	sign := 1.0
	if neg {
		sign = -1
	}
	lower := strings.ToLower(body)
	switch {
	case lower == "inf" || lower == "infinity":
		return sign * math.Inf(1), true
	case lower == "nan" || strings.HasPrefix(lower, "nan(") && strings.HasSuffix(lower, ")") && cNanPayload(lower[4:len(lower)-1]):
		return math.NaN(), true
	}
	var text, mant string
	if len(body) > 2 && lower[:2] == "0x" {
		m, exp, hasExp := strings.Cut(lower[2:], "p")
		if !cMantissa(m, 16) || hasExp && !cExponent(exp) {
			return 0, false
		}
		if !hasExp {
			exp = "0"
		}
		text, mant = "0x"+m+"p"+exp, m
	} else {
		m, exp, hasExp := strings.Cut(lower, "e")
		if !cMantissa(m, 10) || hasExp && !cExponent(exp) {
			return 0, false
		}
		text, mant = lower, m
	}
	f, err := strconv.ParseFloat(text, 64)
	if err != nil {
		return 0, false // overflow: strtod sets ERANGE
	}
	underflow := f == 0 && strings.ContainsAny(mant, "123456789abcdef") ||
		f != 0 && math.Abs(f) < 0x1p-1022
	if underflow {
		return 0, false
	}
	return sign * f, true
}

// cMantissa: digits with at most one '.', at least one digit.
func cMantissa(m string, base int) bool {
	ip, fp, _ := strings.Cut(m, ".")
	if ip == "" && fp == "" {
		return false
	}
	return (ip == "" || allDigits(ip, base)) && (fp == "" || allDigits(fp, base))
}

// cExponent: optional sign then decimal digits.
func cExponent(e string) bool {
	if e != "" && (e[0] == '+' || e[0] == '-') {
		e = e[1:]
	}
	return allDigits(e, 10)
}

func cNanPayload(p string) bool {
	for i := 0; i < len(p); i++ {
		c := p[i]
		if !(c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z') {
			return false
		}
	}
	return true
}
