// Package rosqos decides the quality of service of a node's sensor
// publishers as rclcpp does for publishers created with
// QosOverridingOptions: each publisher has a default profile (REP-2003's
// system default for sensor drivers: reliable, volatile, keep last 10) and
// four read-only parameters that override it at start-up,
//
//	qos_overrides.<topic>.publisher.reliability   reliable | best_effort | system_default
//	qos_overrides.<topic>.publisher.durability    volatile | transient_local | system_default
//	qos_overrides.<topic>.publisher.history       keep_last | keep_all | system_default
//	qos_overrides.<topic>.publisher.depth         integer >= 0 (>= 1 with keep_last)
//
// where <topic> is the fully qualified topic name after the node's
// namespace and remap rules (Resolve), e.g.
// qos_overrides./f1/front/image_raw.publisher.reliability.
//
// The package is plain data and functions: the parameter table entries
// (Params), the profile they give (Profile) and the parsers of each policy
// are tested without ROS; internal/rosnode declares the parameters and
// hands the resulting profile to rclgo.
package rosqos
