package physics_test

import (
	"fmt"

	"github.com/telebridge/telebridge/pkg/physics"
)

// A box dropped on the ground comes to rest on it; a motored hinge turns
// a bar at its target velocity.
func Example() {
	w, err := physics.New(physics.Config{}) // 1 kHz, gravity -z
	if err != nil {
		fmt.Println(err) // e.g. libode missing: names libode-dev
		return
	}
	defer w.Close()
	if _, err := w.AddStatic(physics.Plane(), physics.Pose{}, physics.Material{Friction: 0.8}); err != nil {
		fmt.Println(err)
		return
	}
	box, err := w.AddBody(physics.BodySpec{
		Name:     "box",
		Inertial: physics.Inertial{Mass: 2, I: [6]float64{0.0133, 0.0133, 0.0133}},
		Pose:     physics.Pose{Pos: physics.Vec3{0, 0, 0.5}},
		Shapes:   []physics.BodyShape{{Shape: physics.Box(0.2, 0.2, 0.2), Material: physics.Material{Friction: 0.8}}},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	bar, _ := w.AddBody(physics.BodySpec{Name: "bar", Inertial: physics.Inertial{Mass: 1, CoM: physics.Vec3{0.25, 0, 0}, I: [6]float64{1e-4, 0.02, 0.02}},
		Pose: physics.Pose{Pos: physics.Vec3{2, 0, 1}}})
	hinge, _ := w.AddHinge(physics.HingeSpec{Name: "j", Child: bar, Anchor: physics.Vec3{2, 0, 1}, Axis: physics.Vec3{0, 0, 1}, MaxTorque: 10})
	_ = hinge.SetVelocity(0.5)           // rad/s
	if err := w.Step(2000); err != nil { // 2 s
		fmt.Println(err)
		return
	}
	p, _ := box.Pose()
	a, _ := hinge.Angle()
	fmt.Printf("box at z %.2f m, hinge at %.2f rad after %v\n", p.Pos[2], a, w.Time())
}
