// Package armsim is a simulated robot arm for tests and demos: it takes
// joint targets (jog.JointTarget, a one-point trajectory) and reports its
// joint positions and velocities, the simulation's truth.
//
// A target with velocities is followed as a ros2_control joint trajectory
// controller follows a point with positions and velocities: a cubic
// Hermite segment from the current position and velocity to the point at
// its TimeFromStart, then resting there. The jog profiles (constant
// acceleration within each cycle) are thus reproduced exactly, and the
// arm does not limit them: it is a witness, counting targets outside the
// joint limits (Violations) and time over a velocity limit (OverSpeed). A
// target without velocities is reached in straight lines, all joints
// arriving together at its time, each no faster than its limit.
//
// Time is advanced explicitly (Advance) so tests are deterministic; Run
// advances it in real time for the arm_sim node.
//
// An Arm is safe for concurrent use.
package armsim
