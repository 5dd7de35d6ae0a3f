package sdf

import (
	"math"
	"strings"

	"github.com/telebridge/telebridge/pkg/geom"
	"gonum.org/v1/gonum/spatial/r3"
)

// parsePose reads a <pose>: "x y z roll pitch yaw" ([m], [rad], SDF's
// fixed-axis roll-pitch-yaw), with degrees="true" for angles in degrees
// and rotation_format="quat_xyzw" for "x y z qx qy qz qw" (SDF 1.9). It
// returns the relative_to (or SDF 1.6's frame) attribute too.
func parsePose(n *node) (geom.Transform, string, error) {
	if n == nil {
		return geom.Identity(), "", nil
	}
	rel := n.attrs["relative_to"]
	if f, ok := n.attrs["frame"]; ok && rel == "" {
		rel = f
	}
	if n.text == "" {
		return geom.Identity(), rel, nil
	}
	switch n.attrs["rotation_format"] {
	case "", "euler_rpy":
		v, err := n.floats(6)
		if err != nil {
			return geom.Transform{}, "", err
		}
		if deg := strings.TrimSpace(n.attrs["degrees"]); deg == "true" || deg == "1" {
			for i := 3; i < 6; i++ {
				v[i] *= math.Pi / 180
			}
		}
		return geom.Transform{Translation: r3.Vec{X: v[0], Y: v[1], Z: v[2]}, Rotation: geom.FromRPY(v[3], v[4], v[5])}, rel, nil
	case "quat_xyzw":
		v, err := n.floats(7)
		if err != nil {
			return geom.Transform{}, "", err
		}
		q := geom.Quat{X: v[3], Y: v[4], Z: v[5], W: v[6]}
		if q.Norm() < 1e-9 {
			return geom.Transform{}, "", n.errorf("quaternion of zero length")
		}
		return geom.Transform{Translation: r3.Vec{X: v[0], Y: v[1], Z: v[2]}, Rotation: q.Normalize()}, rel, nil
	}
	return geom.Transform{}, "", n.errorf("rotation_format %q (euler_rpy or quat_xyzw)", n.attrs["rotation_format"])
}

// vec3 reads a child of three numbers, or def if absent.
func vec3(n *node, name string, def r3.Vec) (r3.Vec, error) {
	c := n.child(name)
	if c == nil {
		return def, nil
	}
	v, err := c.floats(3)
	if err != nil {
		return r3.Vec{}, err
	}
	return r3.Vec{X: v[0], Y: v[1], Z: v[2]}, nil
}

// color reads a child of four (or three, alpha 1) numbers in [0, 1].
func color(n *node, name string, def Color) (Color, bool, error) {
	c := n.child(name)
	if c == nil {
		return def, false, nil
	}
	v, err := c.floats(-1)
	if err != nil {
		return Color{}, false, err
	}
	if len(v) == 3 {
		v = append(v, 1)
	}
	if len(v) != 4 {
		return Color{}, false, c.errorf("a colour needs 4 numbers (r g b a), got %d", len(v))
	}
	for _, x := range v {
		if x < 0 || x > 1 {
			return Color{}, false, c.errorf("colour component %g outside [0, 1]", x)
		}
	}
	return Color{v[0], v[1], v[2], v[3]}, true, nil
}
