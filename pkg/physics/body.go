package physics

import (
	"fmt"

	"github.com/telebridge/telebridge/pkg/physics/ode"
)

// BodyShape is a collision shape on a body.
type BodyShape struct {
	Shape    Shape    // the geometry [m]
	Pose     Pose     // in the body's link frame
	Material Material // friction, bounce, belt slip
	// Belt, when set, makes the shape a moving surface (a track): see
	// Belt. BeltAxis is the belt's lateral axis (its pulleys' axle) in
	// the link frame; the belt runs forward along BeltAxis x n, n the
	// contact normal out of the ground (for axis +y and ground below:
	// along +x).
	Belt     *Belt
	BeltAxis Vec3
}

// BodySpec describes a dynamic rigid body.
type BodySpec struct {
	Name     string      // for errors and lookups
	Inertial Inertial    // mass, centre and inertia in the link frame
	Pose     Pose        // of the link frame in the world
	Shapes   []BodyShape // collision shapes (none: the body touches nothing)
	// Group: bodies with the same non-zero group do not collide with
	// each other (the links of one robot). 1..MaxGroup.
	Group int
}

// Body is a dynamic rigid body. ODE's body sits at the centre of mass;
// the methods report the link frame.
type Body struct {
	w     *World
	b     ode.Body
	name  string
	com   Vec3
	group int
	in    Inertial
}

// AddBody adds a dynamic body.
func (w *World) AddBody(spec BodySpec) (*Body, error) {
	if err := spec.Inertial.Validate(); err != nil {
		return nil, fmt.Errorf("body %q: %w", spec.Name, err)
	}
	if err := poseOK(spec.Pose); err != nil {
		return nil, fmt.Errorf("body %q: %w", spec.Name, err)
	}
	if spec.Group < 0 || spec.Group > MaxGroup {
		return nil, fmt.Errorf("body %q: group %d: want 0..%d", spec.Name, spec.Group, MaxGroup)
	}
	for i, s := range spec.Shapes {
		if s.Shape.Kind == ShapePlane {
			return nil, fmt.Errorf("body %q shape %d: a plane cannot move", spec.Name, i)
		}
		if err := s.Shape.validate(); err != nil {
			return nil, fmt.Errorf("body %q shape %d: %w", spec.Name, i, err)
		}
		if err := poseOK(s.Pose); err != nil {
			return nil, fmt.Errorf("body %q shape %d: %w", spec.Name, i, err)
		}
		if err := s.Material.validate(); err != nil {
			return nil, fmt.Errorf("body %q shape %d: %w", spec.Name, i, err)
		}
		if s.Belt != nil && (s.Belt.w != w || !(s.BeltAxis.Norm() > 0) || !s.BeltAxis.finite()) {
			return nil, fmt.Errorf("body %q shape %d: belt of another world or without an axis", spec.Name, i)
		}
	}
	lock.Lock()
	defer lock.Unlock()
	if w.closed {
		return nil, ErrClosed
	}
	l := w.l
	in := spec.Inertial
	b := &Body{w: w, name: spec.Name, com: in.CoM, group: spec.Group, in: in}
	b.b = l.BodyCreate(w.world)
	var m ode.Mass
	l.MassSetParameters(&m, in.Mass, 0, 0, 0, in.I[0], in.I[1], in.I[2], in.I[3], in.I[4], in.I[5])
	l.BodySetMass(b.b, &m)
	c := spec.Pose.Apply(in.CoM)
	l.BodySetPosition(b.b, c[0], c[1], c[2])
	l.BodySetQuaternion(b.b, spec.Pose.Rot.norm())
	l.BodySetAutoDisable(b.b, false)
	for _, s := range spec.Shapes {
		g, err := w.createGeom(w.dyn, s.Shape)
		if err != nil {
			return nil, fmt.Errorf("body %q: %w", spec.Name, err)
		}
		l.GeomSetBody(g, b.b)
		off := s.Pose.Pos.Sub(in.CoM)
		l.GeomSetOffsetPosition(g, off[0], off[1], off[2])
		l.GeomSetOffsetQuaternion(g, s.Pose.Rot.norm())
		if spec.Group != 0 {
			// ODE skips the pairs of one group before calling back.
			bit := groupBit(spec.Group)
			l.GeomSetCategoryBits(g, bit)
			l.GeomSetCollideBits(g, ^bit)
		} else {
			l.GeomSetCategoryBits(g, 1)
		}
		gi := &geomInfo{body: b, mat: s.Material, belt: s.Belt}
		if s.Belt != nil {
			gi.axis = s.BeltAxis.Scale(1 / s.BeltAxis.Norm())
		}
		w.geoms[g] = gi
	}
	w.bodies = append(w.bodies, b)
	return b, nil
}

// Name returns the body's name.
func (b *Body) Name() string { return b.name }

// Inertial returns the body's mass properties as given.
func (b *Body) Inertial() Inertial { return b.in }

func (b *Body) rot() Quat { return Quat(b.w.l.BodyQuaternion(b.b)) }

// Pose returns the link frame's pose in the world.
func (b *Body) Pose() (Pose, error) {
	lock.Lock()
	defer lock.Unlock()
	if b.w.closed {
		return Pose{}, ErrClosed
	}
	return b.pose(), nil
}

func (b *Body) pose() Pose {
	q := b.rot()
	c := Vec3(b.w.l.BodyPosition(b.b))
	return Pose{Pos: c.Sub(q.Rotate(b.com)), Rot: q}
}

// Velocity returns the link origin's linear velocity [m/s] and the
// body's angular velocity [rad/s], both in the world frame.
func (b *Body) Velocity() (lin, ang Vec3, err error) {
	lock.Lock()
	defer lock.Unlock()
	if b.w.closed {
		return Vec3{}, Vec3{}, ErrClosed
	}
	v := Vec3(b.w.l.BodyLinearVel(b.b))
	wv := Vec3(b.w.l.BodyAngularVel(b.b))
	r := b.rot().Rotate(b.com).Scale(-1) // from the centre to the link origin
	return v.Add(wv.Cross(r)), wv, nil
}

// SetPose moves the body (teleport: velocities kept). For placing bodies
// before stepping or resetting a scenario.
func (b *Body) SetPose(p Pose) error {
	if err := poseOK(p); err != nil {
		return err
	}
	lock.Lock()
	defer lock.Unlock()
	if b.w.closed {
		return ErrClosed
	}
	c := p.Apply(b.com)
	b.w.l.BodySetPosition(b.b, c[0], c[1], c[2])
	b.w.l.BodySetQuaternion(b.b, p.Rot.norm())
	return nil
}

// SetVelocity sets the centre of mass's linear velocity [m/s] and the
// angular velocity [rad/s], world frame.
func (b *Body) SetVelocity(lin, ang Vec3) error {
	if !lin.finite() || !ang.finite() {
		return fmt.Errorf("physics: velocity %v, %v is not finite", lin, ang)
	}
	lock.Lock()
	defer lock.Unlock()
	if b.w.closed {
		return ErrClosed
	}
	b.w.l.BodySetLinearVel(b.b, lin[0], lin[1], lin[2])
	b.w.l.BodySetAngularVel(b.b, ang[0], ang[1], ang[2])
	return nil
}

// MaxGroup is the largest collision group (one category bit each, bit 0
// being the bodies without a group).
const MaxGroup = 63

func groupBit(g int) uint64 { return 1 << uint(g) }
