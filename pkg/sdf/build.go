package sdf

import (
	"fmt"
	"path"
	"strings"

	"github.com/telebridge/telebridge/pkg/geom"
	"gonum.org/v1/gonum/spatial/r3"
)

// warn records a warning at n and marks n handled (its children are
// still checked).
func (l *loader) warn(n *node, format string, a ...any) {
	n.used = true
	l.w.Warnings = append(l.w.Warnings, Warning{File: n.file, Line: n.line, Element: n.path(), Message: fmt.Sprintf(format, a...)})
}

// ignore records a warning that n and everything in it is skipped.
func (l *loader) ignore(n *node, format string, a ...any) {
	markAll(n)
	l.w.Warnings = append(l.w.Warnings, Warning{File: n.file, Line: n.line, Element: n.path(), Message: fmt.Sprintf(format, a...)})
}

// quiet marks children that change nothing the physics or the renderer
// compute, so they raise no warning.
func quiet(n *node, names ...string) {
	for _, name := range names {
		for _, k := range n.kids {
			if k.name == name {
				markAll(k)
			}
		}
	}
}

func markAll(n *node) {
	n.used = true
	for _, k := range n.kids {
		markAll(k)
	}
}

// warnEach warns once for every child named name, with msg.
func (l *loader) warnEach(n *node, msg string, names ...string) {
	for _, name := range names {
		for _, k := range n.kids {
			if k.name == name {
				l.ignore(k, "%s", msg)
			}
		}
	}
}

// unused warns for every element nobody read, topmost only.
func (l *loader) unused(n *node) {
	for _, k := range n.kids {
		if !k.used {
			l.ignore(k, "unknown or unsupported element, ignored")
			continue
		}
		l.unused(k)
	}
}

func (l *loader) world(root *node, src *source) (*World, error) {
	l.w = &World{
		Gravity:    r3.Vec{Z: -9.8},
		Ambient:    Color{0.4, 0.4, 0.4, 1},
		Background: Color{0.7, 0.7, 0.7, 1},
	}
	if root.name != "sdf" {
		return nil, root.errorf("root element is <%s>, want <sdf>", root.name)
	}
	root.used = true
	l.roots = append(l.roots, root)
	worlds := root.children("world")
	if len(worlds) == 0 {
		return nil, root.errorf("no <world> (a model file is loaded by an <include> in a world)")
	}
	for _, extra := range worlds[1:] {
		l.ignore(extra, "a second <world> in one file, ignored")
	}
	wn := worlds[0]
	l.w.Name = wn.attrs["name"]
	ws := newScope(nil, "", nil)
	if err := l.worldBody(wn, ws, src); err != nil {
		return nil, err
	}
	for _, f := range l.finish {
		if err := f(); err != nil {
			return nil, err
		}
	}
	for _, r := range l.roots {
		l.unused(r)
	}
	return l.w, nil
}

func (l *loader) worldBody(wn *node, ws *scope, src *source) error {
	if g := wn.child("gravity"); g != nil {
		v, err := g.floats(3)
		if err != nil {
			return err
		}
		l.w.Gravity = r3.Vec{X: v[0], Y: v[1], Z: v[2]}
	}
	if p := wn.child("physics"); p != nil {
		if g := p.child("gravity"); g != nil && wn.child("gravity") == nil { // SDF 1.5 kept it here
			v, err := g.floats(3)
			if err != nil {
				return err
			}
			l.w.Gravity = r3.Vec{X: v[0], Y: v[1], Z: v[2]}
		}
		l.ignore(p, "physics engine settings ignored: the simulator steps at its own fixed 1 kHz with its own solver settings")
	}
	if s := wn.child("scene"); s != nil {
		var err error
		if l.w.Ambient, _, err = color(s, "ambient", l.w.Ambient); err != nil {
			return err
		}
		if l.w.Background, _, err = color(s, "background", l.w.Background); err != nil {
			return err
		}
		quiet(s, "shadows", "grid", "origin_visual", "sky")
		l.warnEach(s, "fog is not rendered", "fog")
	}
	quiet(wn, "gui", "audio")
	l.warnEach(wn, "plugins are not run: what a Gazebo plugin would do does not happen", "plugin")
	l.warnEach(wn, "ignored (the world has no geodetic origin, wind, magnetic field or atmosphere model)", "spherical_coordinates", "wind", "magnetic_field", "atmosphere")
	l.warnEach(wn, "ignored: the world starts as the file describes it", "state")
	l.warnEach(wn, "ignored: actors and populations are not simulated", "actor", "population", "road")
	for _, fn := range wn.children("frame") {
		if err := l.frameElem(fn, ws); err != nil {
			return err
		}
	}
	for _, k := range wn.kids {
		switch k.name {
		case "model":
			k.used = true
			if err := l.model(k, ws, src, includeOverride{}); err != nil {
				return err
			}
		case "include":
			k.used = true
			if err := l.include(k, ws, src); err != nil {
				return err
			}
		case "light":
			k.used = true
			if err := l.light(k, ws, nil, -1, ""); err != nil {
				return err
			}
		}
	}
	return nil
}

