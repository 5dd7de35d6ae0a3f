package camera

import (
	"fmt"
	"strconv"
	"strings"
)

// This file reads the small subset of YAML that calibration files (the
// format of ROS camera_calibration_parsers) and parameter files use: block
// mappings nested by indentation, block sequences of scalars, flow
// sequences of scalars ("[1, 2, 3]", possibly over several lines), plain
// and quoted scalars, comments, and a leading "---" or "%YAML" line.
// Anchors, aliases, tags, flow mappings, multi-line strings and mappings
// inside sequences are rejected with an error. The standard library has no
// YAML reader, and this subset is small enough not to justify a dependency.

type yamlKind int

const (
	yamlScalar yamlKind = iota
	yamlMap
	yamlSeq
)

// yamlNode is a parsed YAML value: a scalar, a mapping with ordered keys, or
// a sequence.
type yamlNode struct {
	kind   yamlKind
	value  string // scalar text, unquoted
	quoted bool   // scalar was quoted (so it is a string, never a number)
	keys   []string
	vals   []*yamlNode
	items  []*yamlNode
	line   int
}

// get returns the value of key in a mapping, or nil.
func (n *yamlNode) get(key string) *yamlNode {
	if n == nil || n.kind != yamlMap {
		return nil
	}
	for i, k := range n.keys {
		if k == key {
			return n.vals[i]
		}
	}
	return nil
}

type yamlLine struct {
	indent int
	text   string
	no     int // 1-based line number
}

// maxYAMLDepth bounds nesting, so hostile input cannot exhaust the stack.
const maxYAMLDepth = 32

func parseYAML(data []byte) (*yamlNode, error) {
	lines, err := yamlLines(string(data))
	if err != nil {
		return nil, err
	}
	if len(lines) == 0 {
		return &yamlNode{kind: yamlMap}, nil
	}
	if lines[0].indent != 0 {
		return nil, fmt.Errorf("yaml line %d: document must start at column 1", lines[0].no)
	}
	n, next, err := parseBlock(lines, 0, 0, 0)
	if err != nil {
		return nil, err
	}
	if next != len(lines) {
		return nil, fmt.Errorf("yaml line %d: unexpected indentation", lines[next].no)
	}
	return n, nil
}

// yamlLines splits text into logical lines: comments and blank lines
// dropped, flow sequences spanning lines joined.
func yamlLines(text string) ([]yamlLine, error) {
	var out []yamlLine
	raw := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	for i := 0; i < len(raw); i++ {
		s := raw[i]
		if strings.ContainsRune(s, '\t') && strings.TrimLeft(s, " \t") != strings.TrimLeft(s, " ") {
			return nil, fmt.Errorf("yaml line %d: tab in indentation", i+1)
		}
		body := strings.TrimLeft(s, " ")
		indent := len(s) - len(body)
		body = strings.TrimRight(stripComment(body), " \t")
		if body == "" || body == "---" || (indent == 0 && strings.HasPrefix(body, "%")) {
			continue
		}
		if body == "..." {
			break
		}
		no := i + 1
		// join a flow sequence that opens on this line and closes later
		for strings.Count(body, "[") > strings.Count(body, "]") {
			i++
			if i >= len(raw) {
				return nil, fmt.Errorf("yaml line %d: unterminated '['", no)
			}
			body += " " + strings.TrimSpace(stripComment(raw[i]))
		}
		out = append(out, yamlLine{indent: indent, text: body, no: no})
	}
	return out, nil
}

// indexUnquoted returns the index of the first byte of s outside single
// or double quotes for which stop is true, or -1; open reports whether a
// quote was still open at the end.
func indexUnquoted(s string, stop func(s string, i int) bool) (at int, open bool) {
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"':
			quote = c
		case stop(s, i):
			return i, false
		}
	}
	return -1, quote != 0
}

// stripComment removes a " #" comment outside quotes.
func stripComment(s string) string {
	at, _ := indexUnquoted(s, func(s string, i int) bool {
		return s[i] == '#' && (i == 0 || s[i-1] == ' ' || s[i-1] == '\t')
	})
	if at >= 0 {
		return s[:at]
	}
	return s
}

