package sdf

import (
	"github.com/telebridge/telebridge/pkg/geom"
	"github.com/telebridge/telebridge/pkg/mesh"
	"gonum.org/v1/gonum/spatial/r3"
)

// World is a resolved SDF world: every pose composed into the world frame
// (Z up, [m], [rad]), every include read, every name scoped. It is a plain
// value: the loader owns nothing after returning it.
type World struct {
	// Name is the <world name>.
	Name string
	// Gravity is the acceleration of gravity in the world frame [m/s^2];
	// SDF's default (0, 0, -9.8) when the file does not say.
	Gravity r3.Vec
	// Ambient and Background are the <scene> colours; Gazebo's defaults
	// (0.4 0.4 0.4 1, 0.7 0.7 0.7 1) when absent.
	Ambient, Background Color
	// Models lists every model, top-level and nested, parents before their
	// children.
	Models []Model
	// Bodies lists every link of every model.
	Bodies []Body
	// Joints lists every joint of every model.
	Joints []Joint
	// Lights lists the world's lights and the lights of links.
	Lights []Light
	// Warnings are the elements skipped and the defaults assumed, in file
	// order.
	Warnings []Warning
}

// Model is one <model> (or <include>d model).
type Model struct {
	// Name is scoped: "shelf", or "course_props::box_2kg" for a nested
	// model.
	Name string
	// Parent indexes Models; -1 for a model of the world.
	Parent int
	// Pose is the model frame in the world frame.
	Pose geom.Transform
	// Static is true when the model or one of its parents is <static>:
	// its bodies never move.
	Static bool
}

// Body is one <link>: a rigid body.
type Body struct {
	// Name is scoped: "model::link" ("outer::inner::link" when nested).
	Name string
	// Model indexes World.Models.
	Model int
	// Static is true when the body never moves (a static model's link).
	Static bool
	// Pose is the link frame in the world frame at load time.
	Pose geom.Transform
	// Mass [kg]. SDF's default 1 kg when a dynamic link has no <inertial>
	// (a warning says so).
	Mass float64
	// Inertial is the inertial frame in the link frame: its origin is the
	// centre of mass, its axes those of Inertia.
	Inertial geom.Transform
	// Inertia is the inertia tensor about the centre of mass in the
	// inertial frame [kg m^2].
	Inertia Inertia
	// Gravity is false when the link says <gravity>false</gravity>.
	Gravity bool
	// Collisions are the shapes the physics and the ray caster see.
	Collisions []Shape
	// Visuals are the shapes the renderer draws.
	Visuals []Shape
}

// Inertia is a symmetric inertia tensor [kg m^2].
type Inertia struct {
	Ixx, Ixy, Ixz, Iyy, Iyz, Izz float64 // [kg m^2]
}

// Shape is one <collision> or <visual>.
type Shape struct {
	// Name is the element's name attribute.
	Name string
	// Pose is the shape frame in its body's link frame.
	Pose geom.Transform
	// Geometry is the shape in the shape frame.
	Geometry Geometry
	// Material is a visual's colour; collisions carry the default grey.
	Material Material
	// Surface is a collision's contact parameters; visuals carry the
	// default.
	Surface Surface
}

// GeometryKind names a geometry.
type GeometryKind int

// The geometries read.
const (
	Box      GeometryKind = iota + 1 // Geometry.Size, centred on the shape frame
	Cylinder                         // Geometry.Radius, Geometry.Length along the shape's Z, centred
	Sphere                           // Geometry.Radius, centred
	Plane                            // infinite half-space below Geometry.Normal through the shape origin
	MeshGeom                         // Geometry.Mesh, already scaled
)

// String returns the SDF element name of the kind.
func (k GeometryKind) String() string {
	switch k {
	case Box:
		return "box"
	case Cylinder:
		return "cylinder"
	case Sphere:
		return "sphere"
	case Plane:
		return "plane"
	case MeshGeom:
		return "mesh"
	}
	return "unknown"
}

// Geometry is the shape itself, in the shape frame.
type Geometry struct {
	// Kind says which fields mean something.
	Kind GeometryKind
	// Size is a Box's full edge lengths [m].
	Size r3.Vec
	// Radius of a Cylinder or Sphere [m].
	Radius float64
	// Length of a Cylinder along its Z axis [m].
	Length float64
	// Normal is a Plane's unit normal; the solid side is opposite it.
	Normal r3.Vec
	// PlaneSize is a Plane's drawn extent along its own X and Y [m]
	// (collision with a plane is unbounded).
	PlaneSize [2]float64
	// Mesh is a MeshGeom's triangles in the shape frame [m], Scale applied.
	// Shapes that name the same file and scale share one *mesh.Mesh: treat
	// it as read-only.
	Mesh *mesh.Mesh
	// URI is a MeshGeom's <uri> as written.
	URI string
	// Scale is a MeshGeom's <scale> (1 1 1 by default).
	Scale r3.Vec
}

