// Package node is the ROS 2 contract of the servosila_driver node, pure Go
// (no rclgo): the node name, topic and service names with their message
// types and QoS, the parameter tables (the node's own rows and the
// driver's, DriverBindings), node-configuration loading (LoadConfig),
// live reconfiguration from parameters (ValidateLive, Reconfigure), the
// joint states published on joint_states ([rad], named as the URDF's
// joints) and the diagnostics.
//
// cmd/servosila_driver, the console's graph backend, internal/tools/paramsyaml
// and the docs read these instead of restating them.
package node
