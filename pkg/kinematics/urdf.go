package kinematics

import (
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/telebridge/telebridge/pkg/geom"
	"github.com/telebridge/telebridge/pkg/urdf"
	"gonum.org/v1/gonum/spatial/r3"
)

// ParseURDF reads a URDF robot description and returns the chain from the
// link base to the link tip. An empty base means the root link (the one
// that is no joint's child); an empty tip means the end of the longest
// path from the base, which must be unique. Errors wrap ErrBadChain and
// name the joint or link at fault.
//
// Joint limits are read as ROS's own parser (urdfdom, used by
// robot_state_publisher and MoveIt) reads them, and what it refuses is
// refused here, saying so: a <limit> without effort or velocity, a
// revolute or prismatic joint without <limit>, a <safety_controller>
// without k_velocity. A <safety_controller>'s soft limits narrow the
// joint's range as MoveIt and TRAC-IK narrow it (lower = max(lower,
// soft_lower_limit), upper = min(upper, soft_upper_limit), a missing
// soft limit counting as 0 as in urdfdom), because a real arm's safety
// controller faults between the soft and the hard limits; Joint.Lower
// and Upper are that range, HardLower and HardUpper the <limit>'s.
// Continuous joints have no position limits.
func ParseURDF(r io.Reader, base, tip string) (*Chain, error) {
	robot, err := urdf.Decode(r)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrBadChain, err)
	}
	c, err := chainOf(robot, base, tip)
	if err != nil {
		return nil, fmt.Errorf("urdf %q: %w", robot.Name, err)
	}
	return c, nil
}

// ParseURDFString is ParseURDF on a string, such as the robot_description
// parameter.
func ParseURDFString(s, base, tip string) (*Chain, error) {
	return ParseURDF(strings.NewReader(s), base, tip)
}

func chainOf(robot *urdf.Robot, base, tip string) (*Chain, error) {
	if len(robot.Joints) == 0 {
		return nil, fmt.Errorf("%w: no joints", ErrBadChain)
	}
	byChild := map[string]*urdf.Joint{}
	children := map[string][]string{}
	links := map[string]bool{}
	for _, l := range robot.Links {
		links[l.Name] = true
	}
	for i := range robot.Joints {
		j := &robot.Joints[i]
		if j.Parent.Link == "" || j.Child.Link == "" {
			return nil, fmt.Errorf("%w: joint %q: missing parent or child link", ErrBadChain, j.Name)
		}
		if byChild[j.Child.Link] != nil {
			return nil, fmt.Errorf("%w: link %q is the child of two joints", ErrBadChain, j.Child.Link)
		}
		byChild[j.Child.Link] = j
		children[j.Parent.Link] = append(children[j.Parent.Link], j.Child.Link)
		links[j.Parent.Link], links[j.Child.Link] = true, true
	}
	if base == "" {
		var roots []string
		for l := range links {
			if byChild[l] == nil {
				roots = append(roots, l)
			}
		}
		if len(roots) != 1 {
			return nil, fmt.Errorf("%w: %d root links %v; name the base", ErrBadChain, len(roots), roots)
		}
		base = roots[0]
	}
	if !links[base] {
		return nil, fmt.Errorf("%w: no link %q", ErrBadChain, base)
	}
	if tip == "" {
		var err error
		if tip, err = deepestLeaf(base, children); err != nil {
			return nil, err
		}
	}
	if !links[tip] {
		return nil, fmt.Errorf("%w: no link %q", ErrBadChain, tip)
	}
	// Walk up from the tip to the base.
	var path []*urdf.Joint
	for l := tip; l != base; {
		j := byChild[l]
		if j == nil {
			return nil, fmt.Errorf("%w: link %q is not below %q", ErrBadChain, tip, base)
		}
		if len(path) > len(robot.Joints) {
			return nil, fmt.Errorf("%w: loop above link %q", ErrBadChain, l)
		}
		path = append(path, j)
		l = j.Parent.Link
	}
	var joints []Joint
	pending := geom.Identity() // fixed transforms since the last moving joint
	for i := len(path) - 1; i >= 0; i-- {
		uj := path[i]
		origin, err := jointOrigin(uj)
		if err != nil {
			return nil, err
		}
		pending = pending.Mul(origin)
		if uj.Type == "fixed" {
			continue
		}
		j, err := chainJoint(uj)
		if err != nil {
			return nil, err
		}
		j.Origin = pending
		joints = append(joints, j)
		pending = geom.Identity()
	}
	return NewChain(base, tip, joints, pending)
}

// deepestLeaf returns the link at the end of the longest joint path below
// base, failing if two leaves tie.
func deepestLeaf(base string, children map[string][]string) (string, error) {
	best, bestDepth, tie := base, 0, false
	var walk func(l string, d int)
	walk = func(l string, d int) {
		if d > 10000 {
			return
		}
		if len(children[l]) == 0 {
			switch {
			case d > bestDepth:
				best, bestDepth, tie = l, d, false
			case d == bestDepth && l != best:
				tie = true
			}
		}
		for _, c := range children[l] {
			walk(c, d+1)
		}
	}
	walk(base, 0)
	if tie {
		return "", fmt.Errorf("%w: several tip links at depth %d below %q; name the tip", ErrBadChain, bestDepth, base)
	}
	return best, nil
}

