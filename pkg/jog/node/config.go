package node

import (
	"errors"
	"fmt"

	"github.com/telebridge/telebridge/pkg/jog"
	"github.com/telebridge/telebridge/pkg/kinematics"
	"github.com/telebridge/telebridge/pkg/rosparam"
)

// Parameters of the jog_server node besides the drag&bot table
// (jog.ParameterTable). All are read-only: the chain and the publisher are
// made once at start-up.
const (
	// ParamRobotDescription holds the arm's URDF (a string, as
	// robot_state_publisher takes it). Required.
	ParamRobotDescription = "robot_description"
	// ParamTrajectoryTopic names the topic of the joint targets. Default
	// TrajectoryTopic.
	ParamTrajectoryTopic = "trajectory_topic"
	// ParamStampTrajectories switches the targets' header stamps
	// (Config.StampTrajectories). Default false.
	ParamStampTrajectories = "stamp_trajectories"
)

// ErrNoRobotDescription: the node was started without a URDF.
var ErrNoRobotDescription = errors.New("jog: no robot_description")

// Config is the configuration of the jog_server node: the jog
// parameters and the node's own. Targets go out as a
// trajectory_msgs/JointTrajectory of the jog.JointTarget's point and, during a
// motion, its Next point one cycle later (joint_names, positions,
// velocities, time_from_start), header.frame_id the fixed frame.
type Config struct {
	// StampTrajectories sets header.stamp to the cycle's time, so that a
	// trajectory controller on the same clock keeps the cycle's schedule
	// when a message arrives late (ros2_control's joint trajectory
	// controller and arm_sim count time_from_start from the stamp).
	// False: header.stamp zero, "start now", right for a controller whose
	// clock is not this node's (another host without synchronised clocks:
	// a stamp there could lie in its future, where the controller waits,
	// or its past, where it skips points). Default false; jog.launch.py
	// sets it with sim:=true.
	StampTrajectories bool
	// Params are the drag&bot parameters (jog.DefaultParams).
	Params jog.Params
	// RobotDescription is the arm's URDF. Required.
	RobotDescription string
	// TrajectoryTopic is where the joint targets go. Default
	// TrajectoryTopic.
	TrajectoryTopic string
	// InterfaceNamespace puts the services and topics under a namespace
	// (ParamInterfaceNamespace, NamesIn). Default "": drag&bot's names.
	InterfaceNamespace string
}

// DefaultConfig returns the node's defaults (no URDF).
func DefaultConfig() Config {
	return Config{Params: jog.DefaultParams(), TrajectoryTopic: TrajectoryTopic}
}

func nodeBindings() rosparam.Bindings[Config] {
	return rosparam.Bindings[Config]{
		rosparam.BindString(ParamRobotDescription, "URDF of the arm (as for robot_state_publisher); the chain runs from robot_data.fixed_frame to robot_data.flange_frame",
			func(c *Config) *string { return &c.RobotDescription }, rosparam.ReadOnly()),
		rosparam.BindBool(ParamStampTrajectories, "stamp the joint targets with the cycle's time (true: for a trajectory controller on this host's clock, which then keeps the schedule when a target comes late; false: header.stamp zero, start now)",
			func(c *Config) *bool { return &c.StampTrajectories }, rosparam.ReadOnly()),
		rosparam.BindString(ParamTrajectoryTopic, "topic of the joint targets (trajectory_msgs/JointTrajectory: the cycle's point and the next one), e.g. a ros2_control joint_trajectory_controller's command topic",
			func(c *Config) *string { return &c.TrajectoryTopic }, rosparam.ReadOnly(),
			rosparam.Check(func(v rosparam.ParameterValue) error {
				if v.StringValue == "" {
					return errors.New("must not be empty")
				}
				return nil
			})),
		rosparam.BindString(ParamInterfaceNamespace, "namespace of the jog services and of the heartbeat and joint_states topics (empty: drag&bot's absolute names; e.g. /arm1 for two arms in one graph)",
			func(c *Config) *string { return &c.InterfaceNamespace }, rosparam.ReadOnly(),
			rosparam.Check(func(v rosparam.ParameterValue) error { return CheckNamespace(v.StringValue) })),
	}
}

// ParameterTable returns every parameter of jog_server: the drag&bot
// table (jog.ParameterTable), then robot_description, stamp_trajectories,
// trajectory_topic and interface_namespace.
func ParameterTable() rosparam.Table {
	return append(jog.ParameterTable(), nodeBindings().Table(DefaultConfig())...)
}

