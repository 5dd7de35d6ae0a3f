package sdf

import (
	"errors"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/telebridge/telebridge/pkg/geom"
	"gonum.org/v1/gonum/spatial/r3"
)

func testOptions() Options {
	return Options{ModelPath: []Folder{{Name: "testdata/models", FS: os.DirFS("testdata/models")}}}
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

func vecNear(t *testing.T, what string, got, want r3.Vec) {
	t.Helper()
	if !near(got.X, want.X) || !near(got.Y, want.Y) || !near(got.Z, want.Z) {
		t.Errorf("%s = %v, want %v", what, got, want)
	}
}

func TestFeatures(t *testing.T) {
	w, err := LoadFile("testdata/worlds/features.sdf", testOptions())
	if err != nil {
		t.Fatal(err)
	}
	if w.Name != "features" || w.Gravity != (r3.Vec{Z: -9.81}) || w.Ambient != (Color{0.3, 0.3, 0.3, 1}) {
		t.Errorf("world %q gravity %v ambient %v", w.Name, w.Gravity, w.Ambient)
	}
	// The rig sits 1 m along the corner frame's X, which is turned 90
	// degrees about Z: world (10, 1, 0).
	rig, ok := w.Model("rig")
	if !ok {
		t.Fatal("no model rig")
	}
	vecNear(t, "rig", rig.Pose.Translation, r3.Vec{X: 10, Y: 1})
	base, _ := w.Body("rig::base")
	vecNear(t, "rig::base", base.Pose.Translation, r3.Vec{X: 10, Y: 1, Z: 0.5})
	if base.Mass != 3 || base.Static || len(base.Collisions) != 1 {
		t.Errorf("base %+v", base)
	}
	if g := base.Collisions[0].Geometry; g.Kind != Cylinder || g.Radius != 0.2 || g.Length != 0.4 {
		t.Errorf("cylinder %+v", g)
	}
	arm, _ := w.Body("rig::arm")
	vecNear(t, "rig::arm", arm.Pose.Translation, r3.Vec{X: 10, Y: 1, Z: 1.5})
	// The ball is relative to the model frame: 2 m above the rig's origin,
	// so 0.5 m above the arm's link frame.
	if len(arm.Visuals) != 1 {
		t.Fatalf("arm visuals %d", len(arm.Visuals))
	}
	vecNear(t, "ball in arm", arm.Visuals[0].Pose.Translation, r3.Vec{Z: 0.5})
	if arm.Visuals[0].Material.Diffuse != (Color{1, 0, 0, 1}) {
		t.Errorf("Gazebo/Red gave %v", arm.Visuals[0].Material.Diffuse)
	}
	tip, _ := w.Body("rig::inner::tip")
	vecNear(t, "rig::inner::tip", tip.Pose.Translation, r3.Vec{X: 8, Y: 1})
	if _, ok := w.Model("rig::inner"); !ok {
		t.Error("no nested model rig::inner")
	}
	// The joint frame is 0.5 m below the child link; its X axis turned by
	// the corner's 90 degrees is world +Y.
	if len(w.Joints) != 1 {
		t.Fatalf("%d joints", len(w.Joints))
	}
	j := w.Joints[0]
	vecNear(t, "hinge", j.Pose.Translation, r3.Vec{X: 10, Y: 1, Z: 1})
	vecNear(t, "hinge axis", j.Axis, r3.Vec{Y: 1})
	if w.Bodies[j.Parent].Name != "rig::base" || w.Bodies[j.Child].Name != "rig::arm" || j.Lower != -1 || j.Upper != 1 || j.Effort != 20 || !math.IsInf(j.Velocity, 1) {
		t.Errorf("joint %+v", j)
	}
	ground, _ := w.Body("ground::l")
	if !ground.Static || ground.Collisions[0].Surface != (Surface{Mu: 0.8, Mu2: 0.6}) || ground.Collisions[0].Geometry.Kind != Plane {
		t.Errorf("ground %+v", ground)
	}
	crate, _ := w.Body("crate_a::body")
	vecNear(t, "crate (include pose replaces the model's)", crate.Pose.Translation, r3.Vec{X: -3})
	if !crate.Static || crate.Mass != 2 || len(crate.Visuals) != 1 {
		t.Fatalf("crate %+v", crate)
	}
	vecNear(t, "crate centre of mass", crate.Inertial.Translation, r3.Vec{Z: 0.1})
	m := crate.Visuals[0].Geometry.Mesh
	if m == nil || len(m.Triangles) != 2 || m.Max != (r3.Vec{X: 0.25, Y: 0.25}) {
		t.Errorf("lid mesh %+v", m)
	}
	if len(w.Lights) != 2 {
		t.Fatalf("%d lights", len(w.Lights))
	}
	sun, lamp := w.Lights[0], w.Lights[1]
	if sun.Kind != Directional || sun.Body != -1 || !near(r3.Norm(sun.Direction), 1) || sun.Direction.Z >= 0 {
		t.Errorf("sun %+v", sun)
	}
	if lamp.Name != "rig::base::lamp" || lamp.Kind != Spot || w.Bodies[lamp.Body].Name != "rig::base" || lamp.OuterAngle != 0.6 {
		t.Errorf("lamp %+v", lamp)
	}
	vecNear(t, "lamp", lamp.Pose.Translation, r3.Vec{X: 10, Y: 1, Z: 0.8})
	// Unknown and unsupported elements are named with file and line.
	var got []string
	for _, wn := range w.Warnings {
		got = append(got, wn.String())
	}
	all := strings.Join(got, "\n")
	for _, want := range []string{
		"features.sdf:26: sdf/world[features]/model[rig]/link[base]/sensor[cam]: sensors are not simulated",
		"features.sdf:46: sdf/world[features]/model[rig]/frobnicate: unknown or unsupported element, ignored",
		"features.sdf:44: sdf/world[features]/model[rig]/model[inner]/link[tip]: dynamic link without <inertial>: SDF's default 1 kg",
	} {
		if !strings.Contains(all, want) {
			t.Errorf("warnings lack %q; have:\n%s", want, all)
		}
	}
	if len(got) != 3 {
		t.Errorf("%d warnings, want 3:\n%s", len(got), all)
	}
}

func TestRelativeToChain(t *testing.T) {
	// Frames resolve whatever the order they are written in, and nested
	// scopes resolve with "::".
	src := `<sdf version="1.8"><world name="w">
	  <model name="m">
	    <pose>1 0 0 0 0 0</pose>
	    <link name="b"><pose relative_to="f">0 0 1 0 0 0</pose></link>
	    <frame name="f" attached_to="a"><pose relative_to="a">0 1 0 0 0 0</pose></frame>
	    <link name="a"><pose relative_to="n::x">0 0 0 0 0 0</pose></link>
	    <model name="n"><pose>5 0 0 0 0 0</pose><link name="x"><pose>0 0 2 0 0 0</pose></link></model>
	  </model>
	</world></sdf>`
	w, err := Parse([]byte(src), "chain.sdf", Options{})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := w.Body("m::b")
	vecNear(t, "m::b", b.Pose.Translation, r3.Vec{X: 6, Y: 1, Z: 3})
}

func TestPoseForms(t *testing.T) {
	for _, c := range []struct {
		pose string
		want geom.Transform
	}{
		{`<pose>1 2 3 0 0 1.5707963267948966</pose>`, geom.FromXYZEuler(1, 2, 3, math.Pi/2, 0, 0)},
		{`<pose degrees="true">1 2 3 0 0 90</pose>`, geom.FromXYZEuler(1, 2, 3, math.Pi/2, 0, 0)},
		{`<pose rotation_format="quat_xyzw">1 2 3 0 0 0.7071067811865476 0.7071067811865476</pose>`, geom.FromXYZEuler(1, 2, 3, math.Pi/2, 0, 0)},
		{`<pose>0 0 0 0.3 0 0</pose>`, geom.FromXYZEuler(0, 0, 0, 0, 0, 0.3)},
		{`<pose/>`, geom.Identity()},
	} {
		w, err := Parse([]byte(`<sdf version="1.9"><world name="w"><model name="m">`+c.pose+`<static>1</static><link name="l"/></model></world></sdf>`), "p.sdf", Options{})
		if err != nil {
			t.Fatalf("%s: %v", c.pose, err)
		}
		if tr, rot := geom.Distance(w.Models[0].Pose, c.want); tr > 1e-12 || rot > 1e-12 {
			t.Errorf("%s: %v, want %v", c.pose, w.Models[0].Pose, c.want)
		}
	}
}

func TestMalformed(t *testing.T) {
	wrap := func(model string) string {
		return `<sdf version="1.9"><world name="w"><model name="m">` + model + `</model></world></sdf>`
	}
	for _, c := range []struct {
		name, src, want string
	}{
		{"not xml", `<sdf><world name="w">`, "XML syntax error"},
		{"bad root", `<robot/>`, "want <sdf>"},
		{"no world", `<sdf version="1.9"/>`, "no <world>"},
		{"five numbers", wrap(`<pose>1 2 3 4 5</pose>`), "sdf/world[w]/model[m]/pose: sdf: malformed world: want 6 numbers, got 5"},
		{"nan", wrap(`<pose>1 2 NaN 0 0 0</pose>`), "not a finite number"},
		{"negative mass", wrap(`<link name="l"><inertial><mass>-1</mass></inertial></link>`), "link[l]/inertial: sdf: malformed world: mass -1 kg"},
		{"zero moment", wrap(`<link name="l"><inertial><mass>1</mass><inertia><ixx>0</ixx></inertia></inertial></link>`), "principal moments"},
		{"negative box", wrap(`<link name="l"><collision name="c"><geometry><box><size>1 -1 1</size></box></geometry></collision></link>`), "every edge must be > 0"},
		{"two geometries", wrap(`<link name="l"><collision name="c"><geometry><box/><sphere/></geometry></collision></link>`), "exactly one"},
		{"no geometry", wrap(`<link name="l"><collision name="c"/></link>`), "no <geometry>"},
		{"heightmap collision", wrap(`<link name="l"><collision name="c"><geometry><heightmap/></geometry></collision></link>`), "collision geometry <heightmap> is not supported"},
		{"relative mesh from bytes", wrap(`<link name="l"><collision name="c"><geometry><mesh><uri>a.stl</uri></mesh></geometry></collision></link>`), "needs the world loaded from a folder"},
		{"missing model", `<sdf version="1.9"><world name="w"><include><uri>model://nothing</uri></include></world></sdf>`, `no model folder "nothing"`},
		{"fuel", `<sdf version="1.9"><world name="w"><include><uri>https://fuel.gazebosim.org/x</uri></include></world></sdf>`, "Gazebo Fuel"},
		{"cycle", wrap(`<link name="a"><pose relative_to="b"/></link><link name="b"><pose relative_to="a"/></link>`), "cycle"},
		{"unknown frame", wrap(`<link name="a"><pose relative_to="zz"/></link>`), `relative_to "zz" names no frame`},
		{"duplicate link", wrap(`<link name="a"/><link name="a"/>`), "unique name"},
		{"joint to nothing", wrap(`<link name="a"/><joint name="j" type="fixed"><parent>a</parent><child>b</child></joint>`), `child "b"`},
		{"joint type", wrap(`<link name="a"/><joint name="j" type="glue"><parent>world</parent><child>a</child></joint>`), `joint type "glue"`},
		{"axisless hinge", wrap(`<link name="a"/><joint name="j" type="revolute"><parent>world</parent><child>a</child></joint>`), "needs an <axis>"},
		{"light type", `<sdf version="1.9"><world name="w"><light name="x" type="laser"/></world></sdf>`, `light type "laser"`},
		{"colour range", wrap(`<link name="l"><visual name="v"><geometry><box/></geometry><material><diffuse>2 0 0 1</diffuse></material></visual></link>`), "outside [0, 1]"},
		{"negative mu", wrap(`<link name="l"><collision name="c"><geometry><box/></geometry><surface><friction><ode><mu>-1</mu></ode></friction></surface></collision></link>`), "must be >= 0"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse([]byte(c.src), "bad.sdf", testOptions())
			var e *Error
			if !errors.As(err, &e) || !errors.Is(err, ErrMalformed) || e.File != "bad.sdf" || e.Line < 1 || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want an *Error at bad.sdf:line containing %q", err, c.want)
			}
		})
	}
}

