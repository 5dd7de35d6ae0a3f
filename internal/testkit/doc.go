// Package testkit holds nothing itself: its sub-packages are the helpers that
// only tests and checks use (a browser driver, URDF and Nav2 fixtures, launch
// file and ROS console checks, a runner for the parts of a test rig, and
// simrig, the simulator + impairment proxy + driver rig of the machines). The
// rclgo glue lives in internal/rosnode and the command-line tools in
// internal/tools, so that nothing a node ships imports a test helper.
package testkit
