package kinematics

import (
	"errors"
	"fmt"
	"math"

	"github.com/telebridge/telebridge/pkg/geom"
	"gonum.org/v1/gonum/spatial/r3"
)

// JointType is the kind of motion of a joint.
type JointType int

// Joint types, as in URDF.
const (
	Revolute   JointType = iota // rotation about Axis within [Lower, Upper] [rad]
	Continuous                  // rotation about Axis without limits [rad]
	Prismatic                   // translation along Axis within [Lower, Upper] [m]
)

// String returns the URDF name of the joint type.
func (t JointType) String() string {
	switch t {
	case Revolute:
		return "revolute"
	case Continuous:
		return "continuous"
	case Prismatic:
		return "prismatic"
	}
	return fmt.Sprintf("JointType(%d)", int(t))
}

// Joint is one moving joint of a chain.
type Joint struct {
	Name string    // the URDF joint name
	Type JointType // revolute, continuous or prismatic
	// Origin is the pose of the joint frame in the frame of the previous
	// joint (after that joint's motion), or in the base for the first
	// joint. Fixed joints in between are folded into it.
	Origin geom.Transform
	// Axis is the unit axis of rotation or translation in the joint frame.
	Axis r3.Vec
	// Lower and Upper bound the position [rad or m]; ±Inf for continuous
	// joints. From a URDF they are the soft limits of the joint's
	// <safety_controller> within its <limit> when it has one.
	Lower, Upper float64
	// HardLower and HardUpper are the URDF <limit> bounds [rad or m]
	// (the DH table's, or zero when the joint was built otherwise); the
	// chain keeps within Lower and Upper.
	HardLower, HardUpper float64
	// MaxVelocity is the speed limit [rad/s or m/s]; 0 if unknown.
	MaxVelocity float64
}

// Unit returns "rad" for rotating joints and "m" for prismatic ones.
func (j Joint) Unit() string {
	if j.Type == Prismatic {
		return "m"
	}
	return "rad"
}

// Motion returns the transform of the joint at position q, to be applied
// after Origin.
func (j Joint) Motion(q float64) geom.Transform {
	if j.Type == Prismatic {
		return geom.Transform{Translation: r3.Scale(q, j.Axis), Rotation: geom.IdentityQuat()}
	}
	return geom.Rotation(geom.AxisAngle(j.Axis, q))
}

// Chain is a serial chain of moving joints from a base frame to a tip
// frame. It is immutable once built and safe for concurrent use.
type Chain struct {
	// Base and TipName name the first and last frames (URDF links).
	Base, TipName string
	// Joints are the moving joints from base to tip.
	Joints []Joint
	// Tip is the pose of the tip frame in the frame of the last joint
	// (fixed joints after it folded in).
	Tip geom.Transform
}

// Errors callers branch on.
var (
	// ErrBadChain: a chain or robot description that cannot be used.
	ErrBadChain = errors.New("kinematics: bad chain")
	// ErrJointCount: a joint vector whose length is not the chain's DOF.
	ErrJointCount = errors.New("kinematics: wrong number of joint values")
	// ErrOutOfLimits: a joint value outside its limits.
	ErrOutOfLimits = errors.New("kinematics: joint value out of limits")
	// ErrNoSolution: inverse kinematics found no solution within its budget.
	ErrNoSolution = errors.New("kinematics: no IK solution")
)

// NewChain validates joints and tip and returns the chain. Axes are
// normalised; a zero axis, a NaN, Lower > Upper, or a continuous joint with
// finite limits is an error wrapping ErrBadChain.
func NewChain(base, tipName string, joints []Joint, tip geom.Transform) (*Chain, error) {
	if len(joints) == 0 {
		return nil, fmt.Errorf("%w: %s -> %s has no moving joints", ErrBadChain, base, tipName)
	}
	c := &Chain{Base: base, TipName: tipName, Joints: make([]Joint, len(joints)), Tip: tip}
	for i, j := range joints {
		n := r3.Norm(j.Axis)
		if !(n > 0) || math.IsInf(n, 0) {
			return nil, fmt.Errorf("%w: joint %q: axis %v", ErrBadChain, j.Name, j.Axis)
		}
		j.Axis = r3.Scale(1/n, j.Axis)
		if err := j.Origin.Validate(); err != nil {
			return nil, fmt.Errorf("%w: joint %q origin: %w", ErrBadChain, j.Name, err)
		}
		switch j.Type {
		case Continuous:
			j.Lower, j.Upper = math.Inf(-1), math.Inf(1)
		case Revolute, Prismatic:
			if math.IsNaN(j.Lower) || math.IsNaN(j.Upper) || j.Lower > j.Upper || math.IsInf(j.Lower, 0) || math.IsInf(j.Upper, 0) {
				return nil, fmt.Errorf("%w: joint %q: limits [%g, %g]", ErrBadChain, j.Name, j.Lower, j.Upper)
			}
		default:
			return nil, fmt.Errorf("%w: joint %q: type %v", ErrBadChain, j.Name, j.Type)
		}
		if j.MaxVelocity < 0 || math.IsNaN(j.MaxVelocity) {
			return nil, fmt.Errorf("%w: joint %q: velocity limit %g", ErrBadChain, j.Name, j.MaxVelocity)
		}
		c.Joints[i] = j
	}
	if err := tip.Validate(); err != nil {
		return nil, fmt.Errorf("%w: tip: %w", ErrBadChain, err)
	}
	return c, nil
}

