package main

import (
	"testing"

	"github.com/telebridge/telebridge/pkg/sdf"
)

// TestRenderColours draws a red box on a grey ground with a green marker
// and checks the pixels under each.
func TestRenderColours(t *testing.T) {
	w, err := sdf.Parse([]byte(`<sdf version="1.9"><world name="t">
	<model name="g"><static>true</static><link name="l"><collision name="c"><geometry><plane/></geometry></collision>
	  <visual name="c"><geometry><plane/></geometry><material><diffuse>0.5 0.5 0.5 1</diffuse></material></visual></link></model>
	<model name="b"><static>true</static><pose>1 1 0.5 0 0 0</pose><link name="l">
	  <collision name="c"><geometry><box><size>1 1 1</size></box></geometry></collision>
	  <visual name="c"><geometry><box><size>1 1 1</size></box></geometry><material><diffuse>1 0 0 1</diffuse></material></visual></link></model>
	<model name="m"><static>true</static><pose>-1 -1 0 0 0 0</pose><link name="l">
	  <visual name="d"><geometry><cylinder><radius>0.3</radius><length>0.01</length></cylinder></geometry><material><diffuse>0 1 0 1</diffuse></material></visual></link></model>
	</world></sdf>`), "t.sdf", sdf.Options{})
	if err != nil {
		t.Fatal(err)
	}
	// The framed box spans 0.5..1.5 plus a 0.5 m margin: 0..2 m at 10 px/m.
	img, err := render(w, 10, 1.5)
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() != 20 || b.Dy() != 20 {
		t.Fatalf("picture %v, want 20x20", b)
	}
	if c := img.RGBAAt(10, 10); !(c.R > 100 && c.G == 0 && c.B == 0) {
		t.Errorf("box centre pixel %v, want red", c)
	}
	if c := img.RGBAAt(1, 18); !(c.R == c.G && c.G == c.B && c.R > 50) {
		t.Errorf("ground pixel %v, want grey", c)
	}
	// Cut at 0.5 m, the 1 m box is cut through: dark red.
	img, err = render(w, 10, 0.5)
	if err != nil {
		t.Fatal(err)
	}
	if c := img.RGBAAt(10, 10); !(c.R == 51 && c.G == 13 && c.B == 13) {
		t.Errorf("cut box pixel %v, want dark red (0.2, 0.05, 0.05)", c)
	}
}
