package node

import (
	"fmt"
	"math"
	"time"

	"github.com/telebridge/telebridge/pkg/cmdvel"
	"github.com/telebridge/telebridge/pkg/diag"
	"github.com/telebridge/telebridge/pkg/qos"
	"github.com/telebridge/telebridge/pkg/rosparam"
	"github.com/telebridge/telebridge/pkg/rosqos"
	"github.com/telebridge/telebridge/pkg/servosila"
	"github.com/telebridge/telebridge/pkg/servosila/wire"
)

// Config configures the servosila_driver ROS 2 node: the driver and
// what the node publishes. The ROS layer only wires it; every choice is here.
type Config struct {
	// Driver configures the link to the robot.
	Driver servosila.Config
	// OdomFrame and BaseFrame name the odometry frames (REP 105).
	// Defaults "odom" and "base_link".
	OdomFrame, BaseFrame string
	// PublishTF broadcasts odom -> base_link on /tf. Default true; turn it
	// off when another node (a localisation filter) owns that transform.
	PublishTF bool
	// OdomRate is the rate of odom (and tf) [Hz]. Default 20.
	OdomRate float64
	// DiagnosticsPeriod is the period of /diagnostics. Default 1 s.
	DiagnosticsPeriod time.Duration
	// CmdVelStamped subscribes cmd_vel as geometry_msgs/TwistStamped
	// and refuses commands stamped more than the command timeout away
	// from the node's clock (pkg/cmdvel). Default false: Twist.
	CmdVelStamped bool
}

// DefaultConfig returns the node's defaults.
func DefaultConfig() Config {
	c := Config{OdomFrame: "odom", BaseFrame: "base_link", PublishTF: true, OdomRate: 20, DiagnosticsPeriod: time.Second}
	c.Driver.FillPointers()
	def, err := c.Driver.WithDefaults()
	if err == nil {
		c.Driver = def
	}
	return c
}

// Topic, service and node names of servosila_driver. Relative names follow
// the node's namespace and remaps; "~/" names are private to the node.
const (
	Name             = "servosila_driver"
	TopicCmdVel      = "cmd_vel"            // geometry_msgs/Twist (TwistStamped with cmd_vel_stamped) in, base_link: linear.x [m/s], angular.z [rad/s]
	TopicOdom        = "odom"               // nav_msgs/Odometry out, dead reckoning
	TopicJointStates = "joint_states"       // sensor_msgs/JointState out, JointStateJoints from telemetry [rad], odom_rate
	TopicJointVel    = "~/joint_velocities" // sensor_msgs/JointState in: name + velocity [rad/s]
	TopicJointTarget = "~/joint_targets"    // sensor_msgs/JointState in: name + position [rad]
	// TopicJointTrajectory: trajectory_msgs/JointTrajectory in, e.g. from
	// jog_server: the first point is followed with its velocities on to the
	// last one (arm.Trajectories); positions only: position targets.
	TopicJointTrajectory = "~/joint_trajectory"
	TopicTelemetry       = "~/telemetry"  // telebridge_interfaces/ServosilaTelemetry out, raw
	TopicTF              = "/tf"          // tf2_msgs/TFMessage out
	TopicDiagnostics     = "/diagnostics" // diagnostic_msgs/DiagnosticArray out
	ServiceEStop         = "~/estop"      // std_srvs/Trigger: latch the emergency stop
	ServiceRelease       = "~/release"    // std_srvs/Trigger: release it
	ServiceHeadlight     = "~/headlight"  // std_srvs/SetBool
)

// QoS of the node's topics: commands and state reliable, so that Nav2 and
// RViz (which subscribe reliably by default) receive them.
var (
	QoSCmdVel      = qos.Default
	QoSOdom        = qos.Default
	QoSJointStates = qos.Default
	QoSJointCmd    = qos.Default
	QoSTelemetry   = qos.Default
	QoSTF          = qos.Default
	QoSDiagnostics = qos.Default
)

