package balance

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"

	"gonum.org/v1/gonum/spatial/r3"

	"github.com/telebridge/telebridge/pkg/geom"
	"github.com/telebridge/telebridge/pkg/kinematics"
	"github.com/telebridge/telebridge/pkg/urdf"
)

// ErrModel is wrapped by every error of New: the description or the
// parameters cannot make a balance model.
var ErrModel = errors.New("balance: bad model")

// Params say what a URDF cannot: which links touch the ground, and where
// the ground is.
type Params struct {
	// ContactLinks name the links whose geometry may touch the ground
	// (tracks, flippers, wheels). At least one is required.
	ContactLinks []string
	// GroundLink names a link whose origin lies on the ground plane at
	// zero joints (base_footprint). Empty: the lowest contact point at
	// zero joints.
	GroundLink string
	// Tolerance [m]: contact points at most this far above the ground
	// plane support the robot. Default 0.01.
	Tolerance float64
}

// ServosilaParams are the parameters of launch/urdf/servosila_engineer.urdf:
// both tracks and both flippers may touch the ground, base_footprint is
// on it.
func ServosilaParams() Params {
	return Params{
		ContactLinks: []string{"left_track_link", "right_track_link", "left_flipper_link", "right_flipper_link"},
		GroundLink:   "base_footprint",
	}
}

// node is one link of the tree, in an order where parents come first.
type node struct {
	name   string
	parent int              // index of the parent node; -1 for the root
	origin geom.Transform   // the joint's origin in the parent link
	joint  kinematics.Joint // Type and Axis of a moving joint
	q      int              // index into the joint positions; -1: fixed
}

// massPoint is a link's mass at its centre of mass.
type massPoint struct {
	node int
	mass float64 // [kg]
	at   r3.Vec  // in the link frame [m]
}

// contactPoint is a point of a contact link's geometry.
type contactPoint struct {
	node int
	at   r3.Vec // in the link frame [m]
}

// Model is the balance model of one robot. It is immutable after New and
// safe for concurrent use; each goroutine evaluates into its own Result.
type Model struct {
	name     string
	joints   []string
	nodes    []node
	masses   []massPoint
	total    float64 // [kg]
	contacts []contactPoint
	groundZ  float64 // [m] in the base frame
	tol      float64
	assumed  string
}

// New builds the model of the URDF in r with params p.
func New(r io.Reader, p Params) (*Model, error) {
	doc, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrModel, err)
	}
	robot, err := urdf.Decode(bytes.NewReader(doc))
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrModel, err)
	}
	if p.Tolerance == 0 {
		p.Tolerance = 0.01
	}
	if !(p.Tolerance > 0) || len(p.ContactLinks) == 0 {
		return nil, fmt.Errorf("%w: need contact links and a positive tolerance", ErrModel)
	}
	m := &Model{name: robot.Name, tol: p.Tolerance}
	if err := m.tree(robot); err != nil {
		return nil, fmt.Errorf("%w: robot %q: %w", ErrModel, robot.Name, err)
	}
	index := map[string]int{}
	for i, n := range m.nodes {
		index[n.name] = i
	}
	for _, l := range robot.Links {
		if _, ok := index[l.Name]; !ok {
			return nil, fmt.Errorf("%w: robot %q: link %q is not connected to the root %q", ErrModel, robot.Name, l.Name, m.nodes[0].name)
		}
	}
	links := map[string]*urdf.Link{}
	for i := range robot.Links {
		links[robot.Links[i].Name] = &robot.Links[i]
	}
	if err := m.inertials(robot, index); err != nil {
		return nil, fmt.Errorf("%w: robot %q: %w", ErrModel, robot.Name, err)
	}
	for _, name := range p.ContactLinks {
		l, i := links[name], index[name]
		if l == nil {
			return nil, fmt.Errorf("%w: no contact link %q", ErrModel, name)
		}
		shapes := l.Collisions
		if len(shapes) == 0 {
			shapes = l.Visuals
		}
		n := len(m.contacts)
		for _, s := range shapes {
			if err := m.addShape(i, s); err != nil {
				return nil, fmt.Errorf("%w: link %q: %w", ErrModel, name, err)
			}
		}
		if len(m.contacts) == n {
			return nil, fmt.Errorf("%w: contact link %q has no box, cylinder or sphere", ErrModel, name)
		}
	}
	// The ground plane at zero joints.
	tf := m.forward(make([]float64, len(m.joints)), make([]geom.Transform, len(m.nodes)))
	if p.GroundLink != "" {
		i, ok := index[p.GroundLink]
		if !ok {
			return nil, fmt.Errorf("%w: no ground link %q", ErrModel, p.GroundLink)
		}
		m.groundZ = tf[i].Translation.Z
	} else {
		m.groundZ = math.Inf(1)
		for _, c := range m.contacts {
			m.groundZ = math.Min(m.groundZ, tf[c.node].Apply(c.at).Z)
		}
	}
	m.assumed = assumedNote(doc, m)
	return m, nil
}

