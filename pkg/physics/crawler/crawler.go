package crawler

import (
	"fmt"
	"math"

	lurdf "github.com/telebridge/telebridge/launch/urdf"
	"github.com/telebridge/telebridge/pkg/physics"
	"github.com/telebridge/telebridge/pkg/servosila/wire"
	"github.com/telebridge/telebridge/pkg/urdf"
)

// SprocketRadius is the radius of the track pulleys [m] (the URDF's
// comment, assumed there; its track boxes are twice as high): base_link
// is this high above flat ground.
const SprocketRadius = 0.08

// Stowed is the default arm pose [rad] (waist, shoulder, elbow, neck):
// upper arm raised, forearm folded down, head level and above the body,
// so that the arm clears the ground and ramps while driving (an
// assumption; the URDF's zero is the arm stretched forward).
var Stowed = [4]float64{0, 1.3, -2.4, 1.1}

// DefaultTrack is the belts' default material: rubber on rough ground
// (friction 1 both ways, the smaller ground coefficient wins) with the
// force-dependent slip that makes the robot turn at the kinematic model's
// rate (effective track separation 0.704 m against the URDF's 0.44 m
// between track centres): calibrated, see docs/physics.md.
var DefaultTrack = physics.Material{Friction: 1, SideFriction: 1, Slip: 0.02, SideSlip: 0.0133}

// Config configures a Robot. Zero fields take the stated defaults.
type Config struct {
	// URDF is the robot description. Default the repository's
	// servosila_engineer.urdf (launch/urdf).
	URDF string
	// Pose is base_link's pose in the world at start. Default: at the
	// origin, base_link SprocketRadius (+1 mm) above z = 0 (tracks on the
	// ground plane).
	Pose physics.Pose
	// Arm is the arm's starting pose [rad] (waist, shoulder, elbow,
	// neck). Default Stowed; set ArmZero to start at the URDF's zero.
	Arm     [4]float64
	ArmZero bool
	// Flippers is the flippers' starting angle [rad] (0: forward).
	Flippers float64
	// Track is the belts' material: Friction along the belt, SideFriction
	// across it (a contact takes the smaller of the track's and the
	// ground's coefficients). Default 1.0 along, 0.5 across: see
	// docs/physics.md for how the lateral value was chosen.
	Track physics.Material
	// Body is the material of the chassis and arm. Default friction 0.5.
	Body physics.Material
	// TrackSeparation is the B of SetTwist [m]: tracks at v -+ w*B/2.
	// Default 0.704, the kinematic simulator's (pkg/servosila/sim).
	TrackSeparation float64
	// RoadWheels is the number of wheels (cylinders of the belt's
	// height) between the two pulleys of each belted link: where the
	// belt presses on flat ground. Default 3; negative: none.
	RoadWheels int
	// Group is the collision group of the robot's bodies (they do not
	// collide with each other). Default 1.
	Group int
}

func (c Config) withDefaults() (Config, error) {
	if c.URDF == "" {
		c.URDF = lurdf.ServosilaEngineer
	}
	if c.Pose == (physics.Pose{}) {
		c.Pose = physics.Pose{Pos: physics.Vec3{0, 0, SprocketRadius + 0.001}, Rot: physics.Identity}
	}
	if c.Arm == ([4]float64{}) && !c.ArmZero {
		c.Arm = Stowed
	}
	if c.Track == (physics.Material{}) {
		c.Track = DefaultTrack
	}
	if c.Body == (physics.Material{}) {
		c.Body = physics.Material{Friction: 0.5}
	}
	if c.TrackSeparation == 0 {
		c.TrackSeparation = 0.704
	}
	if c.RoadWheels == 0 {
		c.RoadWheels = 3
	}
	if c.RoadWheels < 0 {
		c.RoadWheels = 0
	}
	if c.RoadWheels > 20 {
		return c, fmt.Errorf("crawler: %d road wheels: want at most 20", c.RoadWheels)
	}
	if c.Group == 0 {
		c.Group = 1
	}
	if !(c.TrackSeparation > 0 && c.TrackSeparation < 10) {
		return c, fmt.Errorf("crawler: track separation %g m: want 0..10", c.TrackSeparation)
	}
	for i, a := range append(c.Arm[:], c.Flippers) {
		if !(math.Abs(a) <= math.Pi) {
			return c, fmt.Errorf("crawler: starting angle %d = %g rad: want -pi..pi", i, a)
		}
	}
	return c, nil
}

