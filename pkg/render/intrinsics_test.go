package render

import (
	"errors"
	"math"
	"testing"

	"gonum.org/v1/gonum/spatial/r3"

	"github.com/telebridge/telebridge/pkg/geom"
)

// TestProjectionMatchesPinhole: the clip matrix puts a point at GL window
// position (u+0.5, v+0.5) of its pinhole pixel (u, v), and maps near and
// far to depth -1 and 1.
func TestProjectionMatchesPinhole(t *testing.T) {
	in := FromK(frontLeftK, 752, 480)
	in.Skew = 0.7
	in.Near, in.Far = 0.1, 50
	p := in.Projection()
	for _, pt := range []r3.Vec{{X: 0, Y: 0, Z: 1}, {X: 0.3, Y: -0.2, Z: 2}, {X: -4, Y: 3, Z: 10}, {X: 0.01, Y: 0.02, Z: 0.1}, {X: 1, Y: 1, Z: 50}} {
		clip := [4]float64{}
		for i := range 4 {
			clip[i] = p[i][0]*pt.X + p[i][1]*pt.Y + p[i][2]*pt.Z + p[i][3]
		}
		wx := (clip[0]/clip[3] + 1) / 2 * float64(in.Width)
		wy := (clip[1]/clip[3] + 1) / 2 * float64(in.Height)
		u, v, ahead := in.Project(pt)
		if !ahead || math.Abs(wx-(u+0.5)) > 1e-9 || math.Abs(wy-(v+0.5)) > 1e-9 {
			t.Errorf("%v: window (%g, %g), pinhole (%g, %g) + 0.5", pt, wx, wy, u, v)
		}
		// by hand, for the skew term
		if want := in.Fx*pt.X/pt.Z + 0.7*pt.Y/pt.Z + in.Cx; math.Abs(u-want) > 1e-9 {
			t.Errorf("%v: u %g, want %g", pt, u, want)
		}
		zn := clip[2] / clip[3]
		switch pt.Z {
		case in.Near:
			if math.Abs(zn+1) > 1e-9 {
				t.Errorf("depth at near %g, want -1", zn)
			}
		case in.Far:
			if math.Abs(zn-1) > 1e-9 {
				t.Errorf("depth at far %g, want 1", zn)
			}
		}
	}
	if _, _, ahead := in.Project(r3.Vec{Z: -1}); ahead {
		t.Error("a point behind the camera is ahead")
	}
}

// TestOpticalFromLink: the optical z is the link's x (forward), the
// optical x its -y (right), the optical y its -z (down), as URDF's
// rpy="-pi/2 0 -pi/2" optical joint.
func TestOpticalFromLink(t *testing.T) {
	link := geom.Transform{Translation: r3.Vec{X: 1, Y: 2, Z: 3}, Rotation: geom.FromRPY(0, 0, math.Pi/2)} // facing world +y
	o := OpticalFromLink(link)
	for _, tc := range []struct{ optical, world r3.Vec }{
		{r3.Vec{Z: 1}, r3.Vec{X: 1, Y: 3, Z: 3}}, // forward: world +y
		{r3.Vec{X: 1}, r3.Vec{X: 2, Y: 2, Z: 3}}, // right: world +x
		{r3.Vec{Y: 1}, r3.Vec{X: 1, Y: 2, Z: 2}}, // down: world -z
	} {
		if got := o.Apply(tc.optical); r3.Norm(r3.Sub(got, tc.world)) > 1e-12 {
			t.Errorf("optical %v at world %v, want %v", tc.optical, got, tc.world)
		}
	}
}

// TestIntrinsicsValidate: bad calibrations are refused with ErrIntrinsics.
func TestIntrinsicsValidate(t *testing.T) {
	good := FromK(frontLeftK, 752, 480)
	if err := good.Validate(); err != nil {
		t.Fatalf("front_left: %v", err)
	}
	for _, tc := range []struct {
		name string
		edit func(*Intrinsics)
	}{
		{"zero width", func(in *Intrinsics) { in.Width = 0 }},
		{"odd width", func(in *Intrinsics) { in.Width = 751 }},
		{"too tall", func(in *Intrinsics) { in.Height = MaxSide + 1 }},
		{"zero fx", func(in *Intrinsics) { in.Fx = 0 }},
		{"NaN fy", func(in *Intrinsics) { in.Fy = math.NaN() }},
		{"Inf cx", func(in *Intrinsics) { in.Cx = math.Inf(1) }},
		{"near past far", func(in *Intrinsics) { in.Near, in.Far = 5, 1 }},
		{"negative near", func(in *Intrinsics) { in.Near = -1 }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := good
			tc.edit(&in)
			if err := in.Validate(); !errors.Is(err, ErrIntrinsics) {
				t.Errorf("Validate: %v, want ErrIntrinsics", err)
			}
		})
	}
}