// tree orders the links root first and records each one's joint.
func (m *Model) tree(robot *urdf.Robot) error {
	byChild := map[string]*urdf.Joint{}
	children := map[string][]*urdf.Joint{}
	for i := range robot.Joints {
		j := &robot.Joints[i]
		if byChild[j.Child.Link] != nil {
			return fmt.Errorf("link %q is the child of two joints", j.Child.Link)
		}
		byChild[j.Child.Link] = j
		children[j.Parent.Link] = append(children[j.Parent.Link], j)
	}
	var roots []string
	for _, l := range robot.Links {
		if byChild[l.Name] == nil {
			roots = append(roots, l.Name)
		}
	}
	if len(roots) != 1 {
		return fmt.Errorf("%d root links %v", len(roots), roots)
	}
	m.nodes = []node{{name: roots[0], parent: -1, origin: geom.Identity(), q: -1}}
	for i := 0; i < len(m.nodes); i++ {
		for _, j := range children[m.nodes[i].name] {
			if len(m.nodes) > len(robot.Joints) {
				return errors.New("the joints make a loop")
			}
			n, err := m.jointNode(j, i)
			if err != nil {
				return fmt.Errorf("joint %q: %w", j.Name, err)
			}
			m.nodes = append(m.nodes, n)
		}
	}
	return nil
}

func (m *Model) jointNode(j *urdf.Joint, parent int) (node, error) {
	n := node{name: j.Child.Link, parent: parent, origin: geom.Identity(), q: -1}
	if j.Origin != nil {
		t, err := pose(j.Origin)
		if err != nil {
			return n, err
		}
		n.origin = t
	}
	switch j.Type {
	case "fixed":
		return n, nil
	case "revolute", "continuous":
		n.joint.Type = kinematics.Revolute
	case "prismatic":
		n.joint.Type = kinematics.Prismatic
	default:
		return n, fmt.Errorf("type %q not supported (fixed, revolute, continuous, prismatic)", j.Type)
	}
	axis := [3]float64{1, 0, 0}
	if j.Axis != nil {
		var err error
		if axis, err = urdf.Vec3(j.Axis.XYZ, axis); err != nil {
			return n, fmt.Errorf("axis: %w", err)
		}
	}
	a := r3.Vec{X: axis[0], Y: axis[1], Z: axis[2]}
	if r3.Norm(a) == 0 {
		return n, errors.New("zero axis")
	}
	n.joint.Axis = r3.Unit(a)
	n.joint.Name = j.Name
	n.q = len(m.joints)
	m.joints = append(m.joints, j.Name)
	return n, nil
}

func pose(o *urdf.Origin) (geom.Transform, error) {
	xyz, err := urdf.Vec3(o.XYZ, [3]float64{})
	if err != nil {
		return geom.Transform{}, fmt.Errorf("origin xyz: %w", err)
	}
	rpy, err := urdf.Vec3(o.RPY, [3]float64{})
	if err != nil {
		return geom.Transform{}, fmt.Errorf("origin rpy: %w", err)
	}
	return geom.Transform{Translation: r3.Vec{X: xyz[0], Y: xyz[1], Z: xyz[2]}, Rotation: geom.FromRPY(rpy[0], rpy[1], rpy[2])}, nil
}

// Name returns the robot's name.
func (m *Model) Name() string { return m.name }

// Joints returns the names of the moving joints in the order of the
// positions Evaluate takes.
func (m *Model) Joints() []string { return slices.Clone(m.joints) }

// Joint returns the index of joint name in the positions, or -1.
func (m *Model) Joint(name string) int { return slices.Index(m.joints, name) }

// Mass returns the total mass [kg].
func (m *Model) Mass() float64 { return m.total }

// GroundZ returns the height of the ground plane in the base frame [m].
func (m *Model) GroundZ() float64 { return m.groundZ }

// Assumed returns a sentence saying which share of the mass is assumed
// (from the URDF's comments), or "" when none is.
func (m *Model) Assumed() string { return m.assumed }

// forward fills tf with every node's pose in the base frame for joint
// positions q and returns it.
func (m *Model) forward(q []float64, tf []geom.Transform) []geom.Transform {
	for i, n := range m.nodes {
		t := n.origin
		if n.q >= 0 {
			t = t.Mul(n.joint.Motion(q[n.q]))
		}
		if n.parent >= 0 {
			t = tf[n.parent].Mul(t)
		}
		tf[i] = t
	}
	return tf
}
