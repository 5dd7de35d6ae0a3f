package physics

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"sync"
	"time"

	"github.com/ebitengine/purego"
	"github.com/telebridge/telebridge/pkg/physics/ode"
)

// ErrClosed is returned by the methods of a closed World.
var ErrClosed = errors.New("physics: world is closed")

// Config configures a World. Zero fields take the stated defaults.
type Config struct {
	// Step is the fixed time step. Default 1 ms (1 kHz).
	Step time.Duration
	// Gravity [m/s^2, world frame]. Default (0, 0, -9.81); NoGravity for
	// none.
	Gravity Vec3
	// NoGravity turns gravity off (Gravity is then ignored).
	NoGravity bool
	// Exact steps with dWorldStep (exact, cubic cost) instead of
	// dWorldQuickStep (iterative, linear cost).
	Exact bool
	// Iterations of dWorldQuickStep. Default 50 (Gazebo classic's).
	Iterations int
	// ERP is the global error reduction parameter (0..1). Default 0.2.
	ERP float64
	// CFM is the global constraint force mixing. Default 1e-5.
	CFM float64
	// SurfaceLayer is how deep contacts may sink without being pushed
	// out [m] (against jitter). Default 0.001.
	SurfaceLayer float64
	// MaxContacts per geom pair. Default 8.
	MaxContacts int
}

func (c Config) withDefaults() (Config, error) {
	if c.Step == 0 {
		c.Step = time.Millisecond
	}
	if c.Gravity == (Vec3{}) && !c.NoGravity {
		c.Gravity = Vec3{0, 0, -9.81}
	}
	if c.NoGravity {
		c.Gravity = Vec3{}
	}
	if c.Iterations == 0 {
		c.Iterations = 50
	}
	if c.ERP == 0 {
		c.ERP = 0.2
	}
	if c.CFM == 0 {
		c.CFM = 1e-5
	}
	if c.SurfaceLayer == 0 {
		c.SurfaceLayer = 0.001
	}
	if c.MaxContacts == 0 {
		c.MaxContacts = 8
	}
	switch {
	case c.Step <= 0 || c.Step > 100*time.Millisecond:
		return c, fmt.Errorf("physics: step %v: want 0 < step <= 100 ms", c.Step)
	case !c.Gravity.finite():
		return c, fmt.Errorf("physics: gravity %v is not finite", c.Gravity)
	case c.Iterations < 1 || c.Iterations > 10000:
		return c, fmt.Errorf("physics: %d iterations: want 1..10000", c.Iterations)
	case !(c.ERP > 0 && c.ERP <= 1):
		return c, fmt.Errorf("physics: ERP %g: want 0 < ERP <= 1", c.ERP)
	case !(c.CFM > 0 && c.CFM < 1):
		return c, fmt.Errorf("physics: CFM %g: want 0 < CFM < 1", c.CFM)
	case !(c.SurfaceLayer >= 0 && c.SurfaceLayer < 0.1):
		return c, fmt.Errorf("physics: surface layer %g m: want 0..0.1", c.SurfaceLayer)
	case c.MaxContacts < 1 || c.MaxContacts > 64:
		return c, fmt.Errorf("physics: %d contacts a pair: want 1..64", c.MaxContacts)
	}
	return c, nil
}

// Material is how a surface touches others. A contact takes the smaller
// of the two friction coefficients and the larger bounce.
type Material struct {
	// Friction is the Coulomb coefficient (0: frictionless). For a belt
	// shape it is the coefficient along the belt.
	Friction float64
	// SideFriction is a belt shape's coefficient across the belt (the
	// lateral grip of a track, which decides how much a skid-steered
	// vehicle slips when it turns). Ignored for other shapes; 0 means
	// Friction.
	SideFriction float64
	// Bounce is the restitution 0..1.
	Bounce float64
	// Slip and SideSlip are a belt shape's force-dependent slip along and
	// across the belt [m/s per N, per contact point] (ODE's slip1 and
	// slip2): the grip yields at a speed proportional to the force the
	// contact carries, as a track's rubber and the ground shear under
	// load. 0: rigid (Coulomb only). Ignored for shapes without a belt.
	// Slip fades out below SlipFade of belt speed: a stopped belt is
	// braked and holds as far as friction allows.
	Slip, SideSlip float64
}