// Color is an RGBA colour, each channel in [0, 1].
type Color struct {
	R, G, B, A float64 // [0, 1]
}

// Material is the <material> of a visual.
type Material struct {
	Ambient  Color // lit by the scene's ambient light
	Diffuse  Color // lit by the lights, by the angle of incidence
	Specular Color // highlights
	Emissive Color // emitted, independent of light
}

// DefaultMaterial is what a visual without a <material> gets: the light
// grey Gazebo draws.
var DefaultMaterial = Material{
	Ambient:  Color{0.7, 0.7, 0.7, 1},
	Diffuse:  Color{0.7, 0.7, 0.7, 1},
	Specular: Color{0.01, 0.01, 0.01, 1},
	Emissive: Color{0, 0, 0, 1},
}

// Surface is the contact part of a collision's <surface>.
type Surface struct {
	// Mu and Mu2 are the Coulomb friction coefficients along the first
	// and second friction directions (<friction><ode><mu>, <mu2>); SDF's
	// default 1 each.
	Mu, Mu2 float64
	// Restitution is <bounce><restitution_coefficient>, default 0.
	Restitution float64
}

// DefaultSurface is SDF's default contact surface.
var DefaultSurface = Surface{Mu: 1, Mu2: 1}

// JointKind names a joint type as SDF spells it ("revolute", "prismatic",
// "fixed", "continuous", "ball", "universal", "revolute2", "screw").
type JointKind string

// Joint is one <joint>.
type Joint struct {
	// Name is scoped like Body.Name.
	Name string
	// Kind is the type attribute.
	Kind JointKind
	// Parent and Child index World.Bodies; Parent is -1 for the world.
	Parent, Child int
	// Pose is the joint frame in the world frame at load time.
	Pose geom.Transform
	// Axis is the first axis as a unit vector in the world frame (zero for
	// fixed and ball joints).
	Axis r3.Vec
	// Lower and Upper are the limits [rad] or [m]; -Inf/+Inf when none.
	Lower, Upper float64
	// Effort is the limit of torque [N m] or force [N]; +Inf when none.
	Effort float64
	// Velocity is the speed limit [rad/s] or [m/s]; +Inf when none.
	Velocity float64
	// Damping [N m s/rad] or [N s/m] and Friction [N m] or [N].
	Damping, Friction float64
}

// LightKind names a light type.
type LightKind string

// The light types of SDF.
const (
	Directional LightKind = "directional"
	Point       LightKind = "point"
	Spot        LightKind = "spot"
)

// Light is one <light>.
type Light struct {
	// Name is scoped by its model and link for lights of links.
	Name string
	// Kind is directional, point or spot.
	Kind LightKind
	// Body indexes World.Bodies for a light of a link (it moves with it);
	// -1 for a light of the world.
	Body int
	// Pose is the light frame in the world frame at load time.
	Pose geom.Transform
	// Direction is where a directional or spot light shines, a unit vector
	// in the world frame.
	Direction r3.Vec
	// Diffuse and Specular colours.
	Diffuse, Specular Color
	// Intensity scales the colours (SDF 1.7+; default 1).
	Intensity float64
	// Range [m] and the Constant, Linear [1/m] and Quadratic [1/m^2]
	// attenuation factors.
	Range, Constant, Linear, Quadratic float64
	// InnerAngle and OuterAngle [rad] and Falloff of a spot light.
	InnerAngle, OuterAngle, Falloff float64
	// CastShadows as the file says (default false in SDF).
	CastShadows bool
}

// Body looks up a body by scoped name; ok is false if there is none.
func (w *World) Body(name string) (b *Body, ok bool) {
	for i := range w.Bodies {
		if w.Bodies[i].Name == name {
			return &w.Bodies[i], true
		}
	}
	return nil, false
}

// Model looks up a model by scoped name; ok is false if there is none.
func (w *World) Model(name string) (m *Model, ok bool) {
	for i := range w.Models {
		if w.Models[i].Name == name {
			return &w.Models[i], true
		}
	}
	return nil, false
}
