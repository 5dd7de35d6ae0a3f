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
	"encoding/xml"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
)

// Robot is a URDF document: its links and joints.
type Robot struct {
	Name   string  `xml:"name,attr"`
	Links  []Link  `xml:"link"`
	Joints []Joint `xml:"joint"`
}

// Link is a URDF link; Inertial is nil for a link without one.
type Link struct {
	Name     string    `xml:"name,attr"`
	Inertial *Inertial `xml:"inertial"`
}

// Inertial is a link's mass [kg] and inertia [kg m²] (attributes as
// written; nil when the element is missing).
type Inertial struct {
	Mass *struct {
		Value string `xml:"value,attr"`
	} `xml:"mass"`
	Inertia *struct {
		IXX string `xml:"ixx,attr"`
		IXY string `xml:"ixy,attr"`
		IXZ string `xml:"ixz,attr"`
		IYY string `xml:"iyy,attr"`
		IYZ string `xml:"iyz,attr"`
		IZZ string `xml:"izz,attr"`
	} `xml:"inertia"`
}

// Joint is a URDF joint.
type Joint struct {
	Name   string `xml:"name,attr"`
	Type   string `xml:"type,attr"`
	Parent struct {
		Link string `xml:"link,attr"`
	} `xml:"parent"`
	Child struct {
		Link string `xml:"link,attr"`
	} `xml:"child"`
	Origin *struct {
		XYZ string `xml:"xyz,attr"`
		RPY string `xml:"rpy,attr"`
	} `xml:"origin"`
	Axis *struct {
		XYZ string `xml:"xyz,attr"`
	} `xml:"axis"`
	Limit *struct {
		Lower    *string `xml:"lower,attr"`
		Upper    *string `xml:"upper,attr"`
		Effort   *string `xml:"effort,attr"`
		Velocity *string `xml:"velocity,attr"`
	} `xml:"limit"`
	Mimic *struct {
		Joint string `xml:"joint,attr"`
	} `xml:"mimic"`
}

// Path returns the path of a description in the repository's
// launch/urdf/, from any package directory.
func Path(file string) string {
	_, self, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(self), "..", "..", "launch", "urdf", file)
}

// Load reads and decodes the description at path.
func Load(path string) (*Robot, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("urdftest: load: %w", err)
	}
	var r Robot
	if err := xml.Unmarshal(b, &r); err != nil {
		return nil, fmt.Errorf("urdftest: load %s: %w", path, err)
	}
	return &r, nil
}

// Moving reports whether j is a joint robot_state_publisher takes from
// joint_states (not fixed, not a mimic).
func (j *Joint) Moving() bool { return j.Type != "fixed" && j.Mimic == nil }

// MovingJoints returns the names of the joints robot_state_publisher needs
// on joint_states, in document order.
func (r *Robot) MovingJoints() []string {
	var out []string
	for i := range r.Joints {
		if r.Joints[i].Moving() {
			out = append(out, r.Joints[i].Name)
		}
	}
	return out
}

// Joint returns the joint named name, or nil.
func (r *Robot) Joint(name string) *Joint {
	for i := range r.Joints {
		if r.Joints[i].Name == name {
			return &r.Joints[i]
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
func (j *Joint) Limits() (lower, upper, velocity float64, err error) {
	if j.Limit == nil || j.Limit.Lower == nil || j.Limit.Upper == nil || j.Limit.Velocity == nil {
		return 0, 0, 0, fmt.Errorf("urdftest: joint %q: incomplete <limit>", j.Name)
	}
	if lower, err = number(*j.Limit.Lower); err == nil {
		if upper, err = number(*j.Limit.Upper); err == nil {
			velocity, err = number(*j.Limit.Velocity)
		}
	}
	if err != nil {
		return 0, 0, 0, fmt.Errorf("urdftest: joint %q limit: %w", j.Name, err)
	}
	return lower, upper, velocity, nil
}

// OriginXYZ returns the translation of a joint's origin [m] (zero without
// one).
func (j *Joint) OriginXYZ() ([3]float64, error) {
	if j.Origin == nil {
		return [3]float64{}, nil
	}
	return vec(j.Origin.XYZ)
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
	links := map[string]*Link{}
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
		j := &r.Joints[i]
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
			if _, err := vec(j.Origin.XYZ); err != nil {
				fail("joint %q origin xyz: %w", j.Name, err)
			}
			if _, err := vec(j.Origin.RPY); err != nil {
				fail("joint %q origin rpy: %w", j.Name, err)
			}
		}
		switch j.Type {
		case "fixed", "continuous", "revolute", "prismatic":
		default:
			fail("joint %q: type %q", j.Name, j.Type)
		}
		if j.Type == "revolute" || j.Type == "prismatic" {
			if j.Limit == nil || j.Limit.Effort == nil {
				fail("joint %q: <limit> without effort", j.Name)
			} else if _, err := number(*j.Limit.Effort); err != nil {
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
			a, err := vec(j.Axis.XYZ)
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

func checkInertial(in *Inertial) error {
	if in.Mass == nil || in.Inertia == nil {
		return errors.New("inertial without mass or inertia")
	}
	m, err := number(in.Mass.Value)
	if err != nil || !(m > 0) {
		return fmt.Errorf("mass %q is not positive", in.Mass.Value)
	}
	var v [6]float64
	for i, s := range []string{in.Inertia.IXX, in.Inertia.IXY, in.Inertia.IXZ, in.Inertia.IYY, in.Inertia.IYZ, in.Inertia.IZZ} {
		if v[i], err = number(s); err != nil {
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

// number parses a required URDF number.
func number(s string) (float64, error) {
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, fmt.Errorf("bad number %q", s)
	}
	return v, nil
}

// vec parses "x y z"; empty is zero (the URDF default).
func vec(s string) ([3]float64, error) {
	f := strings.Fields(s)
	var v [3]float64
	if len(f) == 0 {
		return v, nil
	}
	if len(f) != 3 {
		return v, fmt.Errorf("want 3 numbers, got %q", s)
	}
	for i, w := range f {
		x, err := number(w)
		if err != nil {
			return v, err
		}
		v[i] = x
	}
	return v, nil
}
