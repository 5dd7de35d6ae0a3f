// Package urdftest checks the structure of the repository's robot
// descriptions (launch/urdf/*.urdf) for the tests of the packages whose
// joints they describe: the rules urdfdom enforces when
// robot_state_publisher loads a description (unique names, one tree,
// complete joint limits, positive inertials), read with encoding/xml so
// that it needs no ROS. The kinematics of a description are checked with
// pkg/kinematics' own URDF parser; this package only adds what that parser
// does not look at.
package urdftest

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"

	"github.com/telebridge/telebridge/pkg/urdf"
)

// Robot is a decoded description, with the checks of this package.
type Robot struct{ urdf.Robot }

// Joint is one of a Robot's joints, with the accessors of this package.
type Joint struct{ *urdf.Joint }

// Path returns the path of a description in the repository's
// launch/urdf/, from any package directory.
func Path(file string) string {
	_, self, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(self), "..", "..", "..", "launch", "urdf", file)
}

// Load reads and decodes the description at path.
func Load(path string) (*Robot, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("urdftest: load: %w", err)
	}
	r, err := urdf.Decode(bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("urdftest: load %s: %w", path, err)
	}
	return &Robot{*r}, nil
}

// Moving reports whether j is a joint robot_state_publisher takes from
// joint_states (not fixed, not a mimic).
func (j Joint) Moving() bool { return j.Type != "fixed" && j.Mimic == nil }

// MovingJoints returns the names of the joints robot_state_publisher needs
// on joint_states, in document order.
func (r *Robot) MovingJoints() []string {
	var out []string
	for i := range r.Joints {
		if (Joint{&r.Joints[i]}).Moving() {
			out = append(out, r.Joints[i].Name)
		}
	}
	return out
}

// Joint returns the joint named name, or nil.
func (r *Robot) Joint(name string) *Joint {
	for i := range r.Joints {
		if r.Joints[i].Name == name {
			return &Joint{&r.Joints[i]}
		}
	}
	return nil
}

// Root returns the link that is no joint's child.
func (r *Robot) Root() (string, error) {
	child := map[string]bool{}
	for _, j := range r.Joints {
		child[j.Child.Link] = true
	}
	var roots []string
	for _, l := range r.Links {
		if !child[l.Name] {
			roots = append(roots, l.Name)
		}
	}
	if len(roots) != 1 {
		return "", fmt.Errorf("urdftest: %d root links %v", len(roots), roots)
	}
	return roots[0], nil
}

// Limits returns a joint's lower and upper limits and velocity limit.
func (j Joint) Limits() (lower, upper, velocity float64, err error) {
	if j.Limit == nil || j.Limit.Lower == "" || j.Limit.Upper == "" || j.Limit.Velocity == "" {
		return 0, 0, 0, fmt.Errorf("urdftest: joint %q: incomplete <limit>", j.Name)
	}
	if lower, err = urdf.Number(j.Limit.Lower); err == nil {
		if upper, err = urdf.Number(j.Limit.Upper); err == nil {
			velocity, err = urdf.Number(j.Limit.Velocity)
		}
	}
	if err != nil {
		return 0, 0, 0, fmt.Errorf("urdftest: joint %q limit: %w", j.Name, err)
	}
	return lower, upper, velocity, nil
}

// OriginXYZ returns the translation of a joint's origin [m] (zero without
// one).
func (j Joint) OriginXYZ() ([3]float64, error) {
	if j.Origin == nil {
		return [3]float64{}, nil
	}
	return urdf.Vec3(j.Origin.XYZ, [3]float64{})
}

