package control

import (
	"math"

	"github.com/telebridge/telebridge/pkg/kinematics"
)

// NarrowJoint returns joint j with its limits narrowed to [lo, hi] [rad,
// or m for a prismatic joint]: the URDF's range (soft limits included)
// within the joint_limits parameter's. A continuous joint that is bounded
// becomes revolute. ok is false if the two ranges do not overlap.
func NarrowJoint(j kinematics.Joint, lo, hi float64) (_ kinematics.Joint, ok bool) {
	if j.Type == kinematics.Continuous {
		j.Type = kinematics.Revolute
	}
	j.Lower, j.Upper = math.Max(j.Lower, lo), math.Min(j.Upper, hi)
	return j, j.Lower <= j.Upper
}
