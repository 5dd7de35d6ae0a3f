// Package vizconfig writes the visualisation files telebridge ships: an
// RViz2 (ROS 2 Humble) configuration per robot (rviz/<robot>.rviz) and a
// Foxglove Studio layout per robot (foxglove/telebridge-<robot>.json).
//
// The files hold no decision of their own: a Robot is assembled from the
// nodes' contracts (pkg/servosila/node, pkg/furbot/node, pkg/camera/node,
// pkg/jog/node, the descriptions in launch/urdf), so a renamed topic or
// frame changes the files at the next `go generate ./pkg/vizconfig`, and
// the golden test fails until they are regenerated.
//
// What a file shows, per robot:
//   - the robot model from robot_description (std_msgs/String from
//     robot_state_publisher, reliable and transient local), moved by tf, so
//     joint_states show through the model;
//   - tf (odom -> base_link from the driver, the links from
//     robot_state_publisher), in the fixed frame Robot.FixedFrame;
//   - odometry (nav_msgs/Odometry: pose arrows and covariance in RViz, a
//     plot of twist.twist.linear.x [m/s] and angular.z [rad/s] in Foxglove);
//   - every camera's image (Servosila), subscribed best effort in RViz so
//     that a best-effort or a reliable publisher matches;
//   - /diagnostics and joint_states (Foxglove).
//
// Names are those of the default namespace; Robot.Namespaced gives the
// same robot under a namespace and a frame prefix (what servosila.launch.py
// and furbot.launch.py take as namespace:= and frame_prefix:=).
package vizconfig

//go:generate go run ../../internal/tools/vizconfig -root ../..