// SlipFade is the belt speed [m/s] under which a belt's Slip is scaled
// down in proportion (to zero for a stopped belt).
const SlipFade = 0.05

func (m Material) validate() error {
	if !(m.Friction >= 0 && m.Friction <= 100) || !(m.SideFriction >= 0 && m.SideFriction <= 100) || !(m.Bounce >= 0 && m.Bounce <= 1) ||
		!(m.Slip >= 0 && m.Slip <= 10) || !(m.SideSlip >= 0 && m.SideSlip <= 10) {
		return fmt.Errorf("physics: material %+v: friction 0..100, bounce 0..1, slip 0..10", m)
	}
	return nil
}

// lock serialises every ODE call of the process (ODE has global state).
var lock sync.Mutex

var (
	cbOnce  sync.Once
	nearCB  uintptr
	current *World // the World whose step is in the callback (under lock)
)

// World is a physics world. Its methods are safe for concurrent use (one
// package lock). Close it to free ODE's memory.
type World struct {
	cfg    Config
	dt     float64
	l      *ode.Lib
	world  ode.World
	dyn    ode.Space // the bodies' geoms
	static ode.Space // static geometry
	group  ode.JointGroup
	seed   uint64 // this world's copy of ODE's random seed
	steps  uint64
	closed bool

	geoms     map[ode.Geom]*geomInfo
	bodies    []*Body
	hinges    []*Hinge
	meshes    []ode.TriMeshData
	pinner    runtime.Pinner
	buf       []ode.ContactGeom
	contact   ode.Contact
	nContacts int
}

type geomInfo struct {
	body *Body // nil: static
	mat  Material
	belt *Belt
	axis Vec3 // belt's lateral axis in the body frame
}

// New creates a World. The error wraps ode.ErrMissing when libode is not
// installed.
func New(cfg Config) (*World, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	l, err := ode.Load()
	if err != nil {
		return nil, fmt.Errorf("physics: %w", err)
	}
	cbOnce.Do(func() { nearCB = purego.NewCallback(near) })
	lock.Lock()
	defer lock.Unlock()
	w := &World{cfg: cfg, dt: cfg.Step.Seconds(), l: l, geoms: map[ode.Geom]*geomInfo{}, buf: make([]ode.ContactGeom, cfg.MaxContacts)}
	w.world = l.WorldCreate()
	l.WorldSetGravity(w.world, cfg.Gravity[0], cfg.Gravity[1], cfg.Gravity[2])
	l.WorldSetERP(w.world, cfg.ERP)
	l.WorldSetCFM(w.world, cfg.CFM)
	l.WorldSetQuickStepIterations(w.world, cfg.Iterations)
	l.WorldSetContactSurfaceLayer(w.world, cfg.SurfaceLayer)
	l.WorldSetContactMaxCorrectingVel(w.world, 10)
	w.dyn = l.SimpleSpaceCreate(0)
	w.static = l.HashSpaceCreate(0)
	l.SpaceSetCleanup(w.dyn, true)
	l.SpaceSetCleanup(w.static, true)
	w.group = l.JointGroupCreate()
	return w, nil
}

// Close frees the world (bodies, joints, geoms, meshes). Safe to call
// more than once; the World's methods then return ErrClosed.
func (w *World) Close() error {
	lock.Lock()
	defer lock.Unlock()
	if w.closed {
		return nil
	}
	w.closed = true
	l := w.l
	l.JointGroupDestroy(w.group)
	l.SpaceDestroy(w.dyn)
	l.SpaceDestroy(w.static)
	for _, d := range w.meshes {
		l.TriMeshDataDestroy(d)
	}
	l.WorldDestroy(w.world)
	w.pinner.Unpin()
	w.geoms, w.meshes, w.bodies, w.hinges = nil, nil, nil, nil
	return nil
}

