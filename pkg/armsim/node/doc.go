// Package node is the ROS 2 contract of the arm_sim node, in pure Go (no
// rclgo): its name (Name), the topic of the simulated joint states
// (TopicJointStates, jog_server's joint_states), the QoS profiles, its
// parameter table (Bindings, ParameterTable: robot_description,
// base_link, tip_link, rate [Hz], initial_positions [rad or m],
// default_velocity [rad/s or m/s], trajectory_topic), LoadConfig (the
// start-up parameters, checked) and NewArm (the simulated arm of a
// Config, on the wall clock).
//
// cmd/arm_sim and the tools read this package instead of restating it; it
// imports the runtime (package armsim), never the other way round.
package node