// Publishers are the driver's sensor publishers (odom, joint_states,
// telemetry), whose QoS the qos_overrides.<topic>.publisher.* parameters
// override; by default REP-2003's system default (the profiles above).
var Publishers = []rosqos.Publisher{
	{Topic: TopicOdom, Default: QoSOdom},
	{Topic: TopicJointStates, Default: QoSJointStates},
	{Topic: TopicTelemetry, Default: QoSTelemetry},
}

// Bindings is the node's parameter table: its own rows (read-only),
// then the driver's (DriverBindings), whose live rows the node applies with
// Reconfigure (see DriverUpdate).
func Bindings() rosparam.Bindings[Config] {
	b := rosparam.Bindings[Config]{
		rosparam.BindString("odom_frame", "frame of the odometry (header.frame_id of odom)", func(c *Config) *string { return &c.OdomFrame }, rosparam.ReadOnly()),
		rosparam.BindString("base_frame", "frame of the robot (child_frame_id of odom)", func(c *Config) *string { return &c.BaseFrame }, rosparam.ReadOnly()),
		rosparam.BindBool("publish_tf", "broadcast odom -> base_link on /tf", func(c *Config) *bool { return &c.PublishTF }, rosparam.ReadOnly()),
		rosparam.BindDouble("odom_rate", "Hz", "rate of odom and tf", func(c *Config) *float64 { return &c.OdomRate }, rosparam.Within(1, 100), rosparam.ReadOnly()),
		rosparam.BindSeconds("diagnostics_period", "period of /diagnostics", func(c *Config) *time.Duration { return &c.DiagnosticsPeriod }, rosparam.Within(0.1, 60), rosparam.ReadOnly()),
		cmdvel.Binding(func(c *Config) *bool { return &c.CmdVelStamped }),
	}
	b = append(b, rosparam.Nest(DriverBindings(), func(c *Config) *servosila.Config { return &c.Driver })...)
	return b
}

// ParameterTable returns the node's declarations with their defaults.
func ParameterTable() rosparam.Table { return Bindings().Table(DefaultConfig()) }

// LoadConfig builds the node's configuration from its start-up
// parameters and checks it.
func LoadConfig(s *rosparam.Store) (Config, error) {
	c := DefaultConfig()
	if err := Bindings().Load(&c, s); err != nil {
		return Config{}, fmt.Errorf("servosila: node parameters: %w", err)
	}
	drv, err := c.Driver.WithDefaults()
	if err != nil {
		return Config{}, fmt.Errorf("servosila: node parameters: %w", err)
	}
	c.Driver = drv
	return c, nil
}

// DriverUpdate returns the part of a node's parameter update that belongs
// to the driver, for ValidateLive and Reconfigure (the node's own
// parameters are read-only; use_sim_time belongs to the ROS layer).
func DriverUpdate(update []rosparam.Parameter) []rosparam.Parameter {
	driver := map[string]bool{}
	for _, b := range DriverBindings() {
		driver[b.Name] = true
	}
	var out []rosparam.Parameter
	for _, p := range update {
		if driver[p.Name] {
			out = append(out, p)
		}
	}
	return out
}

// JointCommand turns a sensor_msgs/JointState-shaped command (names with
// positions or velocities, same length) into per-joint values. Unknown
// names, length mismatches and non-finite values are refused whole, so a
// malformed message never moves anything.
func JointCommand(names []string, values []float64) (joints []wire.Joint, out []float64, err error) {
	if len(names) != len(values) {
		return nil, nil, fmt.Errorf("%w: %d names but %d values", wire.ErrInvalidCommand, len(names), len(values))
	}
	for i, n := range names {
		j, err := wire.ParseJoint(n)
		if err != nil {
			return nil, nil, fmt.Errorf("%w: %v", wire.ErrInvalidCommand, err)
		}
		if math.IsNaN(values[i]) || math.IsInf(values[i], 0) {
			return nil, nil, fmt.Errorf("%w: %s = %v", wire.ErrInvalidCommand, n, values[i])
		}
		joints = append(joints, j)
		out = append(out, values[i])
	}
	return joints, out, nil
}

