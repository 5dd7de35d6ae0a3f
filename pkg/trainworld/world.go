package trainworld

import (
	"errors"
	"fmt"
	"math"
	"sync"

	"github.com/telebridge/telebridge/pkg/geom"
	"github.com/telebridge/telebridge/pkg/physics"
	"github.com/telebridge/telebridge/pkg/physics/crawler"
	"github.com/telebridge/telebridge/pkg/raycast"
	"github.com/telebridge/telebridge/pkg/sdf"
	"github.com/telebridge/telebridge/worlds"
	"gonum.org/v1/gonum/spatial/r3"
)

// StartMarker is the model whose pose places the robot when Config.Start
// is not set (the course's green disc).
const StartMarker = "marker_start"

// Config configures a World. Zero fields take the stated defaults.
type Config struct {
	// World is a shipped world's name ("course", "yard") or the path of an
	// SDF file. Ignored when SDF is set.
	World string
	// SDF is an already loaded world description.
	SDF *sdf.World
	// Start is base_link's pose at start (world frame). Default: at the
	// StartMarker model's x, y and yaw (the origin facing +x without
	// one), tracks resting on whatever is below it.
	Start *geom.Transform
	// Crawler configures the robot; its Pose is replaced by the start.
	Crawler crawler.Config
	// Physics configures the engine; its Gravity is the world's.
	Physics physics.Config
}

// World is a loaded training world. Step (lock-step) and Run (real time)
// advance it; every other method may be called from any goroutine.
type World struct {
	sdf   *sdf.World
	phys  *physics.World
	robot *crawler.Robot
	ray   *raycast.Scene
	start geom.Transform

	mu      sync.Mutex // physics calls, the mirrored poses
	dynamic []dynBody  // SDF bodies simulated as physics bodies
	view    *view      // the rendered scene, nil until AttachRenderer
	stats   loopStats
	closed  bool
}

// dynBody is a dynamic SDF body and its physics body.
type dynBody struct {
	index int // sdf.World.Bodies
	body  *physics.Body
	pose  geom.Transform // last mirrored pose (link frame, world)
}

// New loads the world into the physics engine and places the robot. An
// error wraps ode.ErrMissing when the engine's library is not installed.
func New(cfg Config) (*World, error) {
	sw := cfg.SDF
	if sw == nil {
		name := cfg.World
		if name == "" {
			return nil, errors.New("trainworld: no world named")
		}
		var err error
		if sw, err = worlds.Load(name); err != nil {
			return nil, fmt.Errorf("trainworld: %w", err)
		}
	}
	pc := cfg.Physics
	pc.Gravity = physics.Vec3{sw.Gravity.X, sw.Gravity.Y, sw.Gravity.Z}
	pc.NoGravity = sw.Gravity == (r3.Vec{})
	phys, err := physics.New(pc)
	if err != nil {
		return nil, fmt.Errorf("trainworld: %w", err)
	}
	w := &World{sdf: sw, phys: phys, ray: raycast.New(sw)}
	fail := func(err error) (*World, error) {
		_ = phys.Close()
		return nil, fmt.Errorf("trainworld: world %q: %w", sw.Name, err)
	}
	for i := range sw.Bodies {
		if err := w.addBody(i); err != nil {
			return fail(err)
		}
	}
	w.start = w.startPose(cfg.Start)
	cc := cfg.Crawler
	cc.Pose = toPhysics(w.start)
	if w.robot, err = crawler.New(phys, cc); err != nil {
		return fail(err)
	}
	return w, nil
}

// addBody adds SDF body i: a static body's collisions as static geometry,
// a dynamic one as a physics body with its mass and inertia.
func (w *World) addBody(i int) error {
	b := &w.sdf.Bodies[i]
	if b.Static {
		for k := range b.Collisions {
			c := &b.Collisions[k]
			s, pose, err := shapeOf(c)
			if err != nil {
				return fmt.Errorf("body %q collision %q: %w", b.Name, c.Name, err)
			}
			if _, err := w.phys.AddStatic(s, toPhysics(b.Pose.Mul(pose)), material(c.Surface)); err != nil {
				return fmt.Errorf("body %q collision %q: %w", b.Name, c.Name, err)
			}
		}
		return nil
	}
	spec := physics.BodySpec{Name: b.Name, Pose: toPhysics(b.Pose), Inertial: inertial(b)}
	for k := range b.Collisions {
		c := &b.Collisions[k]
		s, pose, err := shapeOf(c)
		if err != nil {
			return fmt.Errorf("body %q collision %q: %w", b.Name, c.Name, err)
		}
		if s.Kind == physics.ShapePlane {
			return fmt.Errorf("body %q collision %q: a plane on a dynamic body", b.Name, c.Name)
		}
		spec.Shapes = append(spec.Shapes, physics.BodyShape{Shape: s, Pose: toPhysics(pose), Material: material(c.Surface)})
	}
	body, err := w.phys.AddBody(spec)
	if err != nil {
		return err
	}
	w.dynamic = append(w.dynamic, dynBody{index: i, body: body, pose: b.Pose})
	return nil
}

