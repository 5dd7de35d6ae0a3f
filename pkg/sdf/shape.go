package sdf

import (
	"math"
	"strings"

	"gonum.org/v1/gonum/spatial/r3"
)

// shape reads a <collision> or <visual>. ok is false for a shape left out
// (an <empty> geometry, or a visual whose geometry is not supported: a
// warning says so).
func (l *loader) shape(n *node, src *source) (Shape, bool, error) {
	visual := n.name == "visual"
	s := Shape{Name: n.attrs["name"], Material: DefaultMaterial, Surface: DefaultSurface}
	g := n.child("geometry")
	if g == nil {
		return s, false, n.errorf("no <geometry>")
	}
	var err error
	var ok bool
	if s.Geometry, ok, err = l.geometry(g, src, visual); err != nil || !ok {
		return s, false, err
	}
	if visual {
		if m := n.child("material"); m != nil {
			if s.Material, err = l.material(m); err != nil {
				return s, false, err
			}
		}
		if t, err := n.float("transparency", 0); err != nil {
			return s, false, err
		} else if t < 0 || t > 1 {
			return s, false, n.child("transparency").errorf("transparency %g outside [0, 1]", t)
		} else if t > 0 {
			for _, c := range []*Color{&s.Material.Ambient, &s.Material.Diffuse, &s.Material.Specular, &s.Material.Emissive} {
				c.A *= 1 - t
			}
		}
		quiet(n, "cast_shadows", "laser_retro", "meta", "visibility_flags")
		l.warnEach(n, "plugins are not run", "plugin")
	} else {
		if sf := n.child("surface"); sf != nil {
			if s.Surface, err = l.surface(sf); err != nil {
				return s, false, err
			}
		}
		quiet(n, "laser_retro", "max_contacts")
	}
	return s, true, nil
}

func (l *loader) geometry(g *node, src *source, visual bool) (Geometry, bool, error) {
	if len(g.kids) != 1 {
		return Geometry{}, false, g.errorf("<geometry> needs exactly one shape element, has %d", len(g.kids))
	}
	k := g.kids[0]
	k.used = true
	pos := func(name string, v float64) error {
		if !(v > 0) {
			return k.errorf("%s %g must be > 0", name, v)
		}
		return nil
	}
	switch k.name {
	case "box":
		sz, err := vec3(k, "size", r3.Vec{X: 1, Y: 1, Z: 1})
		if err != nil {
			return Geometry{}, false, err
		}
		if !(sz.X > 0 && sz.Y > 0 && sz.Z > 0) {
			return Geometry{}, false, k.errorf("size %v: every edge must be > 0 m", sz)
		}
		return Geometry{Kind: Box, Size: sz}, true, nil
	case "cylinder":
		r, err := k.float("radius", 1)
		if err != nil {
			return Geometry{}, false, err
		}
		h, err := k.float("length", 1)
		if err != nil {
			return Geometry{}, false, err
		}
		if err := pos("radius", r); err != nil {
			return Geometry{}, false, err
		}
		if err := pos("length", h); err != nil {
			return Geometry{}, false, err
		}
		return Geometry{Kind: Cylinder, Radius: r, Length: h}, true, nil
	case "sphere":
		r, err := k.float("radius", 1)
		if err != nil {
			return Geometry{}, false, err
		}
		if err := pos("radius", r); err != nil {
			return Geometry{}, false, err
		}
		return Geometry{Kind: Sphere, Radius: r}, true, nil
	case "plane":
		nv, err := vec3(k, "normal", r3.Vec{Z: 1})
		if err != nil {
			return Geometry{}, false, err
		}
		ln := r3.Norm(nv)
		if !(ln > 1e-9) {
			return Geometry{}, false, k.errorf("plane normal of zero length")
		}
		sz := [2]float64{100, 100}
		if c := k.child("size"); c != nil {
			v, err := c.floats(2)
			if err != nil {
				return Geometry{}, false, err
			}
			if !(v[0] > 0 && v[1] > 0) {
				return Geometry{}, false, c.errorf("plane size must be > 0 m")
			}
			sz = [2]float64{v[0], v[1]}
		}
		return Geometry{Kind: Plane, Normal: r3.Scale(1/ln, nv), PlaneSize: sz}, true, nil
	case "mesh":
		u := k.child("uri")
		if u == nil {
			return Geometry{}, false, k.errorf("<mesh> without <uri>")
		}
		scale, err := vec3(k, "scale", r3.Vec{X: 1, Y: 1, Z: 1})
		if err != nil {
			return Geometry{}, false, err
		}
		if scale.X == 0 || scale.Y == 0 || scale.Z == 0 {
			return Geometry{}, false, k.child("scale").errorf("a zero scale flattens the mesh")
		}
		l.warnEach(k, "submeshes are not selected: the whole mesh is used", "submesh")
		m, err := l.loadMesh(u, u.text, scale, src)
		if err != nil {
			if visual {
				l.ignore(k, "visual left out: %v", err)
				return Geometry{}, false, nil
			}
			return Geometry{}, false, err
		}
		return Geometry{Kind: MeshGeom, Mesh: m, URI: u.text, Scale: scale}, true, nil
	case "empty":
		return Geometry{}, false, nil
	}
	if visual {
		l.ignore(k, "geometry <%s> is not supported: visual left out", k.name)
		return Geometry{}, false, nil
	}
	return Geometry{}, false, k.errorf("collision geometry <%s> is not supported (box, cylinder, sphere, plane, mesh)", k.name)
}