// parseBlock parses the block starting at lines[i], whose lines have
// exactly indent spaces, and returns it with the index after it.
func parseBlock(lines []yamlLine, i, indent, depth int) (*yamlNode, int, error) {
	if depth > maxYAMLDepth {
		return nil, i, fmt.Errorf("yaml line %d: nesting deeper than %d", lines[i].no, maxYAMLDepth)
	}
	if isSeqItem(lines[i].text) {
		n := &yamlNode{kind: yamlSeq, line: lines[i].no}
		for i < len(lines) && lines[i].indent == indent && isSeqItem(lines[i].text) {
			item := strings.TrimSpace(strings.TrimPrefix(lines[i].text, "-"))
			v, err := parseInline(item, lines[i].no)
			if err != nil {
				return nil, i, err
			}
			if v == nil {
				return nil, i, fmt.Errorf("yaml line %d: nested block in a sequence item is not supported", lines[i].no)
			}
			n.items = append(n.items, v)
			i++
		}
		return n, i, nil
	}
	n := &yamlNode{kind: yamlMap, line: lines[i].no}
	for i < len(lines) && lines[i].indent == indent {
		l := lines[i]
		if isSeqItem(l.text) {
			return nil, i, fmt.Errorf("yaml line %d: sequence item inside a mapping", l.no)
		}
		key, rest, err := splitKey(l.text, l.no)
		if err != nil {
			return nil, i, err
		}
		for _, k := range n.keys {
			if k == key {
				return nil, i, fmt.Errorf("yaml line %d: duplicate key %q", l.no, key)
			}
		}
		i++
		var v *yamlNode
		if rest != "" {
			if v, err = parseInline(rest, l.no); err != nil {
				return nil, i, err
			}
		}
		if v == nil { // "key:" then a nested block, or nothing (null)
			switch {
			case i < len(lines) && lines[i].indent > indent:
				if v, i, err = parseBlock(lines, i, lines[i].indent, depth+1); err != nil {
					return nil, i, err
				}
			case i < len(lines) && lines[i].indent == indent && isSeqItem(lines[i].text):
				// "key:\n- a\n- b": a sequence at the key's own indentation
				if v, i, err = parseBlock(lines, i, indent, depth+1); err != nil {
					return nil, i, err
				}
			default:
				v = &yamlNode{kind: yamlScalar, line: l.no}
			}
		}
		n.keys = append(n.keys, key)
		n.vals = append(n.vals, v)
	}
	if i < len(lines) && lines[i].indent > indent {
		return nil, i, fmt.Errorf("yaml line %d: unexpected indentation", lines[i].no)
	}
	return n, i, nil
}

func isSeqItem(s string) bool { return s == "-" || strings.HasPrefix(s, "- ") }

// splitKey splits "key: rest" (or "key:"), the key plain or quoted.
func splitKey(s string, no int) (key, rest string, err error) {
	if s[0] == '"' || s[0] == '\'' {
		end := strings.IndexByte(s[1:], s[0])
		if end < 0 {
			return "", "", fmt.Errorf("yaml line %d: unterminated quoted key", no)
		}
		key, s = s[1:1+end], s[2+end:]
		if !strings.HasPrefix(s, ":") {
			return "", "", fmt.Errorf("yaml line %d: want ':' after key", no)
		}
		return key, strings.TrimSpace(s[1:]), nil
	}
	j := strings.Index(s, ": ")
	switch {
	case j >= 0:
		key, rest = s[:j], strings.TrimSpace(s[j+2:])
	case strings.HasSuffix(s, ":"):
		key = s[:len(s)-1]
	default:
		return "", "", fmt.Errorf("yaml line %d: want 'key: value', got %q", no, s)
	}
	key = strings.TrimSpace(key)
	if key == "" || strings.ContainsAny(key, "[]{}&*!|>") {
		return "", "", fmt.Errorf("yaml line %d: unsupported key %q", no, key)
	}
	return key, rest, nil
}

