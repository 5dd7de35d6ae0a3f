package node

import (
	"github.com/telebridge/telebridge/pkg/furbot/wire"
	"github.com/telebridge/telebridge/pkg/qos"
	"github.com/telebridge/telebridge/pkg/rosqos"
)

// Node names of the Furbot ROS 2 stack (seed 003's architecture): the
// bridge speaks UDP to the vehicle, the twist controller closes the speed
// loop, the odometry node integrates the wheel speeds.
const (
	BridgeName   = "furbot_bridge"        // UDP <-> ROS for every subsystem
	TwistName    = "furbot_twist_control" // cmd_vel + feedback -> ControlSignals
	OdometryName = "furbot_odometry"      // TractionData -> odom + tf
)

// Frame ids of the odometry (REP 105): the odometry is the pose of
// base_link (middle of the rear axle, x forward, y left, z up) in odom.
// They are the defaults of the nodes' frame parameters.
const (
	FrameOdom = "odom"
	FrameBase = "base_link"
)

// Topic and service names of the stack. Relative names follow the nodes'
// namespace and remaps; "~/" names are private to the node.
const (
	TopicCmdVel      = "cmd_vel"                // geometry_msgs/Twist: linear.x [m/s], angular.z [rad/s]
	TopicOdom        = "odom"                   // nav_msgs/Odometry
	TopicTF          = "/tf"                    // tf2_msgs/TFMessage: odom -> base_link
	TopicTraction    = "furbot/traction"        // TractionData
	TopicSteering    = "furbot/steering"        // SteeringData
	TopicControl     = "furbot/control_signals" // ControlSignals: twist control -> bridge
	TopicControlSent = "furbot/control_sent"    // ControlSignals: the frame the bridge sent
	TopicBattery     = "furbot/battery"         // sensor_msgs/BatteryState
	TopicBMS         = "furbot/bms"             // BmsData: what BatteryState lacks
	TopicHydraulics  = "furbot/hydraulics"      // HydraulicsData
	TopicSuspension  = "furbot/suspension"      // SuspensionData (RL, RR, FL, FR)
	TopicForks       = "furbot/forks"           // ForkData (rear, front)
	TopicStatus      = "furbot/status"          // VehicleStatus: states, comm and motion blocks
	TopicDiagnostics = "/diagnostics"           // diagnostic_msgs/DiagnosticArray
	ServiceEStop     = "~/estop"                // std_srvs/Trigger on the bridge: latch the e-stop
	ServiceRelease   = "~/release"              // std_srvs/Trigger on the bridge: release it
)

// QoS of the stack's topics. Commands and odometry are reliable (Nav2 and
// RViz subscribe reliably). The 100 Hz telemetry goes out with REP-2003's
// system default (reliable, keep last 10), as every sensor publisher of
// the stack (BridgePublishers, OdometryPublishers), so that reliable and
// best-effort subscribers both receive; the stack's own nodes subscribe
// to it best effort (QoSTelemetrySub: a lost sample is replaced 10 ms
// later, and a publisher overridden to best effort still matches). The
// control signals between the twist controller and the bridge are
// reliable: they are commands.
var (
	QoSCmdVel       = qos.Default
	QoSOdom         = qos.Default
	QoSTF           = qos.Default
	QoSTelemetry    = rosqos.SensorProfile
	QoSTelemetrySub = qos.SensorData
	QoSControl      = qos.Default
	QoSBattery      = qos.Default
	QoSDiagnostics  = qos.Default
	QoSServices     = qos.Services
)

// Topic is one ROS 2 topic of a Furbot node, decided here so that the thin
// ROS layer only copies values.
type Topic struct {
	Node      string      // BridgeName, TwistName or OdometryName
	Name      string      // relative to the node namespace
	Type      string      // ROS 2 message type
	Publish   bool        // true: published by Node; false: subscribed
	RateHz    float64     // publishing rate [Hz] (0: on arrival)
	QoS       qos.Profile // quality of service (package qos presets)
	Condition string      // when it is published or what it carries
}

const (
	tbi = "telebridge_interfaces/msg/"
	tel = "once every subsystem has worked (Snapshot)"
)

