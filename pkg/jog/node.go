package jog

import (
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/telebridge/telebridge/pkg/kinematics"
	"github.com/telebridge/telebridge/pkg/qos"
	"github.com/telebridge/telebridge/pkg/rosparam"
)

// Parameters of the jog_server node besides the drag&bot table
// (ParameterTable). All are read-only: the chain and the publisher are
// made once at start-up.
const (
	// ParamRobotDescription holds the arm's URDF (a string, as
	// robot_state_publisher takes it). Required.
	ParamRobotDescription = "robot_description"
	// ParamTrajectoryTopic names the topic of the joint targets. Default
	// TrajectoryTopic.
	ParamTrajectoryTopic = "trajectory_topic"
	// ParamStampTrajectories switches the targets' header stamps
	// (NodeConfig.StampTrajectories). Default false.
	ParamStampTrajectories = "stamp_trajectories"
)

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

// ErrNoRobotDescription: the node was started without a URDF.
var ErrNoRobotDescription = errors.New("jog: no robot_description")

// NodeConfig is the configuration of the jog_server node: the jog
// parameters and the node's own. Targets go out as a
// trajectory_msgs/JointTrajectory of the JointTarget's point and, during a
// motion, its Next point one cycle later (joint_names, positions,
// velocities, time_from_start), header.frame_id the fixed frame.
type NodeConfig struct {
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
	// Params are the drag&bot parameters (DefaultParams).
	Params Params
	// RobotDescription is the arm's URDF. Required.
	RobotDescription string
	// TrajectoryTopic is where the joint targets go. Default
	// TrajectoryTopic.
	TrajectoryTopic string
}

// DefaultNodeConfig returns the node's defaults (no URDF).
func DefaultNodeConfig() NodeConfig {
	return NodeConfig{Params: DefaultParams(), TrajectoryTopic: TrajectoryTopic}
}

func nodeBindings() rosparam.Bindings[NodeConfig] {
	return rosparam.Bindings[NodeConfig]{
		rosparam.BindString(ParamRobotDescription, "URDF of the arm (as for robot_state_publisher); the chain runs from robot_data.fixed_frame to robot_data.flange_frame",
			func(c *NodeConfig) *string { return &c.RobotDescription }, rosparam.ReadOnly()),
		rosparam.BindBool(ParamStampTrajectories, "stamp the joint targets with the cycle's time (true: for a trajectory controller on this host's clock, which then keeps the schedule when a target comes late; false: header.stamp zero, start now)",
			func(c *NodeConfig) *bool { return &c.StampTrajectories }, rosparam.ReadOnly()),
		rosparam.BindString(ParamTrajectoryTopic, "topic of the joint targets (trajectory_msgs/JointTrajectory: the cycle's point and the next one), e.g. a ros2_control joint_trajectory_controller's command topic",
			func(c *NodeConfig) *string { return &c.TrajectoryTopic }, rosparam.ReadOnly(),
			rosparam.Check(func(v rosparam.ParameterValue) error {
				if v.StringValue == "" {
					return errors.New("must not be empty")
				}
				return nil
			})),
	}
}

// NodeParameterTable returns every parameter of jog_server: the drag&bot
// table, then robot_description and trajectory_topic.
func NodeParameterTable() rosparam.Table {
	return append(ParameterTable(), nodeBindings().Table(DefaultNodeConfig())...)
}

// LoadNodeConfig builds the node's configuration from its start-up
// parameters and checks it: a URDF must be given,
// robot_data.urdf_param must name robot_description (the node declares
// that parameter only), and use_sim_time must be false: the heartbeat
// deadman, the joint-state freshness and the profiles run on the wall
// clock, as the arm does, so simulated time would be ignored.
func LoadNodeConfig(s *rosparam.Store) (NodeConfig, error) {
	c := DefaultNodeConfig()
	if err := c.Params.Apply(s.Values()); err != nil {
		return NodeConfig{}, fmt.Errorf("jog: node parameters: %w", err)
	}
	if err := nodeBindings().Load(&c, s); err != nil {
		return NodeConfig{}, fmt.Errorf("jog: node parameters: %w", err)
	}
	if u := c.Params.RobotData.URDFParam; u != ParamRobotDescription {
		return NodeConfig{}, fmt.Errorf("jog: node parameters: %w: robot_data.urdf_param is %q; this node reads the URDF from %s", ErrParam, u, ParamRobotDescription)
	}
	if c.RobotDescription == "" {
		return NodeConfig{}, fmt.Errorf("jog: node parameters: %w (give the URDF as a string)", ErrNoRobotDescription)
	}
	if v, ok := s.Get(rosparam.UseSimTime); ok && v.BoolValue {
		return NodeConfig{}, fmt.Errorf("jog: node parameters: %w: use_sim_time is true, but the heartbeat deadman and the motion profiles run on the wall clock, as the arm does; set it false", ErrParam)
	}
	return c, nil
}

