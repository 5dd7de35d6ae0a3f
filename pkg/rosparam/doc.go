// Package rosparam gives Go nodes the ROS 2 parameters that rclgo lacks,
// in plain Go with no ROS dependency, so that it is tested without ROS and
// the ROS layer only has to wire services and a topic to it.
//
// The pieces, in the order a node uses them:
//
//   - ParseArgs splits the command line as rcl does: the --ros-args blocks
//     (-p, --params-file, -r, --log-level, ...) and the node's own arguments.
//     Args.ResolveNode applies the __node/__ns remaps, FullyQualifiedName
//     gives the name that parameters files are matched against.
//   - Overrides holds what --params-file and -p gave, with rcl's node-name
//     matching (plain "drv" is "/drv", "/ns/drv", wildcards "/**", "/**/drv",
//     "/ns/*") and rcl's typing of YAML scalars.
//   - Table is each node's parameter table, provided by the node's core
//     package: name, type, default, unit, description, range and step,
//     read-only flag, validator.
//   - New(Config) declares the table with the overrides into a Store, which
//     implements the six parameter services (ListParameters, GetParameters,
//     SetParameters, SetParametersAtomically, DescribeParameters,
//     GetParameterTypes) with rclcpp's semantics and reasons, reports each
//     accepted update to the node (Config.OnChange) and as a ParameterEvent
//     for /parameter_events (Config.OnEvent), and dumps itself in the
//     `ros2 param dump` layout.
//   - Clock follows use_sim_time: the system clock, or the latest /clock.
//
// The message types (ParameterValue, ParameterDescriptor, ParameterEvent,
// ...) mirror rcl_interfaces field for field, so converting to and from the
// rclgo-generated types is a field copy.
//
// YAML is read with gopkg.in/yaml.v3 (node API, to see quoting), then typed
// with rcl's own rules, not YAML 1.2's: `yes`, `on`, `0x10` and `.inf` mean
// what they mean to a C++ node. See docs/parameters.md for what is
// supported and where behaviour differs from rclcpp.
package rosparam
