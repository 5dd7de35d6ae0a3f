package geom

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/spatial/r3"
)

// Transform is a rigid transform: rotate by Rotation, then translate by
// Translation [m]. As T_ab it maps coordinates in frame b into frame a and
// is the pose of b in a. The zero value is not valid (zero quaternion); use
// Identity.
type Transform struct {
	Translation r3.Vec // [m]
	Rotation    Quat   // unit quaternion
}

// ErrInvalid is wrapped by Validate for NaN/Inf components or a rotation
// that is not a unit quaternion.
var ErrInvalid = errors.New("geom: invalid transform")

// Identity returns the transform that changes nothing.
func Identity() Transform { return Transform{Rotation: IdentityQuat()} }

// Translation returns a pure translation by (x, y, z) [m].
func Translation(x, y, z float64) Transform {
	return Transform{Translation: r3.Vec{X: x, Y: y, Z: z}, Rotation: IdentityQuat()}
}

// Rotation returns a pure rotation.
func Rotation(q Quat) Transform { return Transform{Rotation: q} }

// FromXYZEuler returns the transform at (x, y, z) [m] with intrinsic ZYX
// Euler angles rz, ry, rx [rad], the convention of the jog services.
func FromXYZEuler(x, y, z, rz, ry, rx float64) Transform {
	return Transform{Translation: r3.Vec{X: x, Y: y, Z: z}, Rotation: FromEulerZYX(rz, ry, rx)}
}

// XYZEuler returns the translation [m] and intrinsic ZYX Euler angles [rad]
// of t, the inverse of FromXYZEuler.
func (t Transform) XYZEuler() (x, y, z, rz, ry, rx float64) {
	rz, ry, rx = t.Rotation.EulerZYX()
	return t.Translation.X, t.Translation.Y, t.Translation.Z, rz, ry, rx
}

// Mul returns t composed with u: T_ac = T_ab.Mul(T_bc).
func (t Transform) Mul(u Transform) Transform {
	return Transform{
		Translation: r3.Add(t.Translation, t.Rotation.Rotate(u.Translation)),
		Rotation:    t.Rotation.Mul(u.Rotation),
	}
}

// Inverse returns the transform that undoes t: T_ba = T_ab.Inverse().
func (t Transform) Inverse() Transform {
	qi := t.Rotation.Conj()
	return Transform{Translation: r3.Scale(-1, qi.Rotate(t.Translation)), Rotation: qi}
}

// Apply maps the point p from t's child frame into its parent frame.
func (t Transform) Apply(p r3.Vec) r3.Vec {
	return r3.Add(t.Translation, t.Rotation.Rotate(p))
}

// Interpolate returns the transform a fraction f of the way from t to u:
// linear in translation, spherical (slerp) in rotation.
func Interpolate(t, u Transform, f float64) Transform {
	return Transform{
		Translation: r3.Add(t.Translation, r3.Scale(f, r3.Sub(u.Translation, t.Translation))),
		Rotation:    Slerp(t.Rotation, u.Rotation, f),
	}
}

// Distance returns the distance between the origins of t and u [m] and the
// angle between their orientations [rad].
func Distance(t, u Transform) (translation, rotation float64) {
	return r3.Norm(r3.Sub(u.Translation, t.Translation)), t.Rotation.AngleTo(u.Rotation)
}

// Validate returns an error wrapping ErrInvalid if a component of t is NaN
// or infinite, or if its rotation is not of unit length (within 1e-6).
func (t Transform) Validate() error {
	for _, v := range [...]float64{
		t.Translation.X, t.Translation.Y, t.Translation.Z,
		t.Rotation.W, t.Rotation.X, t.Rotation.Y, t.Rotation.Z,
	} {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("%w: non-finite component", ErrInvalid)
		}
	}
	if n := t.Rotation.Norm(); math.Abs(n-1) > 1e-6 {
		return fmt.Errorf("%w: quaternion length %g, want 1", ErrInvalid, n)
	}
	return nil
}

// String formats t as "xyz=(x y z) ezyx=(rz ry rx)" [m, rad].
func (t Transform) String() string {
	x, y, z, rz, ry, rx := t.XYZEuler()
	return fmt.Sprintf("xyz=(%.6g %.6g %.6g) ezyx=(%.6g %.6g %.6g)", x, y, z, rz, ry, rx)
}