// movingJoints are the URDF joints simulated as motored hinges, by the
// driver's joint index (wire.Joint). The gripper is not simulated yet: its
// jaw is fixed closed.
var movingJoints = []struct {
	name string
	idx  wire.Joint
}{{"waist", wire.Waist}, {"shoulder", wire.Shoulder}, {"elbow", wire.Elbow}, {"neck", wire.Neck}, {"flippers", wire.Flippers}}

// Robot is a Servosila Engineer in a physics World: a chassis body with
// two tracks (belts), the flippers on one motored hinge, and the arm's
// four motored hinges.
type Robot struct {
	cfg         Config
	w           *physics.World
	Chassis     *physics.Body                  // base_link's body (chassis, tracks, laser)
	Left, Right *physics.Belt                  // the tracks
	Joints      [wire.NumJoints]*physics.Hinge // by wire.Joint; nil for the gripper (not simulated)
	Links       map[string]*physics.Body       // every body by the URDF link that starts it
	linkPose    map[string]physics.Pose        // each URDF link in its body's link frame
	linkBody    map[string]string              // each URDF link's body root
}

// New builds the robot in w from its URDF: masses and inertias of the
// links merged per body, the moving joints' limits, efforts (torque
// limits) and velocities. Shapes: the URDF's collision boxes (visual boxes
// for links without a collision element), except the tracks, which are
// belts of the URDF's track box with rounded ends (sprockets), and the
// flippers, belts on the same tracks. On an error the world may hold part
// of the robot: close it.
func New(w *physics.World, cfg Config) (*Robot, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	t, err := parseTree(cfg.URDF)
	if err != nil {
		return nil, fmt.Errorf("crawler: %w", err)
	}
	for _, mj := range movingJoints {
		j := t.jointNamed(mj.name)
		if j == nil || (j.Type != "revolute" && j.Type != "continuous") {
			return nil, fmt.Errorf("crawler: the URDF has no revolute joint %q", mj.name)
		}
	}
	q := map[string]float64{"waist": cfg.Arm[0], "shoulder": cfg.Arm[1], "elbow": cfg.Arm[2], "neck": cfg.Arm[3], "flippers": cfg.Flippers}
	pose, err := t.poses(q)
	if err != nil {
		return nil, fmt.Errorf("crawler: %w", err)
	}
	moving := map[string]bool{}
	for _, mj := range movingJoints {
		moving[mj.name] = true
	}
	r := &Robot{cfg: cfg, w: w, Left: w.NewBelt(), Right: w.NewBelt(),
		Links: map[string]*physics.Body{}, linkPose: map[string]physics.Pose{}, linkBody: map[string]string{}}

	// Bodies in URDF order of their root links (deterministic).
	var roots []string
	members := map[string][]string{}
	for _, name := range t.order() {
		root := t.bodyRoot(name, moving)
		if len(members[root]) == 0 {
			roots = append(roots, root)
		}
		members[root] = append(members[root], name)
		r.linkBody[name] = root
		r.linkPose[name] = pose[root].Inverse().Compose(pose[name])
	}
	for _, root := range roots {
		spec := physics.BodySpec{Name: root, Pose: cfg.Pose.Compose(pose[root]), Group: cfg.Group}
		var parts []physics.Inertial
		for _, name := range members[root] {
			l := t.links[name]
			rel := r.linkPose[name]
			in, ok, err := inertial(l)
			if err != nil {
				return nil, fmt.Errorf("crawler: %w", err)
			}
			if ok {
				parts = append(parts, moved(in, rel))
			}
			shapes, err := r.shapes(l, rel, pose[name].Pos[1])
			if err != nil {
				return nil, fmt.Errorf("crawler: %w", err)
			}
			spec.Shapes = append(spec.Shapes, shapes...)
		}
		if len(parts) == 0 {
			return nil, fmt.Errorf("crawler: body %q has no mass in the URDF", root)
		}
		spec.Inertial = physics.Combine(parts...)
		b, err := w.AddBody(spec)
		if err != nil {
			return nil, fmt.Errorf("crawler: %w", err)
		}
		r.Links[root] = b
	}
	r.Chassis = r.Links[t.root]
	for _, mj := range movingJoints {
		name, idx := mj.name, mj.idx
		j := t.jointNamed(name)
		o, err := origin(j.Origin)
		if err != nil {
			return nil, fmt.Errorf("crawler: joint %q: %w", name, err)
		}
		ax, err := jointAxis(j)
		if err != nil {
			return nil, fmt.Errorf("crawler: %w", err)
		}
		frame := cfg.Pose.Compose(pose[j.Parent.Link]).Compose(o)
		spec := physics.HingeSpec{Name: name, Parent: r.Links[r.linkBody[j.Parent.Link]], Child: r.Links[r.linkBody[j.Child.Link]],
			Anchor: frame.Pos, Axis: frame.Rot.Rotate(ax), Angle: q[name]}
		if lim := j.Limit; lim != nil {
			if spec.Lower, err = urdf.NumberOr(lim.Lower, 0); err == nil {
				if spec.Upper, err = urdf.NumberOr(lim.Upper, 0); err == nil {
					if spec.MaxTorque, err = urdf.NumberOr(lim.Effort, 0); err == nil {
						spec.MaxVelocity, err = urdf.NumberOr(lim.Velocity, 0)
					}
				}
			}
			if err != nil {
				return nil, fmt.Errorf("crawler: joint %q limit: %w", name, err)
			}
		}
		if spec.MaxTorque == 0 {
			return nil, fmt.Errorf("crawler: joint %q has no effort limit in the URDF (its motor's torque)", name)
		}
		h, err := w.AddHinge(spec)
		if err != nil {
			return nil, fmt.Errorf("crawler: %w", err)
		}
		r.Joints[idx] = h
	}
	return r, nil
}