// inertial converts an SDF body's inertial into the link frame.
func inertial(b *sdf.Body) physics.Inertial {
	in := b.Inertia
	t := b.Inertial
	pi := physics.Inertial{Mass: b.Mass, CoM: physics.Vec3{t.Translation.X, t.Translation.Y, t.Translation.Z},
		I: [6]float64{in.Ixx, in.Iyy, in.Izz, in.Ixy, in.Ixz, in.Iyz}}
	q := t.Rotation
	if q != geom.IdentityQuat() && q != (geom.Quat{}) {
		pi = pi.Rotated(physics.Quat{q.W, q.X, q.Y, q.Z})
	}
	return pi
}

// material turns an SDF surface into a physics material: mu along the
// first friction direction, mu2 across it.
func material(s sdf.Surface) physics.Material {
	return physics.Material{Friction: s.Mu, SideFriction: s.Mu2, Bounce: s.Restitution}
}

// shapeOf converts a collision into a physics shape and its pose in the
// link frame (a plane turned so that its +z is the SDF normal).
func shapeOf(c *sdf.Shape) (physics.Shape, geom.Transform, error) {
	g := &c.Geometry
	switch g.Kind {
	case sdf.Box:
		return physics.Box(g.Size.X, g.Size.Y, g.Size.Z), c.Pose, nil
	case sdf.Cylinder:
		return physics.Cylinder(g.Radius, g.Length), c.Pose, nil
	case sdf.Sphere:
		return physics.Sphere(g.Radius), c.Pose, nil
	case sdf.Plane:
		return physics.Plane(), c.Pose.Mul(geom.Rotation(zTo(g.Normal))), nil
	case sdf.MeshGeom:
		if g.Mesh == nil {
			return physics.Shape{}, c.Pose, errors.New("mesh not loaded")
		}
		s := physics.Shape{Kind: physics.ShapeMesh, Vertices: make([]physics.Vec3, len(g.Mesh.Vertices)),
			Triangles: make([][3]uint32, len(g.Mesh.Triangles))}
		for i, v := range g.Mesh.Vertices {
			s.Vertices[i] = physics.Vec3{v.X, v.Y, v.Z}
		}
		for i, t := range g.Mesh.Triangles {
			s.Triangles[i] = [3]uint32{uint32(t[0]), uint32(t[1]), uint32(t[2])}
		}
		return s, c.Pose, nil
	}
	return physics.Shape{}, c.Pose, fmt.Errorf("geometry %v not simulated", g.Kind)
}

// startPose is the robot's pose at start: the configured one, else the
// start marker's x, y and yaw with the tracks on the surface below.
func (w *World) startPose(cfg *geom.Transform) geom.Transform {
	if cfg != nil {
		return *cfg
	}
	x, y, yaw := 0.0, 0.0, 0.0
	if m, ok := w.sdf.Model(StartMarker); ok {
		x, y = m.Pose.Translation.X, m.Pose.Translation.Y
		yaw, _, _ = m.Pose.Rotation.EulerZYX()
	}
	ground := 0.0
	if h, ok := w.ray.Cast(r3.Vec{X: x, Y: y, Z: 50}, r3.Vec{Z: -1}, 100); ok {
		ground = h.Point.Z
	}
	t := geom.FromXYZEuler(x, y, ground+crawler.SprocketRadius+0.002, yaw, 0, 0)
	return t
}

// Start returns base_link's pose at start (world frame).
func (w *World) Start() geom.Transform { return w.start }

// SDF returns the world's description (read-only).
func (w *World) SDF() *sdf.World { return w.sdf }

// Ray returns the ray-casting scene, its dynamic bodies at their poses
// of the last step (for the laser: pkg/laser.Scan). Cast on it from one
// goroutine at a time while the world runs, under Lock.
func (w *World) Ray() *raycast.Scene { return w.ray }

// Lock holds the world still (no step runs) until Unlock, e.g. around a
// laser scan of Ray.
func (w *World) Lock() { w.mu.Lock() }

// Unlock releases Lock.
func (w *World) Unlock() { w.mu.Unlock() }

// Robot returns base_link's ground truth (world frame).
func (w *World) Robot() (crawler.State, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return crawler.State{}, physics.ErrClosed
	}
	return w.robot.State()
}

// Time returns the simulated time [s] since the world was made.
func (w *World) Time() float64 {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.phys.Time().Seconds()
}

// BodyPose returns the pose of the dynamic SDF body called name (link
// frame, world) after the last step.
func (w *World) BodyPose(name string) (geom.Transform, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, d := range w.dynamic {
		if w.sdf.Bodies[d.index].Name == name {
			return d.pose, nil
		}
	}
	return geom.Transform{}, fmt.Errorf("trainworld: no dynamic body %q", name)
}

// Close frees the physics world (and detaches the renderer, which the
// caller closes). Idempotent.
func (w *World) Close() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return nil
	}
	w.closed = true
	return w.phys.Close()
}

// yawOf is the heading of a rotation [rad].
func yawOf(q geom.Quat) float64 {
	return math.Atan2(2*(q.W*q.Z+q.X*q.Y), 1-2*(q.Y*q.Y+q.Z*q.Z))
}