func jointOrigin(uj *urdf.Joint) (geom.Transform, error) {
	if uj.Origin == nil {
		return geom.Identity(), nil
	}
	xyz, err := parseVec(uj.Origin.XYZ, r3.Vec{})
	if err != nil {
		return geom.Transform{}, fmt.Errorf("%w: joint %q origin xyz: %w", ErrBadChain, uj.Name, err)
	}
	rpy, err := parseVec(uj.Origin.RPY, r3.Vec{})
	if err != nil {
		return geom.Transform{}, fmt.Errorf("%w: joint %q origin rpy: %w", ErrBadChain, uj.Name, err)
	}
	return geom.Transform{Translation: xyz, Rotation: geom.FromRPY(rpy.X, rpy.Y, rpy.Z)}, nil
}

func chainJoint(uj *urdf.Joint) (Joint, error) {
	j := Joint{Name: uj.Name}
	switch uj.Type {
	case "revolute":
		j.Type = Revolute
	case "continuous":
		j.Type = Continuous
	case "prismatic":
		j.Type = Prismatic
	default:
		return j, fmt.Errorf("%w: joint %q: type %q not supported (revolute, continuous, prismatic, fixed)", ErrBadChain, uj.Name, uj.Type)
	}
	if uj.Mimic != nil {
		return j, fmt.Errorf("%w: joint %q: mimic joints are not supported", ErrBadChain, uj.Name)
	}
	axis := r3.Vec{X: 1} // the URDF default
	if uj.Axis != nil {
		var err error
		if axis, err = parseVec(uj.Axis.XYZ, axis); err != nil {
			return j, fmt.Errorf("%w: joint %q axis: %w", ErrBadChain, uj.Name, err)
		}
	}
	j.Axis = axis
	if uj.Limit == nil {
		if j.Type != Continuous {
			return j, fmt.Errorf("%w: joint %q: %s joint without <limit> (urdfdom, and so robot_state_publisher, refuses it)", ErrBadChain, uj.Name, uj.Type)
		}
		j.Lower, j.Upper = math.Inf(-1), math.Inf(1)
		j.HardLower, j.HardUpper = j.Lower, j.Upper
		return j, nil
	}
	for _, a := range [...]struct{ name, v string }{{"effort", uj.Limit.Effort}, {"velocity", uj.Limit.Velocity}} {
		if strings.TrimSpace(a.v) == "" {
			return j, fmt.Errorf("%w: joint %q: <limit> without %s: urdfdom (robot_state_publisher, MoveIt) refuses it (\"joint limit: no %s\")", ErrBadChain, uj.Name, a.name, a.name)
		}
	}
	var err error
	if _, err = parseFloat(uj.Limit.Effort); err != nil {
		return j, fmt.Errorf("%w: joint %q effort limit: %w", ErrBadChain, uj.Name, err)
	}
	if j.Lower, err = parseFloat(uj.Limit.Lower); err != nil {
		return j, fmt.Errorf("%w: joint %q lower limit: %w", ErrBadChain, uj.Name, err)
	}
	if j.Upper, err = parseFloat(uj.Limit.Upper); err != nil {
		return j, fmt.Errorf("%w: joint %q upper limit: %w", ErrBadChain, uj.Name, err)
	}
	if j.MaxVelocity, err = parseFloat(uj.Limit.Velocity); err != nil {
		return j, fmt.Errorf("%w: joint %q velocity limit: %w", ErrBadChain, uj.Name, err)
	}
	j.HardLower, j.HardUpper = j.Lower, j.Upper
	if j.Type == Continuous {
		// Continuous joints turn without end whatever <limit> says.
		j.Lower, j.Upper = math.Inf(-1), math.Inf(1)
		j.HardLower, j.HardUpper = j.Lower, j.Upper
	}
	if sc := uj.Safety; sc != nil {
		if strings.TrimSpace(sc.KVelocity) == "" {
			return j, fmt.Errorf("%w: joint %q: <safety_controller> without k_velocity: urdfdom (robot_state_publisher, MoveIt) refuses it", ErrBadChain, uj.Name)
		}
		var lo, hi float64
		for _, a := range [...]struct {
			name, v string
			dst     *float64
		}{{"k_velocity", sc.KVelocity, nil}, {"k_position", sc.KPosition, nil}, {"soft_lower_limit", sc.SoftLower, &lo}, {"soft_upper_limit", sc.SoftUpper, &hi}} {
			x, err := parseFloat(a.v)
			if err != nil {
				return j, fmt.Errorf("%w: joint %q safety_controller %s: %w", ErrBadChain, uj.Name, a.name, err)
			}
			if a.dst != nil {
				*a.dst = x
			}
		}
		if j.Type != Continuous {
			j.Lower, j.Upper = math.Max(j.Lower, lo), math.Min(j.Upper, hi)
			if j.Lower > j.Upper {
				return j, fmt.Errorf("%w: joint %q: soft limits [%g, %g] leave nothing of the limits [%g, %g]", ErrBadChain, uj.Name, lo, hi, j.HardLower, j.HardUpper)
			}
		}
	}
	return j, nil
}

// parseFloat parses a URDF number; an empty attribute is 0 (the URDF
// default for limits).
func parseFloat(s string) (float64, error) { return urdf.NumberOr(s, 0) }

// parseVec parses "x y z"; an empty attribute gives def.
func parseVec(s string, def r3.Vec) (r3.Vec, error) {
	v, err := urdf.Vec3(s, [3]float64{def.X, def.Y, def.Z})
	return r3.Vec{X: v[0], Y: v[1], Z: v[2]}, err
}
