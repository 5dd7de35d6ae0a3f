// Package rosconsoletest holds the ROS 2 integration test of the operator
// console: operator_console launched against the telebridge stacks, driven
// in a real headless Chromium, judged by the simulators' truth. It runs
// only with TELEBRIDGE_ROS_CONSOLE_TEST=1 in a sourced ROS 2 environment
// (scripts/ros2-test.d/console.sh); elsewhere it skips and says why.
package rosconsoletest
