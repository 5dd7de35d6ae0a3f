package physics

import "math"

// Vec3 is a vector [m, m/s, rad/s or N as the field says], frame as the
// field says.
type Vec3 [3]float64

// Quat is a unit rotation quaternion (w, x, y, z), ODE's order.
type Quat [4]float64

// Identity is the rotation that rotates nothing.
var Identity = Quat{1, 0, 0, 0}

// Pose is a frame's position [m] and orientation in its parent frame.
type Pose struct {
	Pos Vec3 // origin [m]
	Rot Quat // orientation; the zero value is read as Identity
}

// Add returns a + b.
func (a Vec3) Add(b Vec3) Vec3 { return Vec3{a[0] + b[0], a[1] + b[1], a[2] + b[2]} }

// Sub returns a - b.
func (a Vec3) Sub(b Vec3) Vec3 { return Vec3{a[0] - b[0], a[1] - b[1], a[2] - b[2]} }

// Scale returns s*a.
func (a Vec3) Scale(s float64) Vec3 { return Vec3{s * a[0], s * a[1], s * a[2]} }

// Dot returns a . b.
func (a Vec3) Dot(b Vec3) float64 { return a[0]*b[0] + a[1]*b[1] + a[2]*b[2] }

// Cross returns a x b.
func (a Vec3) Cross(b Vec3) Vec3 {
	return Vec3{a[1]*b[2] - a[2]*b[1], a[2]*b[0] - a[0]*b[2], a[0]*b[1] - a[1]*b[0]}
}

// Norm returns |a|.
func (a Vec3) Norm() float64 { return math.Sqrt(a.Dot(a)) }

func (a Vec3) finite() bool {
	for _, x := range a {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return false
		}
	}
	return true
}

func (q Quat) norm() Quat {
	if q == (Quat{}) {
		return Identity
	}
	n := math.Sqrt(q[0]*q[0] + q[1]*q[1] + q[2]*q[2] + q[3]*q[3])
	return Quat{q[0] / n, q[1] / n, q[2] / n, q[3] / n}
}

func (q Quat) finite() bool { return Vec3{q[0], q[1], q[2]}.finite() && Vec3{q[3]}.finite() }

// Mul returns the rotation q then r in q's frame (q*r).
func (q Quat) Mul(r Quat) Quat {
	q, r = q.norm(), r.norm()
	return Quat{
		q[0]*r[0] - q[1]*r[1] - q[2]*r[2] - q[3]*r[3],
		q[0]*r[1] + q[1]*r[0] + q[2]*r[3] - q[3]*r[2],
		q[0]*r[2] - q[1]*r[3] + q[2]*r[0] + q[3]*r[1],
		q[0]*r[3] + q[1]*r[2] - q[2]*r[1] + q[3]*r[0],
	}
}

// Conj returns the inverse rotation.
func (q Quat) Conj() Quat { q = q.norm(); return Quat{q[0], -q[1], -q[2], -q[3]} }

// Rotate returns v rotated by q.
func (q Quat) Rotate(v Vec3) Vec3 {
	q = q.norm()
	u := Vec3{q[1], q[2], q[3]}
	t := u.Cross(v).Scale(2)
	return v.Add(t.Scale(q[0])).Add(u.Cross(t))
}

// AxisAngle returns the rotation by angle [rad] about axis (any length > 0).
func AxisAngle(axis Vec3, angle float64) Quat {
	n := axis.Norm()
	if n == 0 {
		return Identity
	}
	s := math.Sin(angle/2) / n
	return Quat{math.Cos(angle / 2), axis[0] * s, axis[1] * s, axis[2] * s}
}

// RPY returns the rotation of URDF/SDF roll, pitch, yaw [rad] (fixed axes
// x, then y, then z).
func RPY(roll, pitch, yaw float64) Quat {
	return AxisAngle(Vec3{0, 0, 1}, yaw).Mul(AxisAngle(Vec3{0, 1, 0}, pitch)).Mul(AxisAngle(Vec3{1, 0, 0}, roll))
}

// Compose returns the pose of c (given in p's frame) in p's parent frame.
func (p Pose) Compose(c Pose) Pose {
	return Pose{Pos: p.Pos.Add(p.Rot.Rotate(c.Pos)), Rot: p.Rot.norm().Mul(c.Rot.norm())}
}

// Apply returns point v (in p's frame) in p's parent frame.
func (p Pose) Apply(v Vec3) Vec3 { return p.Pos.Add(p.Rot.Rotate(v)) }

// Inverse returns the pose of p's parent in p's frame.
func (p Pose) Inverse() Pose {
	r := p.Rot.Conj()
	return Pose{Pos: r.Rotate(p.Pos).Scale(-1), Rot: r}
}

// Yaw returns the heading [rad] of q: the angle of its x axis projected on
// the xy plane, from x towards y.
func (q Quat) Yaw() float64 {
	x := q.Rotate(Vec3{1, 0, 0})
	return math.Atan2(x[1], x[0])
}

// Tilt returns the angle [rad] between q's z axis and the parent's z axis.
func (q Quat) Tilt() float64 {
	z := q.Rotate(Vec3{0, 0, 1})
	return math.Acos(math.Max(-1, math.Min(1, z[2])))
}
