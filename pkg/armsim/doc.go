// Package armsim is a simulated robot arm for tests and demos: it takes
// joint targets (jog.JointTarget, a one-point trajectory), moves every
// joint toward its target so that all arrive together at the target's
// time, never faster than each joint's velocity limit, and reports its
// joint positions. Time is advanced explicitly (Advance) so tests are
// deterministic; Run advances it in real time for the telebridge jog demo.
//
// An Arm is safe for concurrent use.
package armsim
