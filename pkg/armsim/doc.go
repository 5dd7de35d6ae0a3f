// Package armsim is a simulated robot arm for tests and demos: it takes
// joint targets (jog.JointTarget: a point and, in motion, the next one)
// and reports its joint positions and velocities, the simulation's truth.
//
// A target with velocities is followed as a ros2_control joint trajectory
// controller follows points with positions and velocities: a cubic
// Hermite segment from the current position and velocity to the point at
// its TimeFromStart, another on to the target's Next point if it has one,
// then resting there. Times count from the target's stamp on the arm's
// clock (within MaxStampSkew), so a target that arrives late but before
// its point is due leaves the motion as if it had come on time. The jog
// profiles (constant
// acceleration within each cycle) are thus reproduced exactly, and the
// arm does not limit them: it is a witness, counting targets outside the
// joint limits (Violations) and time over a velocity limit (OverSpeed). A
// target without velocities is reached in straight lines, all joints
// arriving together at its time, each no faster than its limit.
//
// Time is advanced explicitly (Advance) so tests are deterministic; Run
// advances it in real time for the arm_sim node, whose ROS contract
// (name, topics, QoS, parameters) is package armsim/node.
//
// An Arm is safe for concurrent use.
package armsim
