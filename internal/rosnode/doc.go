// Package rosnode is the part of every telebridge ROS 2 node that talks to
// rclgo: start-up from the command line (--ros-args), the parameter services
// and /parameter_events backed by pkg/rosparam, use_sim_time through /clock,
// QoS translation from pkg/qos, tf and time stamps.
//
// Run is the one skeleton of every node's main: from a Spec (name,
// parameter table and config loader of pkg/<machine>/node) it starts the
// node, loads its configuration and calls the node's setup, which builds
// the core, wires it to publishers, subscriptions and services, and
// registers the node's goroutines (Node.Go), its live parameter handlers
// (Node.Live) and its last words (Node.Finally). Run owns the rest:
// signals, spinning, the ordered shutdown (every goroutine, the machine's
// runtime among them, has returned, so the machine has been told to stop,
// before the process exits) and error reporting.
//
// Its rclgo parts are built only with the `ros2` tag (they need ROS 2
// Humble and the bindings generated into internal/rosmsg); the skeleton's
// goroutine group and live parameter handlers (tasks.go) are plain Go,
// tested without ROS. It holds no decisions of its
// own: parameter tables, topic names, frames and QoS choices come from the
// core packages, and this package only copies them into rclgo calls and
// messages.
package rosnode