// Belted links: the tracks and the flippers (assumed driven with the
// track on their side, as on the real robot's tracked flippers). A link
// whose origin is left of base_link's x axis (y > 0) runs on the left belt.
var beltLinks = map[string]bool{
	"left_track_link": true, "right_track_link": true, "left_flipper_link": true, "right_flipper_link": true,
}

// shapes returns link l's collision shapes in its body's frame (rel: the
// link's pose there). A belted link's box becomes a stadium: a box between
// two cylinders (pulleys) of the box's height, axles along y, so that it
// rolls onto edges like a track.
func (r *Robot) shapes(l *urdf.Link, rel physics.Pose, y float64) ([]physics.BodyShape, error) {
	boxes, err := boxShapes(l, rel)
	if err != nil {
		return nil, err
	}
	mat := r.cfg.Body
	if !beltLinks[l.Name] {
		for i := range boxes {
			boxes[i].Material = mat
		}
		return boxes, nil
	}
	belt := r.Right
	if y > 0 {
		belt = r.Left
	}
	var out []physics.BodyShape
	for _, b := range boxes {
		sz := b.Shape.Size
		rad := sz[2] / 2
		if sz[0] <= 2*rad {
			return nil, fmt.Errorf("link %q: belt box %v shorter than its height", l.Name, sz)
		}
		axle := (sz[0] - 2*rad) / 2
		axis := b.Pose.Rot.Rotate(physics.Vec3{0, 1, 0})
		side := physics.RPY(math.Pi/2, 0, 0) // cylinder z along the box's y
		parts := []physics.BodyShape{{Shape: physics.Box(2*axle, sz[1], sz[2]), Pose: b.Pose}}
		// Pulleys at both ends and RoadWheels between them: the contact
		// points along the belt, so that its ground pressure spreads over
		// its length as a real track's does (a box alone touches a plane
		// at its four corners only, and a track that touches only at its
		// ends turns in place without lateral resistance along it).
		n := r.cfg.RoadWheels + 2
		for i := range n {
			x := -axle + 2*axle*float64(i)/float64(n-1)
			parts = append(parts, physics.BodyShape{Shape: physics.Cylinder(rad, sz[1]), Pose: b.Pose.Compose(physics.Pose{Pos: physics.Vec3{x, 0, 0}, Rot: side})})
		}
		for _, s := range parts {
			s.Material = r.cfg.Track
			s.Belt = belt
			s.BeltAxis = axis
			out = append(out, s)
		}
	}
	return out, nil
}
