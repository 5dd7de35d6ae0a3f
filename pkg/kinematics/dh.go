package kinematics

import (
	"fmt"

	"github.com/telebridge/telebridge/pkg/geom"
	"gonum.org/v1/gonum/spatial/r3"
)

// DH is one row of a standard (distal) Denavit-Hartenberg table: the
// transform from frame i-1 to frame i is Rz(theta) Tz(d) Tx(a) Rx(alpha),
// where theta = Theta + q for a revolute joint and d = D + q for a
// prismatic one.
type DH struct {
	Name  string    // the joint's name
	Type  JointType // Revolute, Continuous or Prismatic
	A     float64   // link length along the new x [m]
	Alpha float64   // link twist about the new x [rad]
	D     float64   // offset along the old z [m]; added to q if prismatic
	Theta float64   // angle about the old z [rad]; added to q if revolute
	// Lower, Upper and MaxVelocity are as in Joint.
	Lower, Upper, MaxVelocity float64
}

// FromDH returns the chain of a DH table, with base frame 0 and tip frame
// n named base and tip.
func FromDH(base, tip string, rows []DH) (*Chain, error) {
	joints := make([]Joint, len(rows))
	prev := geom.Identity() // Tx(a) Rx(alpha) of the previous row
	z := r3.Vec{Z: 1}
	for i, r := range rows {
		j := Joint{Name: r.Name, Type: r.Type, Axis: z, Lower: r.Lower, Upper: r.Upper, HardLower: r.Lower, HardUpper: r.Upper, MaxVelocity: r.MaxVelocity}
		if j.Name == "" {
			j.Name = fmt.Sprintf("joint%d", i+1)
		}
		// The fixed parts of Rz(theta) and Tz(d) commute with the motion
		// about/along z, so both go before it.
		j.Origin = prev.Mul(geom.Translation(0, 0, r.D)).Mul(geom.Rotation(geom.AxisAngle(z, r.Theta)))
		joints[i] = j
		prev = geom.Translation(r.A, 0, 0).Mul(geom.Rotation(geom.AxisAngle(r3.Vec{X: 1}, r.Alpha)))
	}
	return NewChain(base, tip, joints, prev)
}
