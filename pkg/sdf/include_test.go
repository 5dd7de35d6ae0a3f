package sdf

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"gonum.org/v1/gonum/spatial/r3"
)

// TestIncludeForms loads a world from an fs.FS that includes a model
// folder by relative path (no model.config), which itself includes a
// model from the model path and carries an element nobody knows.
func TestIncludeForms(t *testing.T) {
	fsys := fstest.MapFS{
		"worlds/w.sdf": {Data: []byte(`<?xml version="1.0"?>
<sdf version="1.6">
  <world name="w">
    <physics type="ode"><gravity>0 0 -3.7</gravity><max_step_size>0.001</max_step_size></physics>
    <include>
      <uri>props/cart</uri>
      <name>cart_a</name>
      <pose>1 0 0 0 0 1.5707963267948966</pose>
    </include>
    <light name="off" type="point"><light_on>false</light_on></light>
  </world>
</sdf>`)},
		"worlds/props/cart/model.sdf": {Data: []byte(`<sdf version="1.6">
  <model name="cart">
    <link name="base">
      <inertial><mass>4</mass><inertia><ixx>1</ixx><iyy>1</iyy><izz>1</izz></inertia></inertial>
      <visual name="v"><geometry><box><size>1 1 1</size></box></geometry><transparency>0.5</transparency>
        <material><diffuse>1 1 1 1</diffuse></material></visual>
      <wobble/>
    </link>
    <link name="wheel"><pose frame="base">0 1 0 0 0 0</pose>
      <inertial><mass>1</mass><inertia><ixx>1</ixx><iyy>1</iyy><izz>1</izz></inertia></inertial></link>
    <joint name="axle" type="continuous"><parent>base</parent><child>wheel</child>
      <axis><xyz>1 0 0</xyz><use_parent_model_frame>true</use_parent_model_frame></axis></joint>
    <include><uri>model://crate</uri><name>load</name><pose>0 0 1 0 0 0</pose><static>false</static></include>
  </model>
</sdf>`)},
	}
	w, err := Load(fsys, "worlds/w.sdf", testOptions())
	if err != nil {
		t.Fatal(err)
	}
	if w.Gravity != (r3.Vec{Z: -3.7}) {
		t.Errorf("SDF 1.5-style gravity %v", w.Gravity)
	}
	if len(w.Lights) != 0 {
		t.Errorf("a light that is off was kept: %+v", w.Lights)
	}
	wheel, ok := w.Body("cart_a::wheel")
	if !ok {
		t.Fatal("no cart_a::wheel")
	}
	// The cart is turned 90 degrees: the wheel 1 m along its Y is at -X.
	vecNear(t, "wheel", wheel.Pose.Translation, r3.Vec{X: 0, Y: 0})
	j := w.Joints[0]
	vecNear(t, "axle axis (the model's X, turned)", j.Axis, r3.Vec{Y: 1})
	if !math.IsInf(j.Lower, -1) || !math.IsInf(j.Upper, 1) {
		t.Errorf("continuous joint limits %g %g", j.Lower, j.Upper)
	}
	crate, ok := w.Body("cart_a::load::body")
	if !ok || crate.Static {
		t.Fatalf("nested include: %v static %v", ok, crate.Static)
	}
	vecNear(t, "crate", crate.Pose.Translation, r3.Vec{X: 1, Z: 1})
	base, _ := w.Body("cart_a::base")
	if a := base.Visuals[0].Material.Diffuse.A; a != 0.5 {
		t.Errorf("transparency 0.5 gave alpha %g", a)
	}
	var msgs []string
	for _, wn := range w.Warnings {
		msgs = append(msgs, wn.String())
	}
	all := strings.Join(msgs, "\n")
	if len(msgs) != 2 {
		t.Errorf("%d warnings, want 2 (physics, wobble):\n%s", len(msgs), all)
	}
	for _, want := range []string{
		"worlds/w.sdf:4: sdf/world[w]/physics: physics engine settings ignored",
		"worlds/props/cart/model.sdf:7: sdf/model[cart_a]/link[base]/wobble: unknown or unsupported element, ignored",
	} {
		if !strings.Contains(all, want) {
			t.Errorf("warnings lack %q:\n%s", want, all)
		}
	}
}

// TestLoadFileRelativeUp reads a mesh one folder up from the world file,
// as Gazebo allows for files on disk.
func TestLoadFileRelativeUp(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "worlds"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "meshes"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "meshes", "tri.obj"), []byte("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	src := `<sdf version="1.9"><world name="w"><model name="m"><static>true</static><link name="l">
	<collision name="c"><geometry><mesh><uri>../meshes/tri.obj</uri></mesh></geometry></collision></link></model></world></sdf>`
	p := filepath.Join(dir, "worlds", "w.sdf")
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	w, err := LoadFile(p, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if m := w.Bodies[0].Collisions[0].Geometry.Mesh; m == nil || len(m.Triangles) != 1 {
		t.Errorf("mesh %+v", m)
	}
	// The same world from an fs.FS rooted at its folder cannot climb out.
	_, err = Load(os.DirFS(filepath.Join(dir, "worlds")), "w.sdf", Options{})
	if err == nil || !strings.Contains(err.Error(), "leaves the folder") {
		t.Errorf("climbing out of an fs.FS: %v", err)
	}
}

func TestLongFrameChain(t *testing.T) {
	var b strings.Builder
	b.WriteString(`<sdf version="1.9"><world name="w"><model name="m"><static>true</static>`)
	for i := range 1500 {
		fmt.Fprintf(&b, `<link name="l%d"><pose relative_to="l%d">0 0 0.001 0 0 0</pose></link>`, i, i+1)
	}
	b.WriteString(`<link name="l1500"/></model></world></sdf>`)
	_, err := Parse([]byte(b.String()), "chain.sdf", Options{})
	if err == nil || !strings.Contains(err.Error(), "more than 1000 frames") {
		t.Errorf("error %v", err)
	}
}
