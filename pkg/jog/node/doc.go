// Package node is the ROS 2 contract of the jog_server node, in pure Go
// (no rclgo): its name (Name) and the drag&bot names and types of its
// services and topics (names.go), their QoS profiles (qos.go), and its
// parameters (config.go): ParameterTable (the drag&bot table of
// jog.ParameterTable, then robot_description, trajectory_topic,
// stamp_trajectories and interface_namespace; NamesIn in namespace.go
// puts the drag&bot names under the latter), ValidateUpdate (the
// cross-parameter check), Config and LoadConfig (start-up parameters,
// checked), NewController (the controller of a Config) and ParamsFromFile
// (the jog parameters of a ROS 2 parameters file, as the node would
// declare them).
//
// cmd/jog_server, the console's backends and internal/tools/paramsyaml read
// this package instead of restating it. It imports the runtime (package
// jog), never the other way round.
//
// Units: heartbeat_timeout and the other durations in [s]; see package jog
// for the parameters' units.
package node
