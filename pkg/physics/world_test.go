package physics_test

import (
	"errors"
	"math"
	"os"
	"testing"

	"github.com/telebridge/telebridge/pkg/physics"
	"github.com/telebridge/telebridge/pkg/physics/ode"
)

// newWorld returns a World or skips with the one-line reason when libode
// is missing (scripts/debian-packages.sh installs it for check.sh and CI).
func newWorld(t testing.TB, cfg physics.Config) *physics.World {
	t.Helper()
	w, err := physics.New(cfg)
	if errors.Is(err, ode.ErrMissing) && os.Getenv("TELEBRIDGE_PHYSICS_TESTS") != "required" {
		t.Skipf("no ODE here (TELEBRIDGE_PHYSICS_TESTS=required makes this a failure): %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := w.Close(); err != nil {
			t.Error(err)
		}
	})
	return w
}

func boxInertial(m, x, y, z float64) physics.Inertial {
	return physics.Inertial{Mass: m, I: [6]float64{m / 12 * (y*y + z*z), m / 12 * (x*x + z*z), m / 12 * (x*x + y*y)}}
}

// Each static shape holds a dropped ball at its surface.
func TestStaticShapesHoldABall(t *testing.T) {
	tri := physics.Shape{Kind: physics.ShapeMesh,
		Vertices:  []physics.Vec3{{-1, -1, 0}, {1, -1, 0}, {1, 1, 0}, {-1, 1, 0}},
		Triangles: [][3]uint32{{0, 1, 2}, {0, 2, 3}}}
	for _, tc := range []struct {
		name  string
		shape physics.Shape
		pose  physics.Pose
		top   float64 // z of the surface under the ball
	}{
		{"plane", physics.Plane(), physics.Pose{Pos: physics.Vec3{0, 0, 0.3}}, 0.3},
		{"box", physics.Box(1, 1, 0.2), physics.Pose{Pos: physics.Vec3{0, 0, 0.1}}, 0.2},
		{"sphere", physics.Sphere(0.5), physics.Pose{}, 0.5},
		{"cylinder", physics.Cylinder(0.5, 0.4), physics.Pose{Pos: physics.Vec3{0, 0, 0.2}}, 0.4},
		{"mesh", tri, physics.Pose{Pos: physics.Vec3{0, 0, 0.25}}, 0.25},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(t, physics.Config{})
			if _, err := w.AddStatic(tc.shape, tc.pose, physics.Material{Friction: 1}); err != nil {
				t.Fatal(err)
			}
			const r = 0.05
			b, err := w.AddBody(physics.BodySpec{Name: "ball", Inertial: physics.Inertial{Mass: 1, I: [6]float64{0.001, 0.001, 0.001}},
				Pose: physics.Pose{Pos: physics.Vec3{0, 0, tc.top + 0.2}}, Shapes: []physics.BodyShape{{Shape: physics.Sphere(r), Material: physics.Material{Friction: 1}}}})
			if err != nil {
				t.Fatal(err)
			}
			if err := w.Step(1500); err != nil {
				t.Fatal(err)
			}
			p, _ := b.Pose()
			if math.Abs(p.Pos[2]-(tc.top+r)) > 3e-3 {
				t.Fatalf("ball at z %.4f, want %.4f", p.Pos[2], tc.top+r)
			}
		})
	}
}

// A motored hinge turns at its target velocity and holds its load; a
// load over its torque limit wins; the limits stop it.
func TestHingeMotorAndLimits(t *testing.T) {
	setup := func(t *testing.T, maxTorque, lo, hi float64) (*physics.World, *physics.Hinge) {
		w := newWorld(t, physics.Config{})
		// A 1 kg bar 0.5 m long, hinged at one end about y, horizontal:
		// gravity's torque about the hinge is 1 * 9.81 * 0.25 = 2.45 N m.
		bar, err := w.AddBody(physics.BodySpec{Name: "bar", Inertial: physics.Inertial{Mass: 1, CoM: physics.Vec3{0.25, 0, 0}, I: [6]float64{1e-4, 0.0208, 0.0208}},
			Pose: physics.Pose{Pos: physics.Vec3{0, 0, 1}}})
		if err != nil {
			t.Fatal(err)
		}
		h, err := w.AddHinge(physics.HingeSpec{Name: "j", Child: bar, Anchor: physics.Vec3{0, 0, 1}, Axis: physics.Vec3{0, -1, 0}, MaxTorque: maxTorque, Lower: lo, Upper: hi})
		if err != nil {
			t.Fatal(err)
		}
		return w, h
	}
	t.Run("holds", func(t *testing.T) {
		w, h := setup(t, 5, 0, 0)
		if err := w.Step(1000); err != nil {
			t.Fatal(err)
		}
		a, _ := h.Angle()
		tq, _ := h.Torque()
		if math.Abs(a) > 0.01 || math.Abs(tq-2.4525) > 0.05 {
			t.Fatalf("held at %.4f rad with %.3f N m; want 0 and 2.45 N m", a, tq)
		}
	})
	t.Run("turns", func(t *testing.T) {
		w, h := setup(t, 5, 0, 0)
		if err := h.SetVelocity(0.5); err != nil {
			t.Fatal(err)
		}
		if err := w.Step(1000); err != nil {
			t.Fatal(err)
		}
		a, _ := h.Angle()
		r, _ := h.Rate()
		if math.Abs(a-0.5) > 0.01 || math.Abs(r-0.5) > 0.01 {
			t.Fatalf("after 1 s at 0.5 rad/s: %.4f rad, %.4f rad/s", a, r)
		}
	})
	t.Run("too weak", func(t *testing.T) {
		w, h := setup(t, 1, 0, 0)
		if err := w.Step(300); err != nil {
			t.Fatal(err)
		}
		if a, _ := h.Angle(); a > -0.1 {
			t.Fatalf("a 1 N m motor held a 2.45 N m load: angle %.3f", a)
		}
	})
	t.Run("limit", func(t *testing.T) {
		w, h := setup(t, 0, -0.3, 0.3)
		if err := w.Step(2000); err != nil {
			t.Fatal(err)
		}
		if a, _ := h.Angle(); math.Abs(a+0.3) > 0.02 {
			t.Fatalf("free bar rests at %.3f rad, want the low stop -0.3", a)
		}
	})
}

