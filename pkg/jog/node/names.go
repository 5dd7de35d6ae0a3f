package node

// Names of the jog server's ROS 2 interfaces. They are the drag&bot control
// panel's, so that its GUI and scripts work unchanged. The types are given
// as "package/kind/Name"; telebridge_interfaces are defined in the
// repository's interfaces/ folder.
// Their QoS profiles are in qos.go.
const (
	// Name is the ROS 2 node name.
	Name = "jog_server"

	// HeartbeatService resets the heartbeat timer (std_srvs/srv/Trigger).
	HeartbeatService     = "/dnb_remote_robot_control/heartbeat"
	HeartbeatServiceType = "std_srvs/srv/Trigger"
	// HeartbeatTopic resets the timer too when a true arrives
	// (std_msgs/msg/Bool, jog.Controller.HeartbeatMessage). Kept for
	// compatibility: topics can be queued or delayed on a bridge, so the
	// service is preferred.
	HeartbeatTopic     = "/heartbeat"
	HeartbeatTopicType = "std_msgs/msg/Bool"
	// SetHeartbeatTimeoutService changes heartbeat_timeout live
	// (telebridge_interfaces/srv/SetFloat, [s]).
	SetHeartbeatTimeoutService     = "/dnb_remote_robot_control/set_heartbeat_timeout"
	SetHeartbeatTimeoutServiceType = "telebridge_interfaces/srv/SetFloat"

	// StartJointMoveService starts a joint move
	// (telebridge_interfaces/srv/StartJointMove).
	StartJointMoveService     = "/remotecontrol_start_move_joints"
	StartJointMoveServiceType = "telebridge_interfaces/srv/StartJointMove"
	// StartCartesianMoveService starts a Cartesian move
	// (telebridge_interfaces/srv/StartCartesianMove).
	StartCartesianMoveService     = "/remotecontrol_start_move_cartesian"
	StartCartesianMoveServiceType = "telebridge_interfaces/srv/StartCartesianMove"
	// StopService stops any motion at once (std_srvs/srv/Trigger). The
	// drag&bot page gives the start-joint-move name here, evidently a
	// slip; this is the name telebridge uses.
	StopService     = "/remotecontrol_stop_move"
	StopServiceType = "std_srvs/srv/Trigger"

	// JointStatesTopic is where the arm's measured joint positions come
	// from (sensor_msgs/msg/JointState).
	JointStatesTopic     = "/joint_states"
	JointStatesTopicType = "sensor_msgs/msg/JointState"
	// TrajectoryTopic is where the joint targets go: a ros2_control
	// joint_trajectory_controller's command topic
	// (trajectory_msgs/msg/JointTrajectory, one point per message).
	TrajectoryTopic     = "/joint_trajectory_controller/joint_trajectory"
	TrajectoryTopicType = "trajectory_msgs/msg/JointTrajectory"

	// TFTopic and TFStaticTopic feed the reference frames (a tf.Buffer as the jog.FrameSource).
	TFTopic       = "/tf"
	TFStaticTopic = "/tf_static"
	TFTopicType   = "tf2_msgs/msg/TFMessage"
)
