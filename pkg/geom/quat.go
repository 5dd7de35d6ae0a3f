package geom

import (
	"math"

	"gonum.org/v1/gonum/spatial/r3"
)

// Quat is a rotation as a unit quaternion W + Xi + Yj + Zk. The zero value
// is not a rotation; use IdentityQuat. Functions that build a Quat return
// it normalised.
type Quat struct {
	W, X, Y, Z float64 // W the real part; X, Y, Z the vector part
}

// IdentityQuat returns the rotation by zero.
func IdentityQuat() Quat { return Quat{W: 1} }

// AxisAngle returns the rotation by angle [rad] about axis (any non-zero
// length; a zero axis gives the identity).
func AxisAngle(axis r3.Vec, angle float64) Quat {
	n := r3.Norm(axis)
	if n == 0 {
		return IdentityQuat()
	}
	s, c := math.Sincos(angle / 2)
	k := s / n
	return Quat{W: c, X: axis.X * k, Y: axis.Y * k, Z: axis.Z * k}
}

// FromRotationVector returns the rotation whose axis is v and whose angle
// is |v| [rad]; it is the inverse of Quat.RotationVector.
func FromRotationVector(v r3.Vec) Quat {
	return AxisAngle(v, r3.Norm(v))
}

// FromEulerZYX returns the rotation by rz about Z, then ry about the new Y,
// then rx about the new X (intrinsic ZYX) [rad]: R = Rz(rz) Ry(ry) Rx(rx).
func FromEulerZYX(rz, ry, rx float64) Quat {
	sz, cz := math.Sincos(rz / 2)
	sy, cy := math.Sincos(ry / 2)
	sx, cx := math.Sincos(rx / 2)
	return Quat{
		W: cz*cy*cx + sz*sy*sx,
		X: cz*cy*sx - sz*sy*cx,
		Y: cz*sy*cx + sz*cy*sx,
		Z: sz*cy*cx - cz*sy*sx,
	}
}

// FromRPY returns the URDF rotation rpy="roll pitch yaw" [rad]: roll about
// the fixed X, then pitch about the fixed Y, then yaw about the fixed Z.
func FromRPY(roll, pitch, yaw float64) Quat { return FromEulerZYX(yaw, pitch, roll) }

// EulerZYX returns the intrinsic ZYX angles [rad] of q: rz and rx in
// (-pi, pi], ry in [-pi/2, pi/2]. At ry = ±pi/2 (gimbal lock) rx is 0 and
// rz carries the whole rotation about Z.
func (q Quat) EulerZYX() (rz, ry, rx float64) {
	m := q.Matrix()
	sy := -m[2][0]
	if sy >= 1-1e-12 || sy <= -1+1e-12 {
		ry = math.Copysign(math.Pi/2, sy)
		// R = Rz(rz) Ry(±pi/2) Rx(0): m[0][1] = -sin(rz), m[1][1] = cos(rz).
		return math.Atan2(-m[0][1], m[1][1]) + 0, ry, 0
	}
	// Adding 0 turns a negative zero into +0 for tidy printing.
	return math.Atan2(m[1][0], m[0][0]) + 0, math.Asin(sy) + 0, math.Atan2(m[2][1], m[2][2]) + 0
}

// Mul returns the product q*p: rotating a vector by q.Mul(p) equals
// rotating it by p and then by q.
func (q Quat) Mul(p Quat) Quat {
	return Quat{
		W: q.W*p.W - q.X*p.X - q.Y*p.Y - q.Z*p.Z,
		X: q.W*p.X + q.X*p.W + q.Y*p.Z - q.Z*p.Y,
		Y: q.W*p.Y - q.X*p.Z + q.Y*p.W + q.Z*p.X,
		Z: q.W*p.Z + q.X*p.Y - q.Y*p.X + q.Z*p.W,
	}
}

// Conj returns the inverse rotation of a unit quaternion.
func (q Quat) Conj() Quat { return Quat{W: q.W, X: -q.X, Y: -q.Y, Z: -q.Z} }

