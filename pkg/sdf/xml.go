package sdf

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// node is one XML element with the line it starts on.
type node struct {
	name   string
	attrs  map[string]string
	text   string // the element's own character data, trimmed
	kids   []*node
	parent *node
	file   string
	line   int
	label  string // "model[box]" for named elements, for messages
	used   bool   // the interpreter read it (or decided to warn about it)
}

// path is the element's path from the root for messages.
func (n *node) path() string {
	var parts []string
	for m := n; m != nil; m = m.parent {
		parts = append(parts, m.label)
	}
	for i, j := 0, len(parts)-1; i < j; i, j = i+1, j-1 {
		parts[i], parts[j] = parts[j], parts[i]
	}
	return strings.Join(parts, "/")
}

// errorf returns an *Error at n.
func (n *node) errorf(format string, a ...any) error {
	return &Error{File: n.file, Line: n.line, Element: n.path(), Err: fmt.Errorf("%w: "+format, append([]any{ErrMalformed}, a...)...)}
}

// child returns the first child named name and marks it used, or nil.
func (n *node) child(name string) *node {
	for _, k := range n.kids {
		if k.name == name {
			k.used = true
			return k
		}
	}
	return nil
}

// children returns every child named name, marked used.
func (n *node) children(name string) []*node {
	var out []*node
	for _, k := range n.kids {
		if k.name == name {
			k.used = true
			out = append(out, k)
		}
	}
	return out
}

// floats parses the element's text as exactly n numbers (n<0: any count).
func (n *node) floats(want int) ([]float64, error) {
	f := strings.Fields(n.text)
	if want >= 0 && len(f) != want {
		return nil, n.errorf("want %d numbers, got %d (%q)", want, len(f), n.text)
	}
	out := make([]float64, len(f))
	for i, s := range f {
		x, err := strconv.ParseFloat(s, 64)
		if err != nil || x != x || x > 1e300 || x < -1e300 {
			return nil, n.errorf("%q is not a finite number", s)
		}
		out[i] = x
	}
	return out, nil
}

// float parses a child's text as one number, or returns def if the child
// is absent.
func (n *node) float(name string, def float64) (float64, error) {
	c := n.child(name)
	if c == nil {
		return def, nil
	}
	v, err := c.floats(1)
	if err != nil {
		return 0, err
	}
	return v[0], nil
}

// boolean parses a child's text as an SDF boolean (true/false/1/0), or
// returns def if the child is absent.
func (n *node) boolean(name string, def bool) (bool, error) {
	c := n.child(name)
	if c == nil {
		return def, nil
	}
	switch strings.TrimSpace(c.text) {
	case "true", "1":
		return true, nil
	case "false", "0":
		return false, nil
	}
	return false, c.errorf("%q is not a boolean (true, false, 1, 0)", c.text)
}

// str returns a child's trimmed text, or def if absent.
func (n *node) str(name, def string) string {
	if c := n.child(name); c != nil {
		return c.text
	}
	return def
}

// parseXML reads data into a tree. limits: maxDepth nested elements,
// maxNodes elements in all.
func parseXML(file string, data []byte, maxDepth, maxNodes int) (*node, error) {
	d := xml.NewDecoder(bytes.NewReader(data))
	d.Strict = true
	var root, cur *node
	count := 0
	depth := 0
	var text bytes.Buffer
	for {
		line, _ := d.InputPos()
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			var se *xml.SyntaxError
			if errors.As(err, &se) {
				line = se.Line
			}
			el := "xml"
			if cur != nil {
				el = cur.path()
			}
			return nil, &Error{File: file, Line: line, Element: el, Err: fmt.Errorf("%w: %v", ErrMalformed, err)}
		}
		switch t := tok.(type) {
		case xml.StartElement:
			count++
			depth++
			if depth > maxDepth || count > maxNodes {
				return nil, &Error{File: file, Line: line, Element: t.Name.Local, Err: fmt.Errorf("%w: more than %d nested or %d elements", ErrMalformed, maxDepth, maxNodes)}
			}
			if cur != nil {
				cur.text += text.String()
			}
			text.Reset()
			n := &node{name: t.Name.Local, attrs: map[string]string{}, parent: cur, file: file, line: line, label: t.Name.Local}
			for _, a := range t.Attr {
				n.attrs[a.Name.Local] = a.Value
			}
			if nm, ok := n.attrs["name"]; ok {
				n.label = fmt.Sprintf("%s[%s]", n.name, nm)
			}
			if cur == nil {
				if root != nil {
					return nil, &Error{File: file, Line: line, Element: n.name, Err: fmt.Errorf("%w: a second root element", ErrMalformed)}
				}
				root = n
			} else {
				cur.kids = append(cur.kids, n)
			}
			cur = n
		case xml.EndElement:
			depth--
			cur.text = strings.TrimSpace(cur.text + text.String())
			text.Reset()
			cur = cur.parent
		case xml.CharData:
			if cur != nil && text.Len() < 1<<20 {
				text.Write(t)
			}
		}
	}
	if root == nil {
		return nil, &Error{File: file, Line: 1, Element: "xml", Err: fmt.Errorf("%w: no root element", ErrMalformed)}
	}
	return root, nil
}
