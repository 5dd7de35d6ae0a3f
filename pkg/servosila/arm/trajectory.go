package arm

import (
	"math"

	"github.com/telebridge/telebridge/pkg/trajectory"
)

// TrajectoryConfig returns the arm's joints (in its order), their limits
// [rad] and velocity limits [rad/s] from the driver's configuration, as a
// trajectory follower's configuration (package trajectory/server drives
// the Arm with it). Partial goals are allowed, as on the
// ~/joint_trajectory topic: the joints a goal does not name hold their
// position. Tolerances are left to the caller.
func (a *Arm) TrajectoryConfig() trajectory.Config {
	cfg := a.drv.Config()
	tc := trajectory.Config{Joints: append([]string(nil), a.names...), AllowPartial: true}
	for _, j := range a.joints {
		lo, hi := cfg.Arm.Lower[j], cfg.Arm.Upper[j]
		if lo == 0 && hi == 0 { // the position controller's default
			lo, hi = -math.Pi, math.Pi
		}
		tc.Lower = append(tc.Lower, lo)
		tc.Upper = append(tc.Upper, hi)
		tc.MaxVelocity = append(tc.MaxVelocity, cfg.MaxJoint[j])
	}
	return tc
}
