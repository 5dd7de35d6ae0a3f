package crawler_test

import (
	"fmt"

	"github.com/telebridge/telebridge/pkg/physics"
	"github.com/telebridge/telebridge/pkg/physics/crawler"
	"github.com/telebridge/telebridge/pkg/servosila/wire"
)

// The Servosila Engineer from its URDF drives 1 s at 0.4 m/s while its
// flippers rise.
func Example() {
	w, err := physics.New(physics.Config{})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer w.Close()
	if _, err := w.AddStatic(physics.Plane(), physics.Pose{}, physics.Material{Friction: 0.8}); err != nil {
		fmt.Println(err)
		return
	}
	r, err := crawler.New(w, crawler.Config{}) // launch/urdf's servosila_engineer.urdf
	if err != nil {
		fmt.Println(err)
		return
	}
	_ = w.Step(300)                            // settle on the ground
	_ = r.SetTwist(0.4, 0)                     // m/s, rad/s, mixed into the tracks as the robot does
	_ = r.SetJointVelocity(wire.Flippers, 0.3) // rad/s
	if err := w.Step(1000); err != nil {
		fmt.Println(err)
		return
	}
	s, _ := r.State()
	fmt.Printf("at x %.2f m, %.2f m/s, flippers %.2f rad\n", s.Base.Pos[0], s.Forward, s.Joints[wire.Flippers])
}