func TestLineNumbers(t *testing.T) {
	src := "<sdf version=\"1.9\">\n<world name=\"w\">\n<model name=\"m\">\n\n<pose>1 2</pose>\n</model></world></sdf>\n"
	_, err := Parse([]byte(src), "lines.sdf", Options{})
	var e *Error
	if !errors.As(err, &e) || e.Line != 5 {
		t.Errorf("error %v, want line 5", err)
	}
	_, err = Parse([]byte("<sdf>\n<world name=\"w\">\n</model>"), "syntax.sdf", Options{})
	if !errors.As(err, &e) || e.Line != 3 {
		t.Errorf("syntax error %v, want line 3", err)
	}
}

func TestVisualMeshMissingWarns(t *testing.T) {
	src := `<sdf version="1.9"><world name="w"><model name="m"><static>true</static><link name="l">
	<visual name="v"><geometry><mesh><uri>model://crate/meshes/none.dae</uri></mesh></geometry></visual>
	<collision name="c"><geometry><mesh><uri>model://crate/meshes/lid.obj</uri></mesh></geometry></collision>
	</link></model></world></sdf>`
	w, err := Parse([]byte(src), "v.sdf", testOptions())
	if err != nil {
		t.Fatal(err)
	}
	b := w.Bodies[0]
	if len(b.Visuals) != 0 || len(b.Collisions) != 1 || len(w.Warnings) != 1 || !strings.Contains(w.Warnings[0].String(), "visual left out") {
		t.Errorf("visuals %d collisions %d warnings %v", len(b.Visuals), len(b.Collisions), w.Warnings)
	}
	// The same mesh as a collision is an error: the physics would differ.
	_, err = Parse([]byte(strings.Replace(src, "<collision name=\"c\"><geometry><mesh><uri>model://crate/meshes/lid.obj", "<collision name=\"c\"><geometry><mesh><uri>model://crate/meshes/none.stl", 1)), "v.sdf", testOptions())
	if !errors.Is(err, ErrMalformed) || !strings.Contains(err.Error(), "none.stl") {
		t.Errorf("missing collision mesh: %v", err)
	}
}

func FuzzParse(f *testing.F) {
	for _, p := range []string{"testdata/worlds/features.sdf", "testdata/models/crate/model.sdf"} {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte(`<sdf version="1.9"><world name="w"><model name="m"><link name="a"><pose relative_to="b"/></link><link name="b"/></model></world></sdf>`))
	opt := testOptions()
	f.Fuzz(func(t *testing.T, data []byte) {
		w, err := Parse(data, "fuzz.sdf", opt)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error %v is not an *Error", err)
			}
			return
		}
		for _, b := range w.Bodies {
			if err := b.Pose.Validate(); err != nil {
				t.Fatalf("body %s: %v", b.Name, err)
			}
		}
	})
}
