package furbotsim_test

import (
	"fmt"

	"github.com/telebridge/telebridge/pkg/furbot"
	"github.com/telebridge/telebridge/pkg/furbotsim"
)

func ExampleVehicle() {
	v, err := furbotsim.NewVehicle(furbotsim.Params{StartupTime: 0.5})
	if err != nil {
		fmt.Println(err)
		return
	}
	// Two seconds at 100 Hz: 40 % throttle, steering 0.2 rad to the left.
	for i := 0; i < 200; i++ {
		v.Step(0.01, furbotsim.Inputs{Throttle: 0.4, Steer: 0.2})
	}
	var s furbot.Status
	v.Status(&s, 2000, furbotsim.Link{})
	tr := v.Truth()
	fmt.Printf("all working %v, speed %.2f m/s (frame %d mm/s), turned left %v\n",
		s.AllWorking(), tr.V, s.Traction.Speed, tr.Yaw > 0)
	// Output: all working true, speed 1.19 m/s (frame 1188 mm/s), turned left true
}
