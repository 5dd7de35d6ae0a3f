// Package rosnode is the part of every telebridge ROS 2 node that talks to
// rclgo: start-up from the command line (--ros-args), the parameter services
// and /parameter_events backed by pkg/rosparam, use_sim_time through /clock,
// QoS translation from pkg/qos, tf and time stamps.
//
// It is built only with the `ros2` tag (it needs ROS 2 Humble and the
// bindings generated into internal/rosmsg). It holds no decisions of its
// own: parameter tables, topic names, frames and QoS choices come from the
// core packages, and this package only copies them into rclgo calls and
// messages.
package rosnode