// DOF returns the number of moving joints.
func (c *Chain) DOF() int { return len(c.Joints) }

// Reach returns an upper bound of the tool's distance from the base
// frame's origin [m] over every joint position within the limits: the
// lengths of the links (joint origins and the tip) plus each prismatic
// joint's largest travel. +Inf when a prismatic joint is unbounded.
func (c *Chain) Reach() float64 {
	r := r3.Norm(c.Tip.Translation)
	for _, j := range c.Joints {
		r += r3.Norm(j.Origin.Translation)
		if j.Type == Prismatic {
			r += math.Max(math.Abs(j.Lower), math.Abs(j.Upper))
		}
	}
	return r
}

// JointNames returns the names of the moving joints, base to tip.
func (c *Chain) JointNames() []string {
	names := make([]string, len(c.Joints))
	for i, j := range c.Joints {
		names[i] = j.Name
	}
	return names
}

// CheckJoints returns an error wrapping ErrJointCount for a q of the wrong
// length, ErrOutOfLimits for a value outside its joint's limits (with a
// margin of tol), and ErrBadChain for NaN or Inf.
func (c *Chain) CheckJoints(q []float64, tol float64) error {
	if len(q) != len(c.Joints) {
		return fmt.Errorf("%w: got %d, chain has %d", ErrJointCount, len(q), len(c.Joints))
	}
	for i, j := range c.Joints {
		if math.IsNaN(q[i]) || math.IsInf(q[i], 0) {
			return fmt.Errorf("%w: joint %q: value %g", ErrOutOfLimits, j.Name, q[i])
		}
		if q[i] < j.Lower-tol || q[i] > j.Upper+tol {
			return fmt.Errorf("%w: joint %q: %g %s not in [%g, %g]", ErrOutOfLimits, j.Name, q[i], j.Unit(), j.Lower, j.Upper)
		}
	}
	return nil
}

// FK returns the pose of the tip in the base, T_base_tip, at joint
// positions q. A q whose length is not DOF gives an error wrapping
// ErrJointCount. FK does not check limits and allocates nothing.
func (c *Chain) FK(q []float64) (geom.Transform, error) {
	if len(q) != len(c.Joints) {
		return geom.Transform{}, fmt.Errorf("kinematics: fk: %w: got %d, chain has %d", ErrJointCount, len(q), len(c.Joints))
	}
	return c.fk(q), nil
}

func (c *Chain) fk(q []float64) geom.Transform {
	t := geom.Identity()
	for i := range c.Joints {
		j := &c.Joints[i]
		t = t.Mul(j.Origin).Mul(j.Motion(q[i]))
	}
	return t.Mul(c.Tip)
}

// Jacobian writes into jac (row-major, 6 x DOF, resized if too small) the
// geometric Jacobian of the tip at q in the base frame: rows are linear
// velocity x, y, z [m/s] and angular velocity x, y, z [rad/s] per unit
// joint velocity. It returns the tip pose and the slice written.
func (c *Chain) Jacobian(q []float64, jac []float64) (geom.Transform, []float64, error) {
	n := len(c.Joints)
	if len(q) != n {
		return geom.Transform{}, jac, fmt.Errorf("kinematics: jacobian: %w: got %d, chain has %d", ErrJointCount, len(q), n)
	}
	if cap(jac) < 6*n {
		jac = make([]float64, 6*n)
	}
	jac = jac[:6*n]
	var axes, origins [maxDOF]r3.Vec
	var axesBuf, originsBuf []r3.Vec
	if n <= maxDOF {
		axesBuf, originsBuf = axes[:n], origins[:n]
	} else {
		axesBuf, originsBuf = make([]r3.Vec, n), make([]r3.Vec, n)
	}
	tip := c.jacobian(q, jac, axesBuf, originsBuf)
	return tip, jac, nil
}

// maxDOF is the size of the stack buffers; longer chains still work but
// allocate.
const maxDOF = 16

// jacobian fills jac (6 x n) using axes and origins as scratch.
func (c *Chain) jacobian(q, jac []float64, axes, origins []r3.Vec) geom.Transform {
	n := len(c.Joints)
	t := geom.Identity()
	for i := range c.Joints {
		j := &c.Joints[i]
		t = t.Mul(j.Origin)
		axes[i] = t.Rotation.Rotate(j.Axis)
		origins[i] = t.Translation
		t = t.Mul(j.Motion(q[i]))
	}
	t = t.Mul(c.Tip)
	for i := range c.Joints {
		var v, w r3.Vec
		if c.Joints[i].Type == Prismatic {
			v = axes[i]
		} else {
			v = r3.Cross(axes[i], r3.Sub(t.Translation, origins[i]))
			w = axes[i]
		}
		jac[0*n+i], jac[1*n+i], jac[2*n+i] = v.X, v.Y, v.Z
		jac[3*n+i], jac[4*n+i], jac[5*n+i] = w.X, w.Y, w.Z
	}
	return t
}