// CommandLossWarning is how long diagnostics stay at WARN after the
// telemetry showed commands that did not reach the robot [s].
const CommandLossWarning = 30 * time.Second

// Diagnose reports the driver's health at now: ERROR without telemetry
// within the telemetry timeout (link lost or wrong address), WARN while the
// emergency stop is latched or for CommandLossWarning after a command loss
// (servosila.CommandLoss, with its figure), OK otherwise; the counters go
// in the values.
func Diagnose(cfg servosila.Config, st servosila.Status, telemetryAt time.Time, haveTelemetry bool, now time.Time) diag.Status {
	s := diag.Status{Name: "robot link", HardwareID: cfg.Robot} // the publishing node prefixes its name, diag.StatusName
	s.Raise(diag.OK, "receiving telemetry")
	// The lost link comes first: it says what the driver does about it.
	switch age := now.Sub(telemetryAt); {
	case !haveTelemetry:
		s.Raise(diag.Error, "no telemetry received from "+cfg.Robot)
	case st.LinkState.Lost:
		s.Raise(diag.Error, fmt.Sprintf("link lost (telemetry %.1f s old): sending zeros; odometry claims no motion, its covariance inflated", age.Seconds()))
	case age > cfg.TelemetryTimeout:
		s.Raise(diag.Error, fmt.Sprintf("telemetry is %.1f s old", age.Seconds()))
	}
	if st.EStopped {
		s.Raise(diag.Warn, "emergency stop latched")
	}
	if l := st.CommandLoss; !l.LastAt.IsZero() && now.Sub(l.LastAt) < CommandLossWarning {
		s.Raise(diag.Warn, fmt.Sprintf("commands did not reach the robot (%s): %.1f s unconfirmed, %.0f s ago; odometry covariance inflated",
			l.LastKind, l.Last.Seconds(), now.Sub(l.LastAt).Seconds()))
	}
	s.Add("link losses", st.LinkState.Losses)
	s.Add("command losses", st.CommandLoss.Events)
	s.Add("command loss: longest unconfirmed", st.CommandLoss.Longest)
	s.Add("telemetry missing", st.CommandLoss.MissingTelemetry)
	s.Add("dropped: old telemetry", st.LinkState.OldTelemetry)
	if haveTelemetry {
		s.Add("telemetry age", now.Sub(telemetryAt))
	}
	s.Add(DiagPacketsSent, st.Sent)
	s.Add(DiagSendErrors, st.SendErrs)
	s.Add(DiagTelemetryAccepted, st.Link.Accepted)
	s.Add(DiagDroppedForeign, st.Link.Foreign)
	s.Add(DiagDroppedMalformed, st.Link.Malformed)
	s.Add("dropped: wrong length", st.Length)
	s.Add("dropped: wrong frame type", st.Frame)
	s.Add("dropped: bad motor count", st.Motors)
	s.Add("command stale", st.Last.Stale)
	s.Add(DiagEmergencyStop, st.EStopped)
	return s
}

// Keys of the driver's diagnostics that other nodes read (the operator
// console's link figures and e-stop state).
const (
	DiagPacketsSent       = "packets sent"            // UDP packets sent to the robot [1]
	DiagSendErrors        = "send errors"             // failed sends [1]
	DiagTelemetryAccepted = "telemetry accepted"      // telemetry packets taken [1]
	DiagDroppedForeign    = "dropped: foreign source" // packets from another address [1]
	DiagDroppedMalformed  = "dropped: malformed"      // packets that did not decode [1]
	DiagEmergencyStop     = "emergency stop"          // the e-stop latch: "true" or "false"
)