// includeOverride is what an <include> says over the included model.
type includeOverride struct {
	name   string
	pose   *node
	static *bool
}

func (l *loader) include(n *node, sc *scope, src *source) error {
	if l.depth >= l.opt.MaxIncludeDepth {
		return n.errorf("includes nested deeper than %d (a model including itself?)", l.opt.MaxIncludeDepth)
	}
	u := n.child("uri")
	if u == nil {
		return n.errorf("<include> without <uri>")
	}
	ms, sub, err := l.resolveURI(u, u.text, src)
	if err != nil {
		return err
	}
	// model://name or a folder path: the model folder is ms.dir/sub.
	ms = &source{fsys: ms.fsys, dir: path.Join(ms.dir, sub), name: path.Join(ms.name, sub), id: ms.id + "/" + sub}
	file, err := l.modelFile(u, ms)
	if err != nil {
		return err
	}
	data, err := l.read(ms, file)
	if err != nil {
		return u.errorf("%v", err)
	}
	fname := path.Join(ms.name, file)
	root, err := parseXML(fname, data, maxDepth, maxNodes)
	if err != nil {
		return err
	}
	if root.name != "sdf" {
		return root.errorf("root element is <%s>, want <sdf>", root.name)
	}
	root.used = true
	l.roots = append(l.roots, root)
	mn := root.child("model")
	if mn == nil {
		return root.errorf("included file has no <model>")
	}
	fsrc := &source{fsys: ms.fsys, dir: path.Dir(path.Join(ms.dir, file)), name: path.Dir(fname), id: ms.id}
	ov := includeOverride{name: n.str("name", ""), pose: n.child("pose")}
	if s := n.child("static"); s != nil {
		b, err := n.boolean("static", false)
		if err != nil {
			return err
		}
		ov.static = &b
	}
	l.warnEach(n, "plugins are not run: what a Gazebo plugin would do does not happen", "plugin")
	l.warnEach(n, "placement_frame is not supported; the pose places the model frame", "placement_frame")
	l.depth++
	defer func() { l.depth-- }()
	return l.model(mn, sc, fsrc, ov)
}