// Check returns every violation of the rules robot_state_publisher's
// parser (urdfdom) and KDL apply: unique link and joint names; every joint
// between two declared links, each link the child of at most one joint,
// one root and no loop; known joint types; a complete <limit> (lower,
// upper, effort, velocity; lower <= upper) on every revolute and prismatic
// joint; a non-zero axis on moving joints; a positive mass and positive
// principal moments (that satisfy the triangle inequality) on every
// inertial; no inertial on the root link (KDL ignores it and warns).
func (r *Robot) Check() error {
	var errs []error
	fail := func(format string, a ...any) { errs = append(errs, fmt.Errorf(format, a...)) }
	links := map[string]*urdf.Link{}
	for i := range r.Links {
		l := &r.Links[i]
		if l.Name == "" || links[l.Name] != nil {
			fail("link %q: empty or duplicate name", l.Name)
		}
		links[l.Name] = l
		if l.Inertial != nil {
			if err := checkInertial(l.Inertial); err != nil {
				fail("link %q: %w", l.Name, err)
			}
		}
	}
	joints := map[string]bool{}
	parentOf := map[string]string{}
	for i := range r.Joints {
		j := Joint{&r.Joints[i]}
		if j.Name == "" || joints[j.Name] {
			fail("joint %q: empty or duplicate name", j.Name)
		}
		joints[j.Name] = true
		if links[j.Parent.Link] == nil || links[j.Child.Link] == nil {
			fail("joint %q: parent %q or child %q is not a link", j.Name, j.Parent.Link, j.Child.Link)
		}
		if _, dup := parentOf[j.Child.Link]; dup {
			fail("link %q is the child of two joints", j.Child.Link)
		}
		parentOf[j.Child.Link] = j.Parent.Link
		if j.Origin != nil {
			if _, err := urdf.Vec3(j.Origin.XYZ, [3]float64{}); err != nil {
				fail("joint %q origin xyz: %w", j.Name, err)
			}
			if _, err := urdf.Vec3(j.Origin.RPY, [3]float64{}); err != nil {
				fail("joint %q origin rpy: %w", j.Name, err)
			}
		}
		switch j.Type {
		case "fixed", "continuous", "revolute", "prismatic":
		default:
			fail("joint %q: type %q", j.Name, j.Type)
		}
		if j.Type == "revolute" || j.Type == "prismatic" {
			if j.Limit == nil || j.Limit.Effort == "" {
				fail("joint %q: <limit> without effort", j.Name)
			} else if _, err := urdf.Number(j.Limit.Effort); err != nil {
				fail("joint %q effort: %w", j.Name, err)
			}
			lo, hi, _, err := j.Limits()
			if err != nil {
				errs = append(errs, err)
			} else if lo > hi {
				fail("joint %q: lower %g above upper %g", j.Name, lo, hi)
			}
		}
		if j.Type != "fixed" && j.Axis != nil {
			a, err := urdf.Vec3(j.Axis.XYZ, [3]float64{})
			if err != nil || a == [3]float64{} {
				fail("joint %q: bad axis %q", j.Name, j.Axis.XYZ)
			}
		}
	}
	root, err := r.Root()
	if err != nil {
		errs = append(errs, err)
	} else if links[root].Inertial != nil {
		fail("root link %q has an inertial (KDL ignores it)", root)
	}
	for l := range links {
		seen := map[string]bool{}
		for p, ok := l, true; ok; p, ok = parentOf[p] {
			if seen[p] {
				fail("loop through link %q", p)
				break
			}
			seen[p] = true
		}
	}
	return errors.Join(errs...)
}

func checkInertial(in *urdf.Inertial) error {
	if in.Mass == nil || in.Inertia == nil {
		return errors.New("inertial without mass or inertia")
	}
	m, err := urdf.Number(in.Mass.Value)
	if err != nil || !(m > 0) {
		return fmt.Errorf("mass %q is not positive", in.Mass.Value)
	}
	var v [6]float64
	for i, s := range []string{in.Inertia.IXX, in.Inertia.IXY, in.Inertia.IXZ, in.Inertia.IYY, in.Inertia.IYZ, in.Inertia.IZZ} {
		if v[i], err = urdf.Number(s); err != nil {
			return fmt.Errorf("inertia: %w", err)
		}
	}
	ixx, iyy, izz := v[0], v[3], v[5]
	if !(ixx > 0 && iyy > 0 && izz > 0) {
		return fmt.Errorf("inertia %v: principal moments must be positive", v)
	}
	// Moments of a real body: each at most the sum of the other two.
	const slack = 1 + 1e-3
	if ixx > (iyy+izz)*slack || iyy > (ixx+izz)*slack || izz > (ixx+iyy)*slack {
		return fmt.Errorf("inertia %v: violates the triangle inequality", v)
	}
	return nil
}
