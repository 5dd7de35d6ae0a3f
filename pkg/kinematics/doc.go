// Package kinematics models a serial robot arm as a chain of joints and
// computes its forward kinematics, its geometric Jacobian and its inverse
// kinematics within the joint limits.
//
// A Chain is built from a URDF robot description (ParseURDF: revolute,
// continuous, prismatic and fixed joints between a base link and a tip
// link; limits read as urdfdom reads them, soft limits of a
// <safety_controller> narrowing the range as MoveIt does) or from a
// Denavit-Hartenberg table (FromDH). Joint positions are in
// radians for revolute and continuous joints and metres for prismatic
// joints; poses are geom.Transform values T_base_tip in metres and unit
// quaternions.
//
// The inverse kinematics (Solver) is a damped least-squares
// (Levenberg-Marquardt) iteration on the 6-D pose error, clamped to the
// joint limits at every step, restarted from random in-limit
// configurations when it stalls, in the spirit of TRAC-IK. Given the same
// Config.Seed and the same inputs it returns the same answer, so tests and
// benchmarks are reproducible.
//
// A Chain is immutable after construction and safe for concurrent use. A
// Solver holds scratch buffers and is for one goroutine at a time; make one
// per goroutine with NewSolver.
package kinematics
