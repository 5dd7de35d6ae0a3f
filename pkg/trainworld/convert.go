package trainworld

import (
	"math"

	"github.com/telebridge/telebridge/pkg/geom"
	"github.com/telebridge/telebridge/pkg/physics"
	"gonum.org/v1/gonum/spatial/r3"
)

// toPhysics converts a geom.Transform into a physics.Pose.
func toPhysics(t geom.Transform) physics.Pose {
	q := t.Rotation
	return physics.Pose{Pos: physics.Vec3{t.Translation.X, t.Translation.Y, t.Translation.Z}, Rot: physics.Quat{q.W, q.X, q.Y, q.Z}}
}

// toGeom converts a physics.Pose into a geom.Transform.
func toGeom(p physics.Pose) geom.Transform {
	q := p.Rot
	if q == (physics.Quat{}) {
		q = physics.Identity
	}
	return geom.Transform{Translation: r3.Vec{X: p.Pos[0], Y: p.Pos[1], Z: p.Pos[2]}, Rotation: geom.Quat{W: q[0], X: q[1], Y: q[2], Z: q[3]}}
}

// zTo returns the rotation that turns +z onto the unit vector n.
func zTo(n r3.Vec) geom.Quat {
	z := r3.Vec{Z: 1}
	n = r3.Unit(n)
	c := r3.Dot(z, n)
	if c > 1-1e-12 {
		return geom.IdentityQuat()
	}
	if c < -1+1e-12 {
		return geom.AxisAngle(r3.Vec{X: 1}, math.Pi)
	}
	return geom.AxisAngle(r3.Cross(z, n), math.Acos(c))
}
