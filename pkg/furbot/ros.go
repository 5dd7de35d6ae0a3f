package furbot

import "github.com/telebridge/telebridge/pkg/qos"

// Frame ids of the odometry (REP 105): the odometry is the pose of
// base_link (middle of the rear axle, x forward, y left, z up) in odom.
const (
	FrameOdom = "odom"
	FrameBase = "base_link"
)

// Topic is one ROS 2 topic of the Furbot node, decided here so that the
// thin ROS layer only copies values.
type Topic struct {
	Name      string      // relative to the node namespace
	Type      string      // ROS 2 message type
	Publish   bool        // true: published by the node; false: subscribed
	RateHz    float64     // publishing rate [Hz] (0: on arrival)
	QoS       qos.Profile // quality of service (package qos presets)
	Condition string      // when it is published or what it carries
}

// Topics lists the node's topics. Telemetry is published at the bridge's
// rate once every subsystem has worked (Snapshot); vendor blocks use the
// custom messages of telebridge_interfaces.
var Topics = []Topic{
	{"cmd_vel", "geometry_msgs/msg/Twist", false, 0, qos.Default, "velocity command; stale after command_timeout"},
	{"odom", "nav_msgs/msg/Odometry", true, FrameRate, qos.Default, "Snapshot.Odom, frame odom, child base_link"},
	{"furbot/traction", "telebridge_interfaces/msg/TractionData", true, FrameRate, qos.SensorData, "Status.Traction, raw fields"},
	{"furbot/steering", "telebridge_interfaces/msg/SteeringData", true, FrameRate, qos.SensorData, "Status.Steering, raw fields"},
	{"furbot/control_signals", "telebridge_interfaces/msg/ControlSignals", true, FrameRate, qos.SensorData, "Snapshot.Control: the frame sent"},
	{"furbot/hydraulics", "telebridge_interfaces/msg/HydraulicsData", true, FrameRate, qos.SensorData, "Status.Hydraulics and Suspension"},
	{"furbot/forks", "telebridge_interfaces/msg/ForkData", true, FrameRate, qos.SensorData, "Status.Forks"},
	{"battery", "sensor_msgs/msg/BatteryState", true, 1, qos.Default, "Status.BMS in SI units"},
	{"diagnostics", "diagnostic_msgs/msg/DiagnosticArray", true, 1, qos.Default, "subsystem states and BridgeStats"},
}

// TF lists the transforms the node broadcasts: odom -> base_link at the
// bridge's rate, from Snapshot.Odom.
var TF = [][2]string{{FrameOdom, FrameBase}}