// StepSize returns the fixed step [s].
func (w *World) StepSize() float64 { return w.dt }

// Time returns the simulated time: steps done times the step.
func (w *World) Time() time.Duration {
	lock.Lock()
	defer lock.Unlock()
	return time.Duration(w.steps) * w.cfg.Step
}

// Steps returns the number of steps done.
func (w *World) Steps() uint64 {
	lock.Lock()
	defer lock.Unlock()
	return w.steps
}

// Contacts returns the number of contact points of the last step.
func (w *World) Contacts() int {
	lock.Lock()
	defer lock.Unlock()
	return w.nContacts
}

// Step advances the world by n fixed steps (n >= 1). It fails when ODE
// reports a failed step or a body's state is no longer finite (then the
// world is not usable any more: close it).
func (w *World) Step(n int) error {
	lock.Lock()
	defer lock.Unlock()
	if w.closed {
		return ErrClosed
	}
	if n < 1 {
		return fmt.Errorf("physics: step %d times: want >= 1", n)
	}
	l := w.l
	for range n {
		for _, h := range w.hinges {
			h.servo(w.dt)
		}
		l.SetRandSeed(w.seed)
		current = w
		w.nContacts = 0
		l.SpaceCollide(w.dyn, 0, nearCB)
		l.SpaceCollide2(ode.Geom(w.dyn), ode.Geom(w.static), 0, nearCB)
		current = nil
		var ok bool
		if w.cfg.Exact {
			ok = l.WorldStep(w.world, w.dt)
		} else {
			ok = l.WorldQuickStep(w.world, w.dt)
		}
		l.JointGroupEmpty(w.group)
		w.seed = l.RandSeed()
		w.steps++
		if !ok {
			return fmt.Errorf("physics: ODE step %d failed (out of memory?)", w.steps)
		}
	}
	for _, b := range w.bodies {
		if p := l.BodyPosition(b.b); !Vec3(p).finite() || math.Abs(p[0])+math.Abs(p[1])+math.Abs(p[2]) > 1e6 {
			return fmt.Errorf("physics: body %q left the world (%v) at step %d: the simulation blew up", b.name, p, w.steps)
		}
	}
	return nil
}

// near is the collision callback: contact joints for a potentially
// colliding pair of geoms of the World being stepped.
func near(_, a, b uintptr) {
	w := current
	if w == nil {
		return
	}
	ga, gb := ode.Geom(a), ode.Geom(b)
	ia, ib := w.geoms[ga], w.geoms[gb]
	if ia == nil || ib == nil { // a geom of another world: cannot happen; never touch it
		return
	}
	ba, bb := ia.body, ib.body
	if ba == nil && bb == nil {
		return
	}
	if ba != nil && bb != nil {
		if ba == bb || (ba.group != 0 && ba.group == bb.group) {
			return
		}
		if w.l.AreConnectedExcluding(ba.b, bb.b, ode.JointTypeContact) {
			return
		}
	}
	n := w.l.Collide(ga, gb, w.buf)
	if n <= 0 {
		return
	}
	var oa, ob ode.Body
	if ba != nil {
		oa = ba.b
	}
	if bb != nil {
		ob = bb.b
	}
	mu := math.Min(ia.mat.Friction, ib.mat.Friction)
	bounce := math.Max(ia.mat.Bounce, ib.mat.Bounce)
	for i := range n {
		c := &w.contact
		*c = ode.Contact{Geom: w.buf[i]}
		c.Surface.Mu = mu
		c.Surface.Mode = ode.ContactApprox1
		if bounce > 0 {
			c.Surface.Mode |= ode.ContactBounce
			c.Surface.Bounce = bounce
			c.Surface.BounceVel = 0.1
		}
		switch {
		case ia.belt != nil:
			w.belt(c, ia, ib, 1)
		case ib.belt != nil:
			w.belt(c, ib, ia, -1)
		}
		j := w.l.JointCreateContact(w.world, w.group, c)
		w.l.JointAttach(j, oa, ob)
		w.nContacts++
	}
}