// parseInline parses a value on the same line as its key or dash: a flow
// sequence or a scalar. It returns nil for an empty value.
func parseInline(s string, no int) (*yamlNode, error) {
	if s == "" {
		return nil, nil
	}
	switch s[0] {
	case '[':
		if !strings.HasSuffix(s, "]") {
			return nil, fmt.Errorf("yaml line %d: text after flow sequence", no)
		}
		n := &yamlNode{kind: yamlSeq, line: no}
		inner := strings.TrimSpace(s[1 : len(s)-1])
		if inner == "" {
			return n, nil
		}
		parts, err := splitFlow(inner, no)
		if err != nil {
			return nil, err
		}
		for _, p := range parts {
			v, err := parseScalar(strings.TrimSpace(p), no)
			if err != nil {
				return nil, err
			}
			n.items = append(n.items, v)
		}
		return n, nil
	case '{', '&', '*', '!', '|', '>', '@', '`':
		return nil, fmt.Errorf("yaml line %d: unsupported YAML construct %q", no, s[:1])
	}
	return parseScalar(s, no)
}

// splitFlow splits the inside of a flow sequence at commas outside quotes.
func splitFlow(s string, no int) ([]string, error) {
	var parts []string
	for {
		at, open := indexUnquoted(s, func(s string, i int) bool { return strings.IndexByte(",[]{}", s[i]) >= 0 })
		if open {
			return nil, fmt.Errorf("yaml line %d: unterminated quote", no)
		}
		if at < 0 {
			if last := strings.TrimSpace(s); last != "" {
				parts = append(parts, last)
			}
			return parts, nil
		}
		if s[at] != ',' {
			return nil, fmt.Errorf("yaml line %d: nested flow collections are not supported", no)
		}
		parts = append(parts, s[:at])
		s = s[at+1:]
	}
}

func parseScalar(s string, no int) (*yamlNode, error) {
	n := &yamlNode{kind: yamlScalar, line: no}
	if s == "" {
		return nil, fmt.Errorf("yaml line %d: empty flow item", no)
	}
	switch s[0] {
	case '"':
		v, err := strconv.Unquote(s)
		if err != nil {
			return nil, fmt.Errorf("yaml line %d: bad double-quoted string %s", no, s)
		}
		n.value, n.quoted = v, true
	case '\'':
		if len(s) < 2 || s[len(s)-1] != '\'' {
			return nil, fmt.Errorf("yaml line %d: bad single-quoted string %s", no, s)
		}
		inner := s[1 : len(s)-1]
		if strings.Contains(strings.ReplaceAll(inner, "''", ""), "'") {
			return nil, fmt.Errorf("yaml line %d: bad single-quoted string %s", no, s)
		}
		n.value, n.quoted = strings.ReplaceAll(inner, "''", "'"), true
	case '&', '*', '!', '|', '>', '{', '[', ']', '}', '@', '`':
		return nil, fmt.Errorf("yaml line %d: unsupported YAML construct %q", no, s[:1])
	default:
		if strings.Contains(s, ": ") {
			return nil, fmt.Errorf("yaml line %d: mapping in a scalar position: %q", no, s)
		}
		n.value = s
	}
	return n, nil
}

// float returns a scalar as a finite float64 (YAML's ".nan"/".inf" are
// rejected: a calibration must be finite).
func (n *yamlNode) float() (float64, error) {
	if n == nil || n.kind != yamlScalar || n.quoted {
		return 0, fmt.Errorf("line %d: want a number", n.lineNo())
	}
	f, err := strconv.ParseFloat(n.value, 64)
	if err != nil || f != f || f > 1.7976931348623157e308 || f < -1.7976931348623157e308 {
		return 0, fmt.Errorf("line %d: %q is not a finite number", n.lineNo(), n.value)
	}
	return f, nil
}

func (n *yamlNode) int() (int, error) {
	if n == nil || n.kind != yamlScalar || n.quoted {
		return 0, fmt.Errorf("line %d: want an integer", n.lineNo())
	}
	v, err := strconv.ParseInt(n.value, 10, 32)
	if err != nil {
		return 0, fmt.Errorf("line %d: %q is not an integer", n.lineNo(), n.value)
	}
	return int(v), nil
}

func (n *yamlNode) lineNo() int {
	if n == nil {
		return 0
	}
	return n.line
}
