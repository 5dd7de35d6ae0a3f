//go:build !ros2

// Command furbot_odometry is the odometry node of the Furbot stack. This
// build has no ROS 2 support: build it with `-tags ros2` against ROS 2
// Humble (colcon build does), or use `telebridge furbot` without ROS.
package main

import (
	"fmt"
	"os"
)

func main() {
	fmt.Fprintln(os.Stderr, "furbot_odometry: built without ROS 2 (rebuild with -tags ros2, e.g. by colcon build); without ROS, run: telebridge furbot")
	os.Exit(2)
}
