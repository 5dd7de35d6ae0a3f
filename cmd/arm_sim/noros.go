//go:build !ros2

// Command arm_sim is a simulated arm on ROS 2. This build has no ROS 2
// support: build it with `-tags ros2` against ROS 2 Humble (colcon build
// does), or run the jog logic against the simulated arm without ROS:
// telebridge jog.
package main

import (
	"fmt"
	"os"
)

func main() {
	fmt.Fprintln(os.Stderr, "arm_sim: built without ROS 2 (rebuild with -tags ros2, e.g. by colcon build); without ROS, run: telebridge jog")
	os.Exit(2)
}
