package armsim

import (
	"fmt"

	"github.com/telebridge/telebridge/pkg/trajectory"
)

// The arm behind a trajectory follower (package trajectory/server): its
// joints and limits, and its measured velocities.

// TrajectoryConfig returns the arm's joints, position limits [rad or m]
// and velocity limits [rad/s or m/s] as a trajectory follower's
// configuration; tolerances are left to the caller.
func (a *Arm) TrajectoryConfig() trajectory.Config {
	return trajectory.Config{
		Joints:      append([]string(nil), a.cfg.Names...),
		Lower:       append([]float64(nil), a.cfg.Lower...),
		Upper:       append([]float64(nil), a.cfg.Upper...),
		MaxVelocity: append([]float64(nil), a.cfg.MaxVelocity...),
	}
}

// JointVelocities writes the joint velocities [rad/s or m/s], the
// truth's, into dst (one per joint). It allocates nothing.
func (a *Arm) JointVelocities(dst []float64) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	if len(dst) != len(a.rate) {
		return fmt.Errorf("armsim: joint velocities: %d slots for %d joints", len(dst), len(a.rate))
	}
	copy(dst, a.rate)
	return nil
}