func (l *loader) model(n *node, parent *scope, src *source, ov includeOverride) error {
	name := n.attrs["name"]
	if ov.name != "" {
		name = ov.name
		n.label = fmt.Sprintf("model[%s]", name)
	}
	if name == "" || strings.Contains(name, "::") || name == "world" || name == "__model__" {
		return n.errorf("model name %q (needs a name without \"::\", not world or __model__)", name)
	}
	if parent.frames[name] != nil || parent.models[name] != nil {
		return n.errorf("a second frame, link, joint or model named %q in this scope", name)
	}
	pn := n.child("pose")
	if ov.pose != nil {
		pn = ov.pose
	}
	local, rel, err := parsePose(pn)
	if err != nil {
		return err
	}
	at := n
	if pn != nil {
		at = pn
	}
	mf := &frame{name: name, at: at, local: local, rel: rel, def: parent.model, sc: parent}
	sc := newScope(parent, parent.prefix+name+"::", mf)
	parent.models[name] = sc
	parent.frames[name] = mf
	static, err := n.boolean("static", false)
	if err != nil {
		return err
	}
	if ov.static != nil {
		static = *ov.static
	}
	sc.static = static || parent.static
	sc.index = len(l.w.Models)
	l.w.Models = append(l.w.Models, Model{Name: parent.prefix + name, Parent: parent.index, Static: sc.static})
	idx := sc.index
	l.finish = append(l.finish, func() error {
		if err := mf.resolve(); err != nil {
			return err
		}
		l.w.Models[idx].Pose = mf.world
		return nil
	})
	if _, ok := n.attrs["placement_frame"]; ok {
		l.warn(n, "placement_frame is not supported; the pose places the model frame")
	}
	quiet(n, "self_collide", "allow_auto_disable", "enable_wind")
	l.warnEach(n, "plugins are not run: what a Gazebo plugin would do does not happen", "plugin")
	for _, fn := range n.children("frame") {
		if err := l.frameElem(fn, sc); err != nil {
			return err
		}
	}
	for _, k := range n.kids {
		switch k.name {
		case "link":
			k.used = true
			if err := l.link(k, sc, src); err != nil {
				return err
			}
		case "model":
			k.used = true
			if err := l.model(k, sc, src, includeOverride{}); err != nil {
				return err
			}
		case "include":
			k.used = true
			if err := l.include(k, sc, src); err != nil {
				return err
			}
		}
	}
	// Joints after links: their parent and child are looked up by name.
	for _, k := range n.children("joint") {
		if err := l.joint(k, sc); err != nil {
			return err
		}
	}
	return nil
}

// frameElem reads a <frame name attached_to>: a named pose others may be
// relative_to.
func (l *loader) frameElem(n *node, sc *scope) error {
	name := n.attrs["name"]
	if name == "" || sc.frames[name] != nil || sc.models[name] != nil {
		return n.errorf("frame needs a unique name, got %q", name)
	}
	local, rel, err := parsePose(n.child("pose"))
	if err != nil {
		return err
	}
	f := &frame{name: name, at: n, local: local, rel: rel, sc: sc, def: sc.model}
	if a := n.attrs["attached_to"]; a != "" && rel == "" {
		f.rel = a
	}
	sc.frames[name] = f
	return nil
}