// scriptColors maps the common Gazebo material scripts to colours.
var scriptColors = map[string]Color{
	"Gazebo/Grey": {0.7, 0.7, 0.7, 1}, "Gazebo/Gray": {0.7, 0.7, 0.7, 1},
	"Gazebo/DarkGrey": {0.175, 0.175, 0.175, 1}, "Gazebo/White": {1, 1, 1, 1},
	"Gazebo/Black": {0, 0, 0, 1}, "Gazebo/Red": {1, 0, 0, 1}, "Gazebo/Green": {0, 1, 0, 1},
	"Gazebo/Blue": {0, 0, 1, 1}, "Gazebo/Yellow": {1, 1, 0, 1}, "Gazebo/Orange": {1, 0.5088, 0.0468, 1},
	"Gazebo/Purple": {1, 0, 1, 1}, "Gazebo/Turquoise": {0, 1, 1, 1}, "Gazebo/Wood": {0.5, 0.35, 0.2, 1},
}

func (l *loader) material(m *node) (Material, error) {
	out := DefaultMaterial
	var err error
	var hasA, hasD bool
	if out.Ambient, hasA, err = color(m, "ambient", DefaultMaterial.Ambient); err != nil {
		return out, err
	}
	if out.Diffuse, hasD, err = color(m, "diffuse", DefaultMaterial.Diffuse); err != nil {
		return out, err
	}
	if out.Specular, _, err = color(m, "specular", DefaultMaterial.Specular); err != nil {
		return out, err
	}
	if out.Emissive, _, err = color(m, "emissive", DefaultMaterial.Emissive); err != nil {
		return out, err
	}
	if s := m.child("script"); s != nil {
		name := strings.TrimSpace(s.str("name", ""))
		quiet(s, "uri")
		c, ok := scriptColors[name]
		switch {
		case hasA || hasD:
			// Explicit colours win over the script, as in Gazebo.
		case ok:
			out.Ambient, out.Diffuse = c, c
		default:
			l.ignore(s, "material script %q is not known: the default grey is drawn", name)
		}
	}
	switch {
	case hasD && !hasA:
		out.Ambient = out.Diffuse
	case hasA && !hasD:
		out.Diffuse = out.Ambient
	}
	quiet(m, "lighting", "double_sided", "render_order")
	l.warnEach(m, "ignored: only the ambient, diffuse, specular and emissive colours are drawn", "pbr", "shader")
	return out, nil
}

func (l *loader) surface(sf *node) (Surface, error) {
	out := DefaultSurface
	var err error
	if f := sf.child("friction"); f != nil {
		if o := f.child("ode"); o != nil {
			if out.Mu, err = o.float("mu", 1); err != nil {
				return out, err
			}
			if out.Mu2, err = o.float("mu2", 1); err != nil { // SDF's default, as Gazebo reads it
				return out, err
			}
			if out.Mu < 0 || out.Mu2 < 0 {
				return out, o.errorf("friction coefficients %g, %g must be >= 0", out.Mu, out.Mu2)
			}
			l.warnEach(o, "ignored: friction directions and slip are set by the simulator (tracks), not by the world", "fdir1", "slip1", "slip2")
		}
		quiet(f, "bullet") // Bullet's own block: not the engine here, as in Gazebo with ODE
		l.warnEach(f, "ignored: torsional friction is not simulated", "torsional")
	}
	if b := sf.child("bounce"); b != nil {
		if out.Restitution, err = b.float("restitution_coefficient", 0); err != nil {
			return out, err
		}
		if out.Restitution < 0 || out.Restitution > 1 {
			return out, b.errorf("restitution %g outside [0, 1]", out.Restitution)
		}
		quiet(b, "threshold")
	}
	if c := sf.child("contact"); c != nil {
		for _, k := range c.kids {
			l.ignore(k, "ignored: contact stiffness, damping and masks are the simulator's own")
		}
	}
	l.warnEach(sf, "ignored: soft contacts are not simulated", "soft_contact")
	return out, nil
}

