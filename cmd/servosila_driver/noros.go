//go:build !ros2

// Command servosila_driver is the ROS 2 node of the Servosila driver. This
// build has no ROS 2 support: build it with `-tags ros2` against ROS 2
// Humble (colcon build does), or use `telebridge servosila` without ROS.
package main

import (
	"fmt"
	"os"
)

func main() {
	fmt.Fprintln(os.Stderr, "servosila_driver: built without ROS 2 (rebuild with -tags ros2, e.g. by colcon build); without ROS, run: telebridge servosila")
	os.Exit(2)
}
