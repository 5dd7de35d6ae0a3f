//go:build race

package kinematics

// ikTestPoses is smaller under the race detector, which slows the solver
// several times over; the non-race run solves the full 10,000 per arm.
const ikTestPoses = 1000
