// Package physics is the training world's rigid-body physics: a World of
// static geometry, dynamic bodies, hinge joints with motors and limits,
// and belts (contact surface motion, how tracks are simulated), stepped at
// a fixed rate by the Open Dynamics Engine 0.16 (package ode, loaded at
// run time; New fails with a one-line error naming libode-dev when it is
// missing).
//
// Frames and units: SI (m, kg, s, rad, N, N m); the world frame is z up
// (gravity (0, 0, -9.81) m/s^2 by default); poses are a position and a
// quaternion (w, x, y, z) of a frame in its parent (bodies and static
// geometry: in the world; shapes: in their body's link frame).
//
// Stepping: a fixed step (Config.Step, 1 ms by default) of
// dWorldQuickStep, ODE's iterative (projected Gauss-Seidel) solver, whose
// cost grows linearly with the number of constraints; dWorldStep (the
// exact pivoting solver, cubic cost) is Config.Exact. Contacts are found
// each step through one collision callback (created once per process with
// purego.NewCallback; callbacks cannot be freed) over a space of the
// bodies' geoms against itself and against a hash space of the static
// geometry.
//
// Determinism: the same sequence of calls on a World gives the same state
// bit for bit, also with other Worlds stepped in between: every ODE call
// is serialised by one package lock, and each World keeps its own copy of
// ODE's global random seed (which dWorldQuickStep uses to reorder
// constraints), restored before and saved after each step.
//
// Errors, never panics: a bad shape, mass or joint is an error naming it;
// a step that fails or leaves a body at NaN is an error; Close frees
// everything ODE holds and is safe to call twice.
package physics
