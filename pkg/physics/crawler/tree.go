package crawler

import (
	"fmt"
	"strings"

	"github.com/telebridge/telebridge/pkg/physics"
	"github.com/telebridge/telebridge/pkg/urdf"
)

// tree is a URDF robot as rigid bodies: links joined by fixed joints (and
// by the joints not simulated, treated as fixed) are merged into the body
// of the first link above them that a moving joint (or the root) starts.
type tree struct {
	links    map[string]*urdf.Link
	joints   []*urdf.Joint          // in document order
	byChild  map[string]*urdf.Joint // the joint whose child is the link
	children map[string][]*urdf.Joint
	root     string
}

func parseTree(doc string) (*tree, error) {
	r, err := urdf.Decode(strings.NewReader(doc))
	if err != nil {
		return nil, err
	}
	t := &tree{links: map[string]*urdf.Link{}, byChild: map[string]*urdf.Joint{}, children: map[string][]*urdf.Joint{}}
	for i := range r.Links {
		t.links[r.Links[i].Name] = &r.Links[i]
	}
	for i := range r.Joints {
		j := &r.Joints[i]
		if t.links[j.Parent.Link] == nil || t.links[j.Child.Link] == nil {
			return nil, fmt.Errorf("urdf: joint %q joins unknown links %q, %q", j.Name, j.Parent.Link, j.Child.Link)
		}
		if t.byChild[j.Child.Link] != nil {
			return nil, fmt.Errorf("urdf: link %q has two parents", j.Child.Link)
		}
		t.joints = append(t.joints, j)
		t.byChild[j.Child.Link] = j
		t.children[j.Parent.Link] = append(t.children[j.Parent.Link], j)
	}
	for _, l := range r.Links {
		if t.byChild[l.Name] == nil {
			if t.root != "" {
				return nil, fmt.Errorf("urdf: two root links %q and %q", t.root, l.Name)
			}
			t.root = l.Name
		}
	}
	if t.root == "" {
		return nil, fmt.Errorf("urdf: no root link")
	}
	return t, nil
}

// origin parses a URDF <origin> as a pose.
func origin(o *urdf.Origin) (physics.Pose, error) {
	if o == nil {
		return physics.Pose{Rot: physics.Identity}, nil
	}
	xyz, err := urdf.Vec3(o.XYZ, [3]float64{})
	if err != nil {
		return physics.Pose{}, err
	}
	rpy, err := urdf.Vec3(o.RPY, [3]float64{})
	if err != nil {
		return physics.Pose{}, err
	}
	return physics.Pose{Pos: xyz, Rot: physics.RPY(rpy[0], rpy[1], rpy[2])}, nil
}

// jointAxis returns a joint's unit axis in its frame (URDF default x).
func jointAxis(j *urdf.Joint) (physics.Vec3, error) {
	var a [3]float64
	var err error
	if j.Axis == nil {
		a = [3]float64{1, 0, 0}
	} else if a, err = urdf.Vec3(j.Axis.XYZ, [3]float64{1, 0, 0}); err != nil {
		return physics.Vec3{}, fmt.Errorf("urdf: joint %q axis: %w", j.Name, err)
	}
	v := physics.Vec3(a)
	if v.Norm() == 0 {
		return v, fmt.Errorf("urdf: joint %q has a zero axis", j.Name)
	}
	return v.Scale(1 / v.Norm()), nil
}

// poses returns every link's pose in the root frame with the moving
// joints at q (by joint name; missing: 0).
func (t *tree) poses(q map[string]float64) (map[string]physics.Pose, error) {
	out := map[string]physics.Pose{t.root: {Rot: physics.Identity}}
	var walk func(link string) error
	walk = func(link string) error {
		for _, j := range t.children[link] {
			o, err := origin(j.Origin)
			if err != nil {
				return fmt.Errorf("urdf: joint %q origin: %w", j.Name, err)
			}
			p := out[link].Compose(o)
			if a, ok := q[j.Name]; ok && a != 0 {
				ax, err := jointAxis(j)
				if err != nil {
					return err
				}
				p = p.Compose(physics.Pose{Rot: physics.AxisAngle(ax, a)})
			}
			out[j.Child.Link] = p
			if err := walk(j.Child.Link); err != nil {
				return err
			}
		}
		return nil
	}
	return out, walk(t.root)
}

// bodyRoot returns the link starting the body that link belongs to:
// climbing through joints not in moving.
func (t *tree) bodyRoot(link string, moving map[string]bool) string {
	for {
		j := t.byChild[link]
		if j == nil || moving[j.Name] {
			return link
		}
		link = j.Parent.Link
	}
}

// inertial returns a link's URDF inertial in its link frame (ok false for
// a link without mass).
func inertial(l *urdf.Link) (physics.Inertial, bool, error) {
	if l.Inertial == nil || l.Inertial.Mass == nil {
		return physics.Inertial{}, false, nil
	}
	m, err := urdf.Number(l.Inertial.Mass.Value)
	if err != nil {
		return physics.Inertial{}, false, fmt.Errorf("urdf: link %q mass: %w", l.Name, err)
	}
	var in physics.Inertial
	in.Mass = m
	if i := l.Inertial.Inertia; i != nil {
		for k, s := range []string{i.IXX, i.IYY, i.IZZ, i.IXY, i.IXZ, i.IYZ} {
			if in.I[k], err = urdf.NumberOr(s, 0); err != nil {
				return in, false, fmt.Errorf("urdf: link %q inertia: %w", l.Name, err)
			}
		}
	}
	o, err := origin(l.Inertial.Origin)
	if err != nil {
		return in, false, fmt.Errorf("urdf: link %q inertial origin: %w", l.Name, err)
	}
	in = in.Rotated(o.Rot)
	in.CoM = o.Pos
	return in, true, nil
}

// moved returns in expressed in a frame where the link sits at pose p.
func moved(in physics.Inertial, p physics.Pose) physics.Inertial {
	out := in.Rotated(p.Rot)
	out.CoM = p.Apply(in.CoM)
	return out
}

// boxShapes returns the link's box geometry (collision, or visual when
// the link has no collision element) as shapes in pose p's frame.
func boxShapes(l *urdf.Link, p physics.Pose) ([]physics.BodyShape, error) {
	src := l.Collisions
	if len(src) == 0 {
		src = l.Visuals
	}
	var out []physics.BodyShape
	for _, s := range src {
		if s.Geometry == nil || s.Geometry.Box == nil {
			continue
		}
		size, err := urdf.Vec3(s.Geometry.Box.Size, [3]float64{})
		if err != nil {
			return nil, fmt.Errorf("urdf: link %q box: %w", l.Name, err)
		}
		o, err := origin(s.Origin)
		if err != nil {
			return nil, fmt.Errorf("urdf: link %q shape origin: %w", l.Name, err)
		}
		out = append(out, physics.BodyShape{Shape: physics.Box(size[0], size[1], size[2]), Pose: p.Compose(o)})
	}
	return out, nil
}

// order returns the link names from the root down, children in document
// order (deterministic).
func (t *tree) order() []string {
	out := []string{t.root}
	for i := 0; i < len(out); i++ {
		for _, j := range t.children[out[i]] {
			out = append(out, j.Child.Link)
		}
	}
	return out
}

// jointNamed returns the joint called name, or nil.
func (t *tree) jointNamed(name string) *urdf.Joint {
	for _, j := range t.joints {
		if j.Name == name {
			return j
		}
	}
	return nil
}
