package control

import "errors"

// Errors callers branch on; package jog exports the same values under the
// same names (jog.ErrRequest is ErrRequest), so errors.Is works with
// either.
var (
	// ErrRequest: a malformed request (a line of length zero, among
	// others); nothing moves.
	ErrRequest = errors.New("jog: bad request")
	// ErrParam: a bad parameter: unknown name, wrong type, value out of
	// range, inconsistent joint limits, a command type that is not a
	// relative one.
	ErrParam = errors.New("jog: bad parameter")
	// ErrUnreachable: inverse kinematics found no in-limit solution, or a
	// joint would exceed its velocity limit on a line; the motion stops
	// (or does not start).
	ErrUnreachable = errors.New("jog: target unreachable")
)