func (l *loader) joint(n *node, sc *scope) error {
	name := n.attrs["name"]
	if name == "" || sc.frames[name] != nil || sc.models[name] != nil {
		return n.errorf("joint needs a unique name, got %q", name)
	}
	kind := JointKind(n.attrs["type"])
	switch kind {
	case "revolute", "prismatic", "fixed", "continuous", "ball", "universal", "revolute2", "screw":
	case "gearbox":
		l.warn(n, "gearbox joints are simulated as fixed")
	default:
		return n.errorf("joint type %q", kind)
	}
	pn, cn := n.child("parent"), n.child("child")
	if pn == nil || cn == nil {
		return n.errorf("joint needs <parent> and <child>")
	}
	local, rel, err := parsePose(n.child("pose"))
	if err != nil {
		return err
	}
	cf := sc.lookup(cn.text)
	if cf == nil {
		return cn.errorf("child %q names no link in scope", cn.text)
	}
	jf := &frame{name: name, at: n, local: local, rel: rel, def: cf, sc: sc}
	sc.frames[name] = jf
	j := Joint{Name: sc.prefix + name, Kind: kind, Parent: -1, Lower: math.Inf(-1), Upper: math.Inf(1), Effort: math.Inf(1), Velocity: math.Inf(1)}
	axisN := n.child("axis")
	var xyz r3.Vec
	var expressed string
	parentModel := false
	if axisN != nil {
		xn := axisN.child("xyz")
		if xn == nil {
			return axisN.errorf("<axis> without <xyz>")
		}
		v, err := xn.floats(3)
		if err != nil {
			return err
		}
		xyz = r3.Vec{X: v[0], Y: v[1], Z: v[2]}
		if r3.Norm(xyz) < 1e-9 {
			return xn.errorf("axis of zero length")
		}
		expressed = xn.attrs["expressed_in"]
		if parentModel, err = axisN.boolean("use_parent_model_frame", false); err != nil {
			return err
		}
		if lim := axisN.child("limit"); lim != nil {
			get := func(name string, def float64) float64 {
				if err != nil {
					return 0
				}
				var v float64
				v, err = lim.float(name, def)
				return v
			}
			j.Lower, j.Upper = get("lower", -1e16), get("upper", 1e16)
			j.Effort, j.Velocity = get("effort", -1), get("velocity", -1)
			if err != nil {
				return err
			}
			quiet(lim, "stiffness", "dissipation")
			if j.Lower <= -1e16 {
				j.Lower = math.Inf(-1)
			}
			if j.Upper >= 1e16 {
				j.Upper = math.Inf(1)
			}
			if j.Effort < 0 {
				j.Effort = math.Inf(1)
			}
			if j.Velocity < 0 {
				j.Velocity = math.Inf(1)
			}
			if j.Lower > j.Upper {
				return lim.errorf("lower limit %g above upper %g", j.Lower, j.Upper)
			}
		}
		if d := axisN.child("dynamics"); d != nil {
			if j.Damping, err = d.float("damping", 0); err != nil {
				return err
			}
			if j.Friction, err = d.float("friction", 0); err != nil {
				return err
			}
			l.warnEach(d, "ignored: joint springs are not simulated", "spring_reference", "spring_stiffness")
		}
		quiet(axisN, "initial_position")
	} else if kind == "revolute" || kind == "prismatic" || kind == "continuous" || kind == "screw" || kind == "universal" || kind == "revolute2" {
		return n.errorf("a %s joint needs an <axis>", kind)
	}
	if kind == "continuous" {
		j.Lower, j.Upper = math.Inf(-1), math.Inf(1)
	}
	l.warnEach(n, "ignored: only the first axis is read", "axis2")
	l.warnEach(n, "ignored: joint physics settings are the simulator's own", "physics")
	l.warnEach(n, "ignored: screw thread pitch is not simulated", "thread_pitch", "screw_thread_pitch")
	l.warnEach(n, "sensors are not simulated from the world file", "sensor")
	ji := len(l.w.Joints)
	l.w.Joints = append(l.w.Joints, j)
	l.finish = append(l.finish, func() error {
		j := &l.w.Joints[ji]
		var err error
		if j.Child, err = l.bodyIndex(cn, sc); err != nil {
			return err
		}
		if pn.text == "world" {
			j.Parent = -1
		} else if j.Parent, err = l.bodyIndex(pn, sc); err != nil {
			return err
		}
		if err := jf.resolve(); err != nil {
			return err
		}
		j.Pose = jf.world
		if xyz != (r3.Vec{}) {
			rot := jf.world.Rotation
			switch {
			case expressed != "":
				f := sc.lookup(expressed)
				if f == nil {
					return axisN.errorf("expressed_in %q names no frame in scope", expressed)
				}
				if err := f.resolve(); err != nil {
					return err
				}
				rot = f.world.Rotation
			case parentModel:
				if err := sc.model.resolve(); err != nil {
					return err
				}
				rot = sc.model.world.Rotation
			}
			a := rot.Rotate(xyz)
			j.Axis = r3.Scale(1/r3.Norm(a), a)
		}
		return nil
	})
	return nil
}

