//go:build !ros2

// Command camera_publisher is the ROS 2 node of the V4L2 cameras. This
// build has no ROS 2 support: build it with `-tags ros2` against ROS 2
// Humble (colcon build does), or use `telebridge camera` without ROS.
package main

import (
	"fmt"
	"os"
)

func main() {
	fmt.Fprintln(os.Stderr, "camera_publisher: built without ROS 2 (rebuild with -tags ros2, e.g. by colcon build); without ROS, run: telebridge camera")
	os.Exit(2)
}