// Topics lists every topic of the stack, per node. Telemetry is published
// at the bridge's rate once every subsystem has worked; vendor blocks use
// the custom messages of telebridge_interfaces, raw fields plus SI.
var Topics = []Topic{
	{BridgeName, TopicTraction, tbi + "TractionData", true, wire.FrameRate, QoSTelemetry, tel},
	{BridgeName, TopicSteering, tbi + "SteeringData", true, wire.FrameRate, QoSTelemetry, tel},
	{BridgeName, TopicStatus, tbi + "VehicleStatus", true, wire.FrameRate, QoSTelemetry, tel},
	{BridgeName, TopicBMS, tbi + "BmsData", true, wire.FrameRate, QoSTelemetry, tel},
	{BridgeName, TopicHydraulics, tbi + "HydraulicsData", true, wire.FrameRate, QoSTelemetry, tel},
	{BridgeName, TopicSuspension, tbi + "SuspensionData", true, wire.FrameRate, QoSTelemetry, tel},
	{BridgeName, TopicForks, tbi + "ForkData", true, wire.FrameRate, QoSTelemetry, tel},
	{BridgeName, TopicControlSent, tbi + "ControlSignals", true, wire.FrameRate, QoSTelemetry, "the control frame sent in the period"},
	{BridgeName, TopicBattery, "sensor_msgs/msg/BatteryState", true, 1, QoSBattery, "BMS block in SI units"},
	{BridgeName, TopicControl, tbi + "ControlSignals", false, 0, QoSControl, "stale after control_timeout: full brake"},
	{BridgeName, TopicDiagnostics, "diagnostic_msgs/msg/DiagnosticArray", true, 1, QoSDiagnostics, "link, subsystems and counters"},
	{TwistName, TopicCmdVel, "geometry_msgs/msg/Twist", false, 0, QoSCmdVel, "stale after command_timeout: brake to a stop"},
	{TwistName, TopicTraction, tbi + "TractionData", false, 0, QoSTelemetrySub, "speed feedback; stale after feedback_timeout: disable"},
	{TwistName, TopicStatus, tbi + "VehicleStatus", false, 0, QoSTelemetrySub, "motion block: hold while the vehicle's e-stop is latched"},
	{TwistName, TopicControl, tbi + "ControlSignals", true, wire.FrameRate, QoSControl, "controller output every period"},
	{OdometryName, TopicTraction, tbi + "TractionData", false, 0, QoSTelemetrySub, "rear wheel speeds, vehicle clock"},
	{OdometryName, TopicSteering, tbi + "SteeringData", false, 0, QoSTelemetrySub, "steering angle (bicycle source)"},
	{OdometryName, TopicOdom, "nav_msgs/msg/Odometry", true, 0, QoSOdom, "per new traction sample, frame odom, child base_link"},
	{OdometryName, TopicTF, "tf2_msgs/msg/TFMessage", true, 0, QoSTF, "odom -> base_link with every odom (publish_tf)"},
	{OdometryName, TopicJointStates, "sensor_msgs/msg/JointState", true, 0, QoSJointStates, "wheel and steering joints of the URDF with every odom (JointStates)"},
}

// BridgePublishers are furbot_bridge's sensor publishers (its telemetry
// and the battery state), whose QoS the qos_overrides.<topic>.publisher.*
// parameters override.
var BridgePublishers = []rosqos.Publisher{
	{Topic: TopicTraction, Default: QoSTelemetry}, {Topic: TopicSteering, Default: QoSTelemetry},
	{Topic: TopicStatus, Default: QoSTelemetry}, {Topic: TopicBMS, Default: QoSTelemetry},
	{Topic: TopicHydraulics, Default: QoSTelemetry}, {Topic: TopicSuspension, Default: QoSTelemetry},
	{Topic: TopicForks, Default: QoSTelemetry}, {Topic: TopicControlSent, Default: QoSTelemetry},
	{Topic: TopicBattery, Default: QoSBattery},
}

// OdometryPublishers are furbot_odometry's sensor publishers (odom and
// joint_states), whose QoS the qos_overrides parameters override.
var OdometryPublishers = []rosqos.Publisher{
	{Topic: TopicOdom, Default: QoSOdom}, {Topic: TopicJointStates, Default: QoSJointStates},
}

// TF lists the transforms the stack broadcasts: odom -> base_link, by
// furbot_odometry.
var TF = [][2]string{{FrameOdom, FrameBase}}