func (l *loader) link(n *node, sc *scope, src *source) error {
	name := n.attrs["name"]
	if name == "" || strings.Contains(name, "::") || sc.frames[name] != nil || sc.models[name] != nil {
		return n.errorf("link needs a unique name without \"::\", got %q", name)
	}
	local, rel, err := parsePose(n.child("pose"))
	if err != nil {
		return err
	}
	lf := &frame{name: name, at: n, local: local, rel: rel, def: sc.model, sc: sc}
	sc.frames[name] = lf
	bi := len(l.w.Bodies)
	b := Body{Name: sc.prefix + name, Model: sc.index, Static: sc.static, Mass: 1, Inertial: geom.Identity(), Inertia: Inertia{Ixx: 1, Iyy: 1, Izz: 1}}
	if b.Gravity, err = n.boolean("gravity", true); err != nil {
		return err
	}
	if k, err := n.boolean("kinematic", false); err != nil {
		return err
	} else if k {
		l.warn(n.child("kinematic"), "kinematic links are simulated as dynamic ones")
	}
	quiet(n, "self_collide", "must_be_base_link", "enable_wind", "audio_sink", "audio_source")
	l.warnEach(n, "sensors are not simulated from the world file (the laser and cameras come from the robot's own description)", "sensor")
	l.warnEach(n, "ignored: velocity decay is not simulated", "velocity_decay")
	l.warnEach(n, "ignored: not simulated", "battery", "projector", "particle_emitter")
	l.w.Bodies = append(l.w.Bodies, b)
	in := n.child("inertial")
	var inFrame *frame
	if in != nil {
		if err := l.inertial(in, bi, sc.static); err != nil {
			return err
		}
		local, rel, err := parsePose(in.child("pose"))
		if err != nil {
			return err
		}
		inFrame = &frame{name: name + "/inertial", at: in, local: local, rel: rel, def: lf, sc: sc}
	} else if !sc.static {
		l.warn(n, "dynamic link without <inertial>: SDF's default 1 kg and 1 kg m^2 assumed")
	}
	type pending struct {
		f      *frame
		s      Shape
		visual bool
	}
	var shapes []pending
	for _, k := range n.kids {
		if k.name != "collision" && k.name != "visual" {
			continue
		}
		k.used = true
		l.shapes++
		if l.shapes > maxShapes {
			return k.errorf("more than %d collisions and visuals in the world", maxShapes)
		}
		s, ok, err := l.shape(k, src)
		if err != nil {
			return err
		}
		if !ok {
			continue
		}
		local, rel, err := parsePose(k.child("pose"))
		if err != nil {
			return err
		}
		shapes = append(shapes, pending{f: &frame{name: k.attrs["name"], at: k, local: local, rel: rel, def: lf, sc: sc}, s: s, visual: k.name == "visual"})
	}
	lights := n.children("light")
	l.finish = append(l.finish, func() error {
		if err := lf.resolve(); err != nil {
			return err
		}
		body := &l.w.Bodies[bi]
		body.Pose = lf.world
		inv := lf.world.Inverse()
		if inFrame != nil {
			if err := inFrame.resolve(); err != nil {
				return err
			}
			body.Inertial = inv.Mul(inFrame.world)
		}
		for _, p := range shapes {
			if err := p.f.resolve(); err != nil {
				return err
			}
			p.s.Pose = inv.Mul(p.f.world)
			if p.visual {
				body.Visuals = append(body.Visuals, p.s)
			} else {
				body.Collisions = append(body.Collisions, p.s)
			}
		}
		return nil
	})
	for _, ln := range lights {
		if err := l.light(ln, sc, lf, bi, sc.prefix+name+"::"); err != nil {
			return err
		}
	}
	return nil
}

func (l *loader) inertial(n *node, bi int, static bool) error {
	b := &l.w.Bodies[bi]
	m, err := n.float("mass", 1)
	if err != nil {
		return err
	}
	if !(m > 0) && !static {
		return n.errorf("mass %g kg of a dynamic link (must be > 0)", m)
	}
	b.Mass = m
	if in := n.child("inertia"); in != nil {
		get := func(name string, def float64) float64 {
			if err != nil {
				return 0
			}
			var v float64
			v, err = in.float(name, def)
			return v
		}
		b.Inertia = Inertia{Ixx: get("ixx", 1), Ixy: get("ixy", 0), Ixz: get("ixz", 0), Iyy: get("iyy", 1), Iyz: get("iyz", 0), Izz: get("izz", 1)}
		if err != nil {
			return err
		}
		i := b.Inertia
		if !static && (!(i.Ixx > 0) || !(i.Iyy > 0) || !(i.Izz > 0)) {
			return in.errorf("principal moments %g %g %g kg m^2 of a dynamic link (must be > 0)", i.Ixx, i.Iyy, i.Izz)
		}
		if !static && (i.Ixx+i.Iyy < i.Izz*(1-1e-6) || i.Iyy+i.Izz < i.Ixx*(1-1e-6) || i.Ixx+i.Izz < i.Iyy*(1-1e-6)) {
			l.warn(in, "moments %g %g %g kg m^2 break the triangle inequality: no real body has them; the physics may misbehave", i.Ixx, i.Iyy, i.Izz)
		}
	} else if !static {
		l.warn(n, "no <inertia>: SDF's default 1 kg m^2 on each axis assumed")
	}
	l.warnEach(n, "ignored: added fluid mass is not simulated", "fluid_added_mass")
	return nil
}
