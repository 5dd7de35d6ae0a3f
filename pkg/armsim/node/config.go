package node

import (
	"errors"
	"fmt"
	"time"

	"github.com/telebridge/telebridge/pkg/armsim"
	jognode "github.com/telebridge/telebridge/pkg/jog/node"
	"github.com/telebridge/telebridge/pkg/kinematics"
	"github.com/telebridge/telebridge/pkg/qos"
	"github.com/telebridge/telebridge/pkg/rosparam"
	"github.com/telebridge/telebridge/pkg/rosqos"
)

// Names of the arm_sim ROS 2 node, which stands in for an arm and its
// trajectory controller: it follows the JointTrajectory messages of
// jog_server (a point and the next, see armsim.Arm.WriteJointTarget) and
// publishes the simulated joint states.
const (
	// Name is the ROS 2 node name.
	Name = "arm_sim"
	// TopicJointStates is where the simulated joints go
	// (sensor_msgs/msg/JointState: name, position [rad or m], velocity).
	TopicJointStates = jognode.JointStatesTopic
)

// QoS of arm_sim: joint states reliable (any subscriber matches, as from
// joint_state_broadcaster); targets subscribed as jog_server publishes them.
var (
	QoSJointStates = qos.Default
	QoSTrajectory  = jognode.QoSTrajectory
)

// Publishers is arm_sim's sensor publisher (joint_states), whose QoS the
// qos_overrides.<topic>.publisher.* parameters override.
var Publishers = []rosqos.Publisher{{Topic: TopicJointStates, Default: QoSJointStates}}

// Config configures arm_sim.
type Config struct {
	// RobotDescription is the arm's URDF: joint names, limits and
	// velocity limits come from it. Required.
	RobotDescription string
	// Base and Tip bound the chain in the URDF; empty: the root link and
	// the end of the longest chain. Defaults empty.
	Base, Tip string
	// Rate is the simulation and joint_states rate [Hz]. Default 50.
	Rate float64
	// Initial are the start positions [rad or m], one per joint; empty:
	// the middle of each joint's limits (0 for continuous joints).
	Initial []float64
	// DefaultVelocity is the speed of joints whose URDF gives none
	// [rad/s or m/s]. Default 0.5.
	DefaultVelocity float64
	// TrajectoryTopic is where the targets come from. Default
	// jognode.TrajectoryTopic.
	TrajectoryTopic string
}

// DefaultConfig returns arm_sim's defaults (no URDF).
func DefaultConfig() Config {
	return Config{Rate: 50, DefaultVelocity: 0.5, TrajectoryTopic: jognode.TrajectoryTopic}
}

// Bindings is arm_sim's parameter table, all read-only (the arm is
// made once at start-up).
func Bindings() rosparam.Bindings[Config] {
	return rosparam.Bindings[Config]{
		rosparam.BindString(jognode.ParamRobotDescription, "URDF of the simulated arm", func(c *Config) *string { return &c.RobotDescription }, rosparam.ReadOnly()),
		rosparam.BindString("base_link", "first link of the simulated chain (empty: the URDF's root)", func(c *Config) *string { return &c.Base }, rosparam.ReadOnly()),
		rosparam.BindString("tip_link", "last link of the simulated chain (empty: the end of the longest chain)", func(c *Config) *string { return &c.Tip }, rosparam.ReadOnly()),
		rosparam.BindDouble("rate", "Hz", "simulation and joint_states rate", func(c *Config) *float64 { return &c.Rate }, rosparam.Within(1, 1000), rosparam.ReadOnly()),
		rosparam.BindDoubles("initial_positions", "rad or m", "start position of each joint (empty: the middle of its limits)", func(c *Config) *[]float64 { return &c.Initial }, rosparam.ReadOnly()),
		rosparam.BindDouble("default_velocity", "rad/s or m/s", "speed limit of joints whose URDF gives none", func(c *Config) *float64 { return &c.DefaultVelocity }, rosparam.Within(0.001, 100), rosparam.ReadOnly()),
		rosparam.BindString(jognode.ParamTrajectoryTopic, "topic of the joint targets (trajectory_msgs/JointTrajectory)", func(c *Config) *string { return &c.TrajectoryTopic }, rosparam.ReadOnly()),
	}
}

// ParameterTable returns arm_sim's declarations with their defaults.
func ParameterTable() rosparam.Table { return Bindings().Table(DefaultConfig()) }

// LoadConfig builds arm_sim's configuration from its parameters.
func LoadConfig(s *rosparam.Store) (Config, error) {
	c := DefaultConfig()
	if err := Bindings().Load(&c, s); err != nil {
		return Config{}, fmt.Errorf("armsim: node parameters: %w", err)
	}
	if c.RobotDescription == "" {
		return Config{}, errors.New("armsim: node parameters: no robot_description (give the URDF as a string)")
	}
	if c.TrajectoryTopic == "" {
		return Config{}, errors.New("armsim: node parameters: empty trajectory_topic")
	}
	return c, nil
}

// NewArm returns the simulated arm of a node configuration,
// its clock starting at the wall clock's now (Run, or AdvanceTo with the
// wall clock's time, keeps it there), so that the stamps of jog_server's
// targets (stamp_trajectories) are on the arm's clock.
func NewArm(c Config) (*armsim.Arm, error) {
	chain, err := kinematics.ParseURDFString(c.RobotDescription, c.Base, c.Tip)
	if err != nil {
		return nil, fmt.Errorf("armsim: robot_description: %w", err)
	}
	cfg := armsim.FromChain(chain, c.DefaultVelocity)
	cfg.Initial = c.Initial
	if len(cfg.Initial) == 0 {
		cfg.Initial = make([]float64, chain.DOF())
		for i, j := range chain.Joints {
			if j.Type != kinematics.Continuous {
				cfg.Initial[i] = (j.Lower + j.Upper) / 2
			}
		}
	}
	cfg.Start = time.Now()
	return armsim.New(cfg)
}
