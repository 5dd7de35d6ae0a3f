package jog

import (
	"fmt"
	"math"

	"github.com/telebridge/telebridge/pkg/kinematics"
	"github.com/telebridge/telebridge/pkg/rosparam"
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
		if j.Type == kinematics.Continuous {
			j.Type = kinematics.Revolute
		}
		j.Lower, j.Upper = math.Max(j.Lower, lo), math.Min(j.Upper, hi)
		if j.Lower > j.Upper {
			return nil, nil, fmt.Errorf("%w: joint_limits[%d] do not overlap the URDF limits of %q", ErrParam, i, j.Name)
		}
		steps[i] = l.Step
		if l.Unit != "m" {
			steps[i] = l.Step * math.Pi / 180
		}
	}
	return joints, steps, nil
}

// ParamsFromFile reads the jog parameters of node (a fully qualified name
// such as "/jog_server") from a ROS 2 parameters file, over the defaults,
// through the same rosparam declaration as jog_server's (NodeParameterTable:
// typing, empty sequences, ranges): the node's own parameters are read and
// not returned, unknown names are ignored as rclcpp ignores them, and a jog
// parameter of the wrong type or out of range is an error.
func ParamsFromFile(path, node string) (Params, error) {
	var o rosparam.Overrides
	if err := o.LoadFile(path); err != nil {
		return Params{}, fmt.Errorf("jog: %w", err)
	}
	s, err := rosparam.New(rosparam.Config{Node: node, Table: NodeParameterTable(), Overrides: &o})
	if err != nil {
		return Params{}, fmt.Errorf("jog: parameters of %s in %s: %w", node, path, err)
	}
	p := DefaultParams()
	if err := p.Apply(s.Values()); err != nil {
		return Params{}, fmt.Errorf("jog: parameters of %s in %s: %w", node, path, err)
	}
	return p, nil
}
