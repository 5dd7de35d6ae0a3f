// Package cmdvel holds what every cmd_vel subscriber of telebridge decides
// the same way: whether it takes geometry_msgs/Twist (Humble's Nav2 and
// twist_mux) or geometry_msgs/TwistStamped (the parameter ParamStamped,
// read at start), and, for stamped commands, whether a command is fresh by
// its header stamp (Check).
//
// The ROS layer (cmd/servosila_driver, cmd/furbot_twist_control) declares
// the parameter from Binding, subscribes the type it names and calls Check
// with the node's clock (ROS time, /clock with use_sim_time) before it
// hands the command to its core. The package knows nothing of ROS.
package cmdvel
