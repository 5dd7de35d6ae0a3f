//go:build !ros2

// Command operator_console is the operator's browser console as a ROS 2
// node. This build has no ROS 2 support: build it with `-tags ros2`
// against ROS 2 Humble (colcon build does), or run the console without
// ROS against the simulators: telebridge console.
package main

import (
	"fmt"
	"os"
)

func main() {
	fmt.Fprintln(os.Stderr, "operator_console: built without ROS 2 (rebuild with -tags ros2, e.g. by colcon build); without ROS, run: telebridge console")
	os.Exit(2)
}
