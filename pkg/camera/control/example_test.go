package control_test

import (
	"fmt"

	"github.com/telebridge/telebridge/pkg/camera/control"
)

// Demand turns subscriber counts into stream on/off actions.
func ExampleDemand() {
	var d control.Demand
	for _, n := range []int{0, 1, 3, 0} {
		a := d.Update(n, 0)
		switch a {
		case control.Start:
			d.Started()
		case control.Stop:
			d.Stopped()
		}
		fmt.Println(n, "subscribers:", a)
	}
	// Output:
	// 0 subscribers: hold
	// 1 subscribers: start
	// 3 subscribers: hold
	// 0 subscribers: stop
}
