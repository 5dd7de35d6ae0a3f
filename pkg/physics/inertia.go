package physics

import (
	"errors"
	"fmt"
	"math"
)

// Inertial is a rigid body's mass [kg], centre of mass [m] and inertia
// about that centre [kg m^2] (Ixx, Iyy, Izz, Ixy, Ixz, Iyz), both in the
// frame of the link that carries it, as URDF and SDF write them (an
// inertial frame rotated from the link is rotated into it by the caller).
type Inertial struct {
	Mass float64    // [kg], > 0
	CoM  Vec3       // centre of mass in the link frame [m]
	I    [6]float64 // Ixx, Iyy, Izz, Ixy, Ixz, Iyz about CoM, link axes [kg m^2]
}

// Validate says why in is not a physical body (non-positive or non-finite
// mass, an inertia that is not positive definite or breaks the triangle
// inequality of principal moments).
func (in Inertial) Validate() error {
	if !(in.Mass > 0) || math.IsInf(in.Mass, 0) || !in.CoM.finite() {
		return fmt.Errorf("physics: mass %g kg at %v: must be positive and finite", in.Mass, in.CoM)
	}
	for _, v := range in.I {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return errors.New("physics: inertia is not finite")
		}
	}
	xx, yy, zz, xy, xz, yz := in.I[0], in.I[1], in.I[2], in.I[3], in.I[4], in.I[5]
	// Positive definite (Sylvester) and the triangle inequality, with a
	// little slack for rounded URDF figures.
	d2 := xx*yy - xy*xy
	d3 := xx*(yy*zz-yz*yz) - xy*(xy*zz-yz*xz) + xz*(xy*yz-yy*xz)
	slack := 1e-3 * (xx + yy + zz)
	if !(xx > 0 && d2 > 0 && d3 > 0) || xx+yy < zz-slack || yy+zz < xx-slack || xx+zz < yy-slack {
		return fmt.Errorf("physics: inertia %v kg m^2 is not a rigid body's", in.I)
	}
	return nil
}

// Combine returns the inertial of the parts rigidly joined, each given in
// the same link frame (parallel axis theorem).
func Combine(parts ...Inertial) Inertial {
	var out Inertial
	for _, p := range parts {
		out.Mass += p.Mass
		out.CoM = out.CoM.Add(p.CoM.Scale(p.Mass))
	}
	if out.Mass == 0 {
		return out
	}
	out.CoM = out.CoM.Scale(1 / out.Mass)
	for _, p := range parts {
		d := p.CoM.Sub(out.CoM)
		out.I[0] += p.I[0] + p.Mass*(d[1]*d[1]+d[2]*d[2])
		out.I[1] += p.I[1] + p.Mass*(d[0]*d[0]+d[2]*d[2])
		out.I[2] += p.I[2] + p.Mass*(d[0]*d[0]+d[1]*d[1])
		out.I[3] += p.I[3] - p.Mass*d[0]*d[1]
		out.I[4] += p.I[4] - p.Mass*d[0]*d[2]
		out.I[5] += p.I[5] - p.Mass*d[1]*d[2]
	}
	return out
}

// Rotated returns in with its inertia expressed in axes rotated by r
// (R I R^T) and its CoM rotated: an inertial frame with rpy r within the
// link becomes one in link axes.
func (in Inertial) Rotated(r Quat) Inertial {
	m := [3][3]float64{{in.I[0], in.I[3], in.I[4]}, {in.I[3], in.I[1], in.I[5]}, {in.I[4], in.I[5], in.I[2]}}
	var R [3][3]float64
	for j := range 3 {
		var e Vec3
		e[j] = 1
		c := r.Rotate(e)
		for i := range 3 {
			R[i][j] = c[i]
		}
	}
	var t, o [3][3]float64
	for i := range 3 {
		for j := range 3 {
			for k := range 3 {
				t[i][j] += R[i][k] * m[k][j]
			}
		}
	}
	for i := range 3 {
		for j := range 3 {
			for k := range 3 {
				o[i][j] += t[i][k] * R[j][k]
			}
		}
	}
	return Inertial{Mass: in.Mass, CoM: in.CoM, I: [6]float64{o[0][0], o[1][1], o[2][2], o[0][1], o[0][2], o[1][2]}}
}