func TestBadInputIsAnError(t *testing.T) {
	w := newWorld(t, physics.Config{})
	cases := []func() error{
		func() error {
			_, err := w.AddStatic(physics.Box(-1, 1, 1), physics.Pose{}, physics.Material{})
			return err
		},
		func() error {
			_, err := w.AddStatic(physics.Sphere(math.NaN()), physics.Pose{}, physics.Material{})
			return err
		},
		func() error {
			_, err := w.AddStatic(physics.Shape{Kind: physics.ShapeMesh, Vertices: []physics.Vec3{{}, {}, {}}, Triangles: [][3]uint32{{0, 1, 7}}}, physics.Pose{}, physics.Material{})
			return err
		},
		func() error {
			_, err := w.AddStatic(physics.Box(1, 1, 1), physics.Pose{Rot: physics.Quat{2, 0, 0, 0}}, physics.Material{})
			return err
		},
		func() error {
			_, err := w.AddStatic(physics.Box(1, 1, 1), physics.Pose{}, physics.Material{Friction: -1})
			return err
		},
		func() error { _, err := w.AddBody(physics.BodySpec{Inertial: physics.Inertial{Mass: 0}}); return err },
		func() error {
			_, err := w.AddBody(physics.BodySpec{Inertial: physics.Inertial{Mass: 1, I: [6]float64{1, 1, 5}}})
			return err
		},
		func() error {
			_, err := w.AddBody(physics.BodySpec{Inertial: boxInertial(1, 1, 1, 1), Shapes: []physics.BodyShape{{Shape: physics.Plane()}}})
			return err
		},
		func() error { _, err := w.AddHinge(physics.HingeSpec{}); return err },
		func() error { return w.Step(0) },
	}
	for i, f := range cases {
		if err := f(); err == nil {
			t.Errorf("case %d: no error", i)
		}
	}
	if _, err := physics.New(physics.Config{Step: -1}); err == nil {
		t.Error("negative step accepted")
	}
	b, err := w.AddBody(physics.BodySpec{Inertial: boxInertial(1, 1, 1, 1)})
	if err != nil {
		t.Fatal(err)
	}
	h, err := w.AddHinge(physics.HingeSpec{Child: b, Axis: physics.Vec3{0, 0, 1}})
	if err != nil {
		t.Fatal(err)
	}
	if err := h.SetVelocity(1); err == nil {
		t.Error("velocity accepted by a hinge without a motor")
	}
	w.Close()
	if err := w.Step(1); !errors.Is(err, physics.ErrClosed) {
		t.Errorf("step after close: %v", err)
	}
	if _, err := b.Pose(); !errors.Is(err, physics.ErrClosed) {
		t.Errorf("pose after close: %v", err)
	}
}

// A belted box drives itself across a platform at the belt's speed,
// whichever geom ODE puts first in the contact (the platform is a
// dynamic body here, so both orders occur depending on which was added
// first); reversing the belt reverses it; a stopped belt holds.
func TestBeltDrivesBody(t *testing.T) {
	for _, beltFirst := range []bool{true, false} {
		w := newWorld(t, physics.Config{})
		if _, err := w.AddStatic(physics.Plane(), physics.Pose{}, physics.Material{Friction: 1}); err != nil {
			t.Fatal(err)
		}
		belt := w.NewBelt()
		var car *physics.Body
		addCar := func() {
			var err error
			car, err = w.AddBody(physics.BodySpec{Name: "car", Inertial: boxInertial(10, 0.4, 0.2, 0.1), Pose: physics.Pose{Pos: physics.Vec3{0, 0, 0.251}},
				Shapes: []physics.BodyShape{{Shape: physics.Box(0.4, 0.2, 0.1), Material: physics.Material{Friction: 1}, Belt: belt, BeltAxis: physics.Vec3{0, 1, 0}}}})
			if err != nil {
				t.Fatal(err)
			}
		}
		addPlatform := func() {
			if _, err := w.AddBody(physics.BodySpec{Name: "platform", Inertial: boxInertial(1000, 4, 4, 0.2), Pose: physics.Pose{Pos: physics.Vec3{0, 0, 0.1}},
				Shapes: []physics.BodyShape{{Shape: physics.Box(4, 4, 0.2), Material: physics.Material{Friction: 1}}}}); err != nil {
				t.Fatal(err)
			}
		}
		if beltFirst {
			addCar()
			addPlatform()
		} else {
			addPlatform()
			addCar()
		}
		if err := w.Step(200); err != nil {
			t.Fatal(err)
		}
		for _, speed := range []float64{0.3, -0.2, 0} {
			if err := belt.SetSpeed(speed); err != nil {
				t.Fatal(err)
			}
			if err := w.Step(500); err != nil {
				t.Fatal(err)
			}
			v, _, err := car.Velocity()
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(v[0]-speed) > 0.01 || math.Abs(v[1]) > 0.01 {
				t.Errorf("belt first %v: belt at %.2f m/s, car at %v m/s", beltFirst, speed, v)
			}
		}
	}
}