// Norm returns the quaternion's length (1 for a rotation).
func (q Quat) Norm() float64 {
	return math.Sqrt(q.W*q.W + q.X*q.X + q.Y*q.Y + q.Z*q.Z)
}

// Normalize returns q scaled to unit length; a zero q gives the identity.
func (q Quat) Normalize() Quat {
	n := q.Norm()
	if n == 0 {
		return IdentityQuat()
	}
	return Quat{W: q.W / n, X: q.X / n, Y: q.Y / n, Z: q.Z / n}
}

// Rotate returns v rotated by q.
func (q Quat) Rotate(v r3.Vec) r3.Vec {
	// v' = v + 2w (u x v) + 2 u x (u x v), u = (X, Y, Z).
	u := r3.Vec{X: q.X, Y: q.Y, Z: q.Z}
	t := r3.Scale(2, r3.Cross(u, v))
	return r3.Add(r3.Add(v, r3.Scale(q.W, t)), r3.Cross(u, t))
}

// Matrix returns the 3x3 rotation matrix of q, row-major.
func (q Quat) Matrix() [3][3]float64 {
	w, x, y, z := q.W, q.X, q.Y, q.Z
	return [3][3]float64{
		{1 - 2*(y*y+z*z), 2 * (x*y - w*z), 2 * (x*z + w*y)},
		{2 * (x*y + w*z), 1 - 2*(x*x+z*z), 2 * (y*z - w*x)},
		{2 * (x*z - w*y), 2 * (y*z + w*x), 1 - 2*(x*x+y*y)},
	}
}

// RotationVector returns the axis of q scaled by its angle in [0, pi]
// [rad] (the logarithm map).
func (q Quat) RotationVector() r3.Vec {
	if q.W < 0 { // same rotation, shorter way round
		q = Quat{W: -q.W, X: -q.X, Y: -q.Y, Z: -q.Z}
	}
	s := math.Sqrt(q.X*q.X + q.Y*q.Y + q.Z*q.Z)
	if s < 1e-12 {
		// angle ~ 2s, axis ~ u/s: the vector is ~2u.
		return r3.Vec{X: 2 * q.X, Y: 2 * q.Y, Z: 2 * q.Z}
	}
	k := 2 * math.Atan2(s, q.W) / s
	return r3.Vec{X: q.X * k, Y: q.Y * k, Z: q.Z * k}
}

// Angle returns the rotation angle of q in [0, pi] [rad].
func (q Quat) Angle() float64 { return r3.Norm(q.RotationVector()) }

// AngleTo returns the angle of the rotation from q to p in [0, pi] [rad].
func (q Quat) AngleTo(p Quat) float64 { return q.Conj().Mul(p).Angle() }

// Slerp returns the rotation a fraction t of the way from q to p along the
// shortest arc (t=0 gives q, t=1 gives p).
func Slerp(q, p Quat, t float64) Quat {
	d := q.W*p.W + q.X*p.X + q.Y*p.Y + q.Z*p.Z
	if d < 0 {
		p = Quat{W: -p.W, X: -p.X, Y: -p.Y, Z: -p.Z}
		d = -d
	}
	if d > 1-1e-9 { // nearly equal: linear interpolation is exact enough
		return Quat{
			W: q.W + t*(p.W-q.W), X: q.X + t*(p.X-q.X),
			Y: q.Y + t*(p.Y-q.Y), Z: q.Z + t*(p.Z-q.Z),
		}.Normalize()
	}
	theta := math.Acos(d)
	s := math.Sin(theta)
	a := math.Sin((1-t)*theta) / s
	b := math.Sin(t*theta) / s
	return Quat{
		W: a*q.W + b*p.W, X: a*q.X + b*p.X,
		Y: a*q.Y + b*p.Y, Z: a*q.Z + b*p.Z,
	}.Normalize()
}
