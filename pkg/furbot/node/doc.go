// Package node is the ROS 2 contract of the Furbot stack, in pure Go (no
// rclgo): the names of the three nodes (BridgeName furbot_bridge,
// TwistName furbot_twist_control, OdometryName furbot_odometry), their
// topics, services, frames and QoS (Topics, TF), their parameter tables
// and configurations (BridgeNodeBindings, LoadBridgeNodeConfig, ...), the
// cores the thin ROS layer in cmd/<node> wires to its callbacks
// (TwistControl, OdomTracker, JointStates, DiagnoseBridge) and the joint
// names of the vehicle's URDF description.
//
// cmd/<node>, internal/rosnode, the console's graph backend, the
// parameter YAML generator (internal/tools/paramsyaml) and the docs read
// these values instead of restating them. Units are SI (m, m/s, rad,
// rad/s, s) and frames follow REP 103/105: odom -> base_link, base_link in
// the middle of the rear axle.
package node
