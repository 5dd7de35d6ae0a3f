package trainworld_test

import (
	"fmt"
	"math"

	"github.com/telebridge/telebridge/pkg/trainworld"
)

// A course world stepped in lock-step: the robot driven 1 s at 0.4 m/s
// through the vendor simulator's plant interface.
func ExampleNew() {
	w, err := trainworld.New(trainworld.Config{World: "course"})
	if err != nil {
		fmt.Println(err) // e.g. ODE missing: install libode-dev
		return
	}
	defer w.Close()
	p := &trainworld.Plant{W: w}
	if err := p.Drive(0.4, 0.4, new([6]float64)); err != nil {
		fmt.Println(err)
		return
	}
	if err := w.Step(1000); err != nil {
		fmt.Println(err)
		return
	}
	s, err := w.Robot()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("drove %.1f m, tilt %.0f degrees\n", s.Base.Pos[0], s.Tilt*180/math.Pi)
}
