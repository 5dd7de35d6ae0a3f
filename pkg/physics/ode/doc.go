// Package ode is a run-time binding of the Open Dynamics Engine 0.16
// (Debian libode8, the library of libode-dev), loaded with purego so that
// `go build` needs neither the library nor cgo.
//
// Load opens libode.so.8, checks that it was built with dReal = double
// (dCheckConfiguration "ODE_double_precision") and initialises it; when
// the library is missing it returns ErrMissing with a one-line reason
// naming the Debian package to install. The handle types (World, Space,
// Body, Geom, Joint, JointGroup, TriMeshData) are ODE's opaque pointers;
// the structs Contact, ContactGeom and SurfaceParameters are laid out
// exactly as ode/contact.h and ode/collision.h of the double build
// (offsets checked by tests against the C header's offsetof values).
//
// Units are ODE's: SI (m, kg, s, rad, N, N m); world frame z up when the
// caller sets gravity (0, 0, -9.81).
//
// Functions with floating-point arguments or results go through
// purego.RegisterFunc (a reflect call: about four allocations each); the
// integer-only functions used on every step (collision, contact joints,
// body state pointers) go through purego.SyscallN (one small allocation,
// its argument slice).
//
// ODE keeps global state (the random generator of dWorldQuickStep, the
// collider tables); this package does not lock: the caller serialises
// (package physics holds one mutex around every ODE call).
package ode