// LoadConfig builds the node's configuration from its start-up
// parameters and checks it: a URDF must be given,
// robot_data.urdf_param must name robot_description (the node declares
// that parameter only), and use_sim_time must be false: the heartbeat
// deadman, the joint-state freshness and the profiles run on the wall
// clock, as the arm does, so simulated time would be ignored.
func LoadConfig(s *rosparam.Store) (Config, error) {
	c := DefaultConfig()
	if err := c.Params.Apply(s.Values()); err != nil {
		return Config{}, fmt.Errorf("jog: node parameters: %w", err)
	}
	if err := nodeBindings().Load(&c, s); err != nil {
		return Config{}, fmt.Errorf("jog: node parameters: %w", err)
	}
	if u := c.Params.RobotData.URDFParam; u != ParamRobotDescription {
		return Config{}, fmt.Errorf("jog: node parameters: %w: robot_data.urdf_param is %q; this node reads the URDF from %s", jog.ErrParam, u, ParamRobotDescription)
	}
	if c.RobotDescription == "" {
		return Config{}, fmt.Errorf("jog: node parameters: %w (give the URDF as a string)", ErrNoRobotDescription)
	}
	if v, ok := s.Get(rosparam.UseSimTime); ok && v.BoolValue {
		return Config{}, fmt.Errorf("jog: node parameters: %w: use_sim_time is true, but the heartbeat deadman and the motion profiles run on the wall clock, as the arm does; set it false", jog.ErrParam)
	}
	return c, nil
}

// NewController returns the node's controller: the chain of the URDF
// from robot_data.fixed_frame to robot_data.flange_frame, the parameters,
// and frames (the tf buffer fed from /tf and /tf_static; may be nil).
func NewController(cfg Config, frames jog.FrameSource) (*jog.Controller, error) {
	rd := cfg.Params.RobotData
	chain, err := kinematics.ParseURDFString(cfg.RobotDescription, rd.FixedFrame, rd.FlangeFrame)
	if err != nil {
		return nil, fmt.Errorf("jog: robot_description (robot_data.fixed_frame %q, flange_frame %q): %w", rd.FixedFrame, rd.FlangeFrame, err)
	}
	p := cfg.Params
	return jog.New(jog.Config{Params: &p, Chain: chain, Frames: frames})
}

// HeartbeatTimeoutUpdate is the parameter update of the
// set_heartbeat_timeout service [s]: the node sets it in its parameter
// store, which validates it (refusing <= 0, NaN, > 60), publishes the
// parameter event and hands it to jog.Controller.ApplyParams, so that
// `ros2 param get heartbeat_timeout` always tells the value in force.
func HeartbeatTimeoutUpdate(seconds float64) []rosparam.Parameter {
	return []rosparam.Parameter{{Name: "heartbeat_timeout", Value: rosparam.Double(seconds)}}
}

// ParamsFromFile reads the jog parameters of node (a fully qualified name
// such as "/jog_server") from a ROS 2 parameters file, over the defaults,
// through the same rosparam declaration as jog_server's (ParameterTable:
// typing, empty sequences, ranges): the node's own parameters are read and
// not returned, unknown names are ignored as rclcpp ignores them, and a jog
// parameter of the wrong type or out of range is an error.
func ParamsFromFile(path, node string) (jog.Params, error) {
	var o rosparam.Overrides
	if err := o.LoadFile(path); err != nil {
		return jog.Params{}, fmt.Errorf("jog: %w", err)
	}
	s, err := rosparam.New(rosparam.Config{Node: node, Table: ParameterTable(), Overrides: &o})
	if err != nil {
		return jog.Params{}, fmt.Errorf("jog: parameters of %s in %s: %w", node, path, err)
	}
	p := jog.DefaultParams()
	if err := p.Apply(s.Values()); err != nil {
		return jog.Params{}, fmt.Errorf("jog: parameters of %s in %s: %w", node, path, err)
	}
	return p, nil
}

// ValidateUpdate is the jog_server node's cross-parameter check for
// rosparam.Config.Validate: it applies update to the current values and
// validates the whole. The node's output is a JointTrajectory, so the
// relative command types are refused (jog.ErrRelativeOutput), at start-up
// and live.
func ValidateUpdate(update []rosparam.Parameter, current func(name string) rosparam.ParameterValue) error {
	p := jog.DefaultParams()
	for _, e := range jog.ParameterTable() {
		v := current(e.Name)
		if v.Type == rosparam.ParameterNotSet {
			continue // at start-up, before the store holds it: the default
		}
		if err := p.Set(e.Name, v); err != nil {
			return err
		}
	}
	if err := p.Apply(update); err != nil {
		return err
	}
	return jog.CheckRelative(&p, false)
}
