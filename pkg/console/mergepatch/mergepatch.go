// Package mergepatch computes and applies JSON merge patches (RFC 7386)
// between documents decoded by encoding/json into generic values
// (map[string]any, []any, float64, string, bool, nil).
//
// The console sends its state to every page ten times a second; most of
// it (limits, the balance polygon, the motors' and subsystems' lists,
// the cameras) does not change between two updates, and over a narrow
// radio link the whole of it (4.4 kB with every machine) would cost a
// tenth of 3 Mbit/s. A patch carries what changed.
//
// A merge patch cannot set a member to null (null deletes it), so
// applying Diff(a, b) to a gives b without its null members (Normal):
// a reader treats a missing member and a null one alike.
package mergepatch

import "reflect"

// Diff returns the merge patch that turns a into b: the members of b
// that are new or changed (objects recursively, anything else whole) and
// null for the members of a that b lacks. It is empty when a and b are
// equal. a and b are not modified; the patch shares b's values.
func Diff(a, b map[string]any) map[string]any {
	p := map[string]any{}
	for k, bv := range b {
		av, ok := a[k]
		if !ok {
			if bv != nil { // null would delete what is not there
				p[k] = bv
			}
			continue
		}
		am, aObj := av.(map[string]any)
		bm, bObj := bv.(map[string]any)
		switch {
		case aObj && bObj:
			if sub := Diff(am, bm); len(sub) > 0 {
				p[k] = sub
			}
		case bObj:
			// An object replacing a value: applied onto that value it
			// becomes a fresh object, which is what b has.
			p[k] = bv
		case !reflect.DeepEqual(av, bv):
			p[k] = bv // null here deletes the member, as Normal does
		}
	}
	for k := range a {
		if _, ok := b[k]; !ok {
			p[k] = nil
		}
	}
	return p
}

// Apply merges patch into target as RFC 7386 says and returns the
// result; target is not modified (changed objects are copied, the rest
// shared).
func Apply(target, patch any) any {
	pm, ok := patch.(map[string]any)
	if !ok {
		return patch
	}
	tm, _ := target.(map[string]any)
	out := make(map[string]any, len(tm)+len(pm))
	for k, v := range tm {
		out[k] = v
	}
	for k, v := range pm {
		if v == nil {
			delete(out, k)
			continue
		}
		out[k] = Apply(out[k], v)
	}
	return out
}

// Normal returns v without the null members of its objects (recursively
// through objects; arrays are values of their own and stay as they are):
// what Apply makes of a document.
func Normal(v any) any {
	m, ok := v.(map[string]any)
	if !ok {
		return v
	}
	out := make(map[string]any, len(m))
	for k, x := range m {
		if x != nil {
			out[k] = Normal(x)
		}
	}
	return out
}