// NewNodeController returns the node's controller: the chain of the URDF
// from robot_data.fixed_frame to robot_data.flange_frame, the parameters,
// and frames (the tf buffer fed from /tf and /tf_static; may be nil).
func NewNodeController(cfg NodeConfig, frames FrameSource) (*Controller, error) {
	rd := cfg.Params.RobotData
	chain, err := kinematics.ParseURDFString(cfg.RobotDescription, rd.FixedFrame, rd.FlangeFrame)
	if err != nil {
		return nil, fmt.Errorf("jog: robot_description (robot_data.fixed_frame %q, flange_frame %q): %w", rd.FixedFrame, rd.FlangeFrame, err)
	}
	p := cfg.Params
	return New(Config{Params: &p, Chain: chain, Frames: frames})
}

// HeartbeatTimeoutUpdate is the parameter update of the
// set_heartbeat_timeout service [s]: the node sets it in its parameter
// store, which validates it (refusing <= 0, NaN, > 60), publishes the
// parameter event and hands it to Controller.ApplyParams, so that
// `ros2 param get heartbeat_timeout` always tells the value in force.
func HeartbeatTimeoutUpdate(seconds float64) []rosparam.Parameter {
	return []rosparam.Parameter{{Name: "heartbeat_timeout", Value: rosparam.Double(seconds)}}
}

// JointStates keeps the newest measured joint positions of the arm, taken
// from sensor_msgs/JointState messages (names in any order, other joints
// ignored), in chain order: the JointSource of the jog_server node. Safe
// for concurrent use (the subscription stores, the loop reads).
type JointStates struct {
	mu      sync.Mutex
	names   []string
	q, next []float64
	at      time.Time
	ok      bool
	refused uint64
	foreign uint64
}

// NewJointStates returns an empty source for the joints names (chain
// order, Chain.JointNames()).
func NewJointStates(names []string) *JointStates {
	return &JointStates{names: append([]string(nil), names...), q: make([]float64, len(names)), next: make([]float64, len(names))}
}

// Store takes one message received at at. A message that names none of
// the chain's joints is another robot's (joint_states is shared, e.g. with
// servosila_driver): it is skipped with ErrForeignJoints and counted apart.
// A message that lacks a chain joint, has a non-finite position or
// mismatched lengths is refused whole (counted; the previous state stays).
// It allocates nothing.
func (s *JointStates) Store(names []string, positions []float64, at time.Time) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !namesAny(names, s.names) {
		s.foreign++
		return ErrForeignJoints
	}
	if err := selectJoints(s.next, s.names, names, positions); err != nil {
		s.refused++
		return err
	}
	s.q, s.next = s.next, s.q
	s.at, s.ok = at, true
	return nil
}

// JointPositions implements JointSource: the newest state and when it was
// received. Without any it fails with ErrNoJointState.
func (s *JointStates) JointPositions(dst []float64) (time.Time, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.ok {
		return time.Time{}, ErrNoJointState
	}
	if len(dst) != len(s.q) {
		return time.Time{}, fmt.Errorf("jog: joint positions: %w: %d values for %d joints", ErrRequest, len(dst), len(s.q))
	}
	copy(dst, s.q)
	return s.at, nil
}

// Refused returns how many messages Store refused.
func (s *JointStates) Refused() uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.refused
}

// namesAny reports whether names holds any of want.
func namesAny(names, want []string) bool {
	for _, n := range names {
		for _, w := range want {
			if n == w {
				return true
			}
		}
	}
	return false
}

// Foreign returns how many messages Store skipped as another robot's.
func (s *JointStates) Foreign() uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.foreign
}
