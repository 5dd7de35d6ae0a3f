package node

import "github.com/telebridge/telebridge/pkg/qos"

// QoS of jog_server's topics and services (the ROS layer only translates
// them with rosnode.PubOpts/SubOpts/SrvOpts).
var (
	// QoSHeartbeat: best effort, keep last 1, so that a queued or late
	// heartbeat never keeps a motion alive, and any publisher (reliable
	// or not) matches.
	QoSHeartbeat = qos.Profile{Reliability: qos.BestEffort, Durability: qos.Volatile, History: qos.KeepLast, Depth: 1}
	// QoSJointStates: sensor data (best effort, keep last 5); matches
	// reliable and best-effort publishers; only the newest state counts.
	QoSJointStates = qos.SensorData
	// QoSTrajectory: reliable, keep last 1: the newest target must arrive,
	// an old one is worthless. A ros2_control trajectory controller
	// subscribes reliably.
	QoSTrajectory = qos.Profile{Reliability: qos.Reliable, Durability: qos.Volatile, History: qos.KeepLast, Depth: 1}
	// QoSTF and QoSTFStatic are tf2's listener profiles for /tf and
	// /tf_static (transient local: static transforms sent before the node
	// started still arrive).
	QoSTF       = qos.Profile{Reliability: qos.Reliable, Durability: qos.Volatile, History: qos.KeepLast, Depth: 100}
	QoSTFStatic = qos.StaticTF
	// QoSServices is the services' profile.
	QoSServices = qos.Services
)