// bodyIndex finds the body a joint's <parent> or <child> names.
func (l *loader) bodyIndex(n *node, sc *scope) (int, error) {
	full := sc.prefix + n.text
	for i := range l.w.Bodies {
		if l.w.Bodies[i].Name == full {
			return i, nil
		}
	}
	return -1, n.errorf("%q names no link of this model", n.text)
}

func (l *loader) light(n *node, sc *scope, def *frame, body int, prefix string) error {
	lt := Light{Name: prefix + n.attrs["name"], Kind: LightKind(n.attrs["type"]), Body: body, Intensity: 1,
		Diffuse: Color{1, 1, 1, 1}, Specular: Color{0.1, 0.1, 0.1, 1}, Range: 10, Constant: 1, Falloff: 1}
	switch lt.Kind {
	case Directional, Point, Spot:
	default:
		return n.errorf("light type %q (directional, point or spot)", lt.Kind)
	}
	var err error
	if lt.CastShadows, err = n.boolean("cast_shadows", false); err != nil {
		return err
	}
	if lt.Diffuse, _, err = color(n, "diffuse", lt.Diffuse); err != nil {
		return err
	}
	if lt.Specular, _, err = color(n, "specular", lt.Specular); err != nil {
		return err
	}
	if lt.Intensity, err = n.float("intensity", 1); err != nil {
		return err
	}
	if a := n.child("attenuation"); a != nil {
		if lt.Range, err = a.float("range", 10); err != nil {
			return err
		}
		if lt.Constant, err = a.float("constant", 1); err != nil {
			return err
		}
		if lt.Linear, err = a.float("linear", 0); err != nil {
			return err
		}
		if lt.Quadratic, err = a.float("quadratic", 0); err != nil {
			return err
		}
	}
	dir, err := vec3(n, "direction", r3.Vec{Z: -1})
	if err != nil {
		return err
	}
	if r3.Norm(dir) < 1e-9 && lt.Kind != Point {
		return n.child("direction").errorf("direction of zero length")
	}
	if s := n.child("spot"); s != nil {
		if lt.InnerAngle, err = s.float("inner_angle", 0); err != nil {
			return err
		}
		if lt.OuterAngle, err = s.float("outer_angle", 0); err != nil {
			return err
		}
		if lt.Falloff, err = s.float("falloff", 1); err != nil {
			return err
		}
	}
	if on, err := n.boolean("light_on", true); err != nil {
		return err
	} else if !on {
		return nil
	}
	quiet(n, "visualize")
	local, rel, err := parsePose(n.child("pose"))
	if err != nil {
		return err
	}
	f := &frame{name: n.attrs["name"], at: n, local: local, rel: rel, def: def, sc: sc}
	li := len(l.w.Lights)
	l.w.Lights = append(l.w.Lights, lt)
	l.finish = append(l.finish, func() error {
		if err := f.resolve(); err != nil {
			return err
		}
		lp := &l.w.Lights[li]
		lp.Pose = f.world
		if d := f.world.Rotation.Rotate(dir); r3.Norm(d) > 0 {
			lp.Direction = r3.Scale(1/r3.Norm(d), d)
		}
		return nil
	})
	return nil
}