// belt makes contact c move the belt's surface: friction direction 1 is
// the belt's running direction at the contact (its lateral axis crossed
// with the normal out of the other surface), Motion1 the belt speed. s is
// +1 when the belt's geom is the contact's first geom (ODE's normal then
// points into it; the constraint is v1 - v2 = Motion1 along FDir1), -1
// when it is the second. (Flipping s flips both FDir1 and Motion1, which
// is the same constraint: the order does not matter, as
// TestBeltDrivesBody checks with both orders; s keeps FDir1 pointing the
// belt's way for whoever reads the contact.)
func (w *World) belt(c *ode.Contact, bi, other *geomInfo, s float64) {
	n := Vec3{c.Geom.Normal[0], c.Geom.Normal[1], c.Geom.Normal[2]}.Scale(s) // out of the other surface, into the belt
	axis := bi.body.rot().Rotate(bi.axis)
	t := axis.Cross(n)
	tn := t.Norm()
	if tn < 1e-6 { // normal along the belt's axle: touching its side
		return
	}
	t = t.Scale(1 / tn)
	c.FDir1 = [4]float64{t[0], t[1], t[2], 0}
	side := bi.mat.SideFriction
	if side == 0 {
		side = bi.mat.Friction
	}
	c.Surface.Mu = math.Min(bi.mat.Friction, other.mat.Friction)
	c.Surface.Mu2 = math.Min(side, other.mat.Friction)
	c.Surface.Mode |= ode.ContactFDir1 | ode.ContactMotion1 | ode.ContactMu2
	// A driven belt slips; a stopped one is braked (holds as friction
	// allows): the slip fades in over the first SlipFade of belt speed.
	if v := math.Abs(bi.belt.speed); bi.mat.Slip > 0 && v > 0 {
		c.Surface.Mode |= ode.ContactSlip1
		c.Surface.Slip1 = bi.mat.Slip * math.Min(1, v/SlipFade)
	}
	if bi.mat.SideSlip > 0 {
		c.Surface.Mode |= ode.ContactSlip2
		c.Surface.Slip2 = bi.mat.SideSlip
	}
	// The belt's material at the contact moves backwards relative to the
	// body at its speed, so the body's point there moves at +speed along
	// t relative to the other surface when nothing slips.
	c.Surface.Motion1 = s * bi.belt.speed
}

// Belt is a moving surface shared by shapes (a track and its flipper's
// belt): contacts with those shapes drive the body along the belt's
// running direction at Speed, as long as friction allows (contact
// surface motion, the tracked-vehicle method of Gazebo classic).
type Belt struct {
	w     *World
	speed float64
}

// NewBelt returns a belt standing still.
func (w *World) NewBelt() *Belt { return &Belt{w: w} }

// SetSpeed sets the belt's speed [m/s]: positive drives its body along its
// shapes' forward direction (axis x normal, see BodyShape.BeltAxis).
func (b *Belt) SetSpeed(v float64) error {
	if math.IsNaN(v) || math.IsInf(v, 0) || math.Abs(v) > 100 {
		return fmt.Errorf("physics: belt speed %g m/s: want finite, |v| <= 100", v)
	}
	lock.Lock()
	b.speed = v
	lock.Unlock()
	return nil
}

// Speed returns the commanded belt speed [m/s].
func (b *Belt) Speed() float64 {
	lock.Lock()
	defer lock.Unlock()
	return b.speed
}
