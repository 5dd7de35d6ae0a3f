// Package graph is the operator console's backend on a ROS 2 graph: it
// implements console.Backend by talking to the running driver nodes
// (servosila_driver, furbot_bridge and furbot_twist_control, jog_server,
// camera_publisher) over their topics and services, never to a robot's
// socket, which stays owned by its driver node.
//
// Everything that is decided is decided here, without ROS: the node's
// parameters (NodeConfig, NodeBindings), the names of every topic and
// service it uses (Names, from the driver packages' own constants and the
// configured namespaces), what each console command becomes on the graph,
// and how incoming messages make up the console's Snapshot. The ROS layer
// (cmd/operator_console, build tag ros2) only implements Port, which
// publishes and calls services, and hands every message it receives to
// the Backend's On* methods.
//
// Safety: the console is the deadman (it sends zero when a page's command
// expires); the drivers apply their own command timeouts on top, so a dead
// console node stops the machines too. EStop calls the e-stop of every
// machine at once and the jog stop.
package graph
