package sim_test

import (
	"fmt"

	"github.com/telebridge/telebridge/pkg/furbot/sim"
	"github.com/telebridge/telebridge/pkg/furbot/wire"
)

func ExampleVehicle() {
	v, err := sim.NewVehicle(sim.Params{StartupTime: 0.5})
	if err != nil {
		fmt.Println(err)
		return
	}
	// Two seconds at 100 Hz: 40 % throttle, steering 0.2 rad to the left.
	for i := 0; i < 200; i++ {
		v.Step(0.01, sim.Inputs{Throttle: 0.4, Steer: 0.2})
	}
	var s wire.Status
	v.Status(&s, 2000, sim.Link{})
	tr := v.Truth()
	fmt.Printf("all working %v, speed %.2f m/s (frame %d mm/s), turned left %v\n",
		s.AllWorking(), tr.V, s.Traction.Speed, tr.Yaw > 0)
	// Output: all working true, speed 1.19 m/s (frame 1188 mm/s), turned left true
}
