package jog

import (
	"fmt"
	"math"

	"github.com/telebridge/telebridge/pkg/jog/control"
	"github.com/telebridge/telebridge/pkg/kinematics"
)

// JointRanges returns the chain's joints with the limits the jog server
// moves them within: the URDF's (soft limits included, as the parser
// reads them), narrowed by the joint_limits parameter, where a continuous
// joint that joint_limits bounds becomes revolute; and each joint's step
// from joint_limits.step [rad, or m for a prismatic joint], 0 where none is
// given. The step is drag&bot's GUI interval: the operator console's
// joint targets move by it. Errors wrap ErrParam.
func JointRanges(chain *kinematics.Chain, p Params) (joints []kinematics.Joint, steps []float64, err error) {
	n := chain.DOF()
	if len(p.JointLimits) != 0 && len(p.JointLimits) != n {
		return nil, nil, fmt.Errorf("%w: %d joint_limits for %d joints", ErrParam, len(p.JointLimits), n)
	}
	joints = append([]kinematics.Joint(nil), chain.Joints...)
	steps = make([]float64, n)
	if len(p.JointLimits) == 0 {
		return joints, steps, nil
	}
	for i := range joints {
		j, l := &joints[i], p.JointLimits[i]
		if (l.Unit == "m") != (j.Type == kinematics.Prismatic) {
			return nil, nil, fmt.Errorf("%w: joint_limits[%d] unit %q for %s joint %q", ErrParam, i, l.Unit, j.Type, j.Name)
		}
		lo, hi := l.Radians()
		var ok bool
		if *j, ok = control.NarrowJoint(*j, lo, hi); !ok {
			return nil, nil, fmt.Errorf("%w: joint_limits[%d] do not overlap the URDF limits of %q", ErrParam, i, j.Name)
		}
		steps[i] = l.Step
		if l.Unit != "m" {
			steps[i] = l.Step * math.Pi / 180
		}
	}
	return joints, steps, nil
}
