//go:build !ros2

// Command jog_server is the ROS 2 node of the jog services. This build has
// no ROS 2 support: build it with `-tags ros2` against ROS 2 Humble (colcon
// build does), or try the jog logic without ROS: telebridge jog.
package main

import (
	"fmt"
	"os"
)

func main() {
	fmt.Fprintln(os.Stderr, "jog_server: built without ROS 2 (rebuild with -tags ros2, e.g. by colcon build); without ROS, run: telebridge jog")
	os.Exit(2)
}
