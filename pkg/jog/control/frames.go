package control

import (
	"github.com/telebridge/telebridge/pkg/geom"
	"gonum.org/v1/gonum/spatial/r3"
)

// GoalInBase composes an absolute Cartesian goal in the robot base:
// baseToRef * extra * pose, where baseToRef is the pose of the request's
// reference frame in the base, extra the extra reference frame given in
// it (nil: none) and pose the goal in that frame (all T_parent_child, [m]
// and unit quaternions). This is the drag&bot rule: the goal
// (0,0,0.01,0,0,0) in the extra frame (-2,0,2,0,0,0) on a frame A at
// (1,0,0,0,0,0) in the base is (-1,0,2.01,0,0,0) in the base.
func GoalInBase(baseToRef geom.Transform, extra *geom.Transform, pose geom.Transform) geom.Transform {
	t := baseToRef
	if extra != nil {
		t = t.Mul(*extra)
	}
	return t.Mul(pose)
}

// StepPose returns the tool pose one incremental step ahead of tool
// (T_base_tool): a translation of stepT [m] along dirP and a rotation of
// stepR [rad] along dirR (rz, ry, rx as Z, Y, X: intrinsic ZYX Euler
// angles), both unit directions or zero, expressed in frame f (T_base_F):
// f * delta * f⁻¹ * tool. With f's origin at the tool point the step
// turns about the tool with f's axes.
func StepPose(f, tool geom.Transform, dirP, dirR r3.Vec, stepT, stepR float64) geom.Transform {
	r := r3.Scale(stepR, dirR)
	delta := geom.Transform{Translation: r3.Scale(stepT, dirP), Rotation: geom.FromEulerZYX(r.Z, r.Y, r.X)}
	return f.Mul(delta).Mul(f.Inverse()).Mul(tool)
}

// Unit returns v normalised, or v itself if it is zero.
func Unit(v r3.Vec) r3.Vec {
	if n := r3.Norm(v); n > 0 {
		return r3.Scale(1/n, v)
	}
	return v
}
