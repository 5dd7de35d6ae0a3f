package sdf

import (
	"errors"
	"fmt"
)

// ErrMalformed is wrapped by every *Error that reports input the reader
// cannot turn into a world (bad XML, a pose of five numbers, a negative
// mass, a missing mesh file, an include that cannot be found).
var ErrMalformed = errors.New("sdf: malformed world")

// Error is a load failure at one element of one file.
type Error struct {
	File    string // the file as named to the loader, or an include's path in its search folder
	Line    int    // 1-based line of the element's start tag; 0 when unknown
	Element string // the element's path from the root, e.g. "sdf/world/model[box]/link[body]/inertial/mass"
	Err     error  // the cause; wraps ErrMalformed
}

// Error formats the failure as "file:line: element: cause".
func (e *Error) Error() string {
	return fmt.Sprintf("%s:%d: %s: %v", e.File, e.Line, e.Element, e.Err)
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// Warning is something the reader skipped or assumed: an element it does
// not support, a default it filled in. The world still loads; the physics
// and the renderer see what the description says minus what is warned.
type Warning struct {
	File    string // as in Error
	Line    int    // as in Error
	Element string // as in Error
	Message string // what was ignored or assumed, and what it means
}

// String formats the warning as "file:line: element: message".
func (w Warning) String() string {
	return fmt.Sprintf("%s:%d: %s: %s", w.File, w.Line, w.Element, w.Message)
}
