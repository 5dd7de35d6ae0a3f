//go:build !race

package kinematics

// ikTestPoses is how many random poses TestIKSolveRate solves per arm.
const ikTestPoses = 10000
