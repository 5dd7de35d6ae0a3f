package cmdvel

// Topic names of the twist_mux configuration (params/twist_mux.yaml),
// relative to the robot's namespace, where twist_mux runs with
// twist_mux:=true (servosila.launch.py, furbot.launch.py) and publishes
// its choice on the robot's cmd_vel.
const (
	// TopicTeleop is the operator's geometry_msgs/Twist input (the
	// console's with twist_mux:=true); it overrides TopicNav while its
	// messages are younger than its timeout.
	TopicTeleop = "cmd_vel_teleop"
	// TopicNav is Nav2's geometry_msgs/Twist input (remap the
	// controller's cmd_vel to it).
	TopicNav = "cmd_vel_nav"
	// TopicLock is the e-stop lock, std_msgs/Bool: true mutes every
	// input. The console publishes it with its e-stop and release.
	TopicLock = "e_stop"
)
