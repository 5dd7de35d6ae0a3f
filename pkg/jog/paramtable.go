package jog

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/telebridge/telebridge/pkg/rosparam"
)

// entry is one parameter: its rosparam description and the Params field
// it fills.
type entry struct {
	rosparam.Param
	field func(p *Params) any // pointer to the field
}

// compatibility marks settings accepted for drag&bot compatibility that do
// not change the JointTrajectory output.
const compatibility = "compatibility only: a robot_movement_interface setting, no effect on the JointTrajectory output"

func finite(v rosparam.ParameterValue) error {
	for _, x := range append([]float64{v.DoubleValue}, v.DoubleArrayValue...) {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return fmt.Errorf("not a finite number")
		}
	}
	return nil
}

// dbl is a double in [lo, hi] (hi +Inf: no upper bound), above lo if
// open. The range goes in the descriptor when both bounds are finite;
// open and one-sided bounds are checked by Validate and stated in
// Constraints.
func dbl(name, unit, desc string, def, lo, hi float64, open bool, field func(*Params) *float64) entry {
	p := rosparam.Param{Name: name, Type: rosparam.ParameterDouble, Default: rosparam.Double(def), Unit: unit, Description: desc}
	if !math.IsInf(hi, 1) {
		p.Range = &rosparam.Range{From: lo, To: hi}
	}
	switch {
	case open:
		p.Constraints = fmt.Sprintf("> %g", lo)
	case p.Range == nil:
		p.Constraints = fmt.Sprintf(">= %g", lo)
	}
	p.Validate = func(v rosparam.ParameterValue) error {
		if err := finite(v); err != nil {
			return err
		}
		if x := v.DoubleValue; x < lo || (open && x == lo) {
			return fmt.Errorf("must be %s", p.Constraints)
		}
		return nil
	}
	return entry{Param: p, field: func(p *Params) any { return field(p) }}
}

func boolean(name, desc string, def bool, field func(*Params) *bool) entry {
	return entry{Param: rosparam.Param{Name: name, Type: rosparam.ParameterBool, Default: rosparam.Bool(def), Description: desc},
		field: func(p *Params) any { return field(p) }}
}

// str is a string, one of choices if any, else not empty.
func str(name, desc, def string, choices []string, field func(*Params) *string) entry {
	p := rosparam.Param{Name: name, Type: rosparam.ParameterString, Default: rosparam.String(def), Description: desc}
	if len(choices) > 0 {
		p.Constraints = "one of " + strings.Join(choices, ", ")
		p.Validate = func(v rosparam.ParameterValue) error {
			if !slices.Contains(choices, v.StringValue) {
				return fmt.Errorf("must be one of %s", strings.Join(choices, ", "))
			}
			return nil
		}
	} else {
		p.Validate = func(v rosparam.ParameterValue) error {
			if v.StringValue == "" {
				return fmt.Errorf("must not be empty")
			}
			return nil
		}
	}
	return entry{Param: p, field: func(p *Params) any { return field(p) }}
}

func compat(e entry) entry {
	if e.Constraints != "" {
		e.Constraints += "; "
	}
	e.Constraints += compatibility
	return e
}

func readOnly(e entry) entry {
	e.ReadOnly = true
	return e
}

// moveGroup returns the eight settings of one kind of move.
func moveGroup(prefix, what string, def MoveSettings, g func(*Params) *MoveSettings) []entry {
	return []entry{
		compat(boolean(prefix+"_replace", "Replace the robot's command list on each "+what+" command", def.Replace,
			func(p *Params) *bool { return &g(p).Replace })),
		compat(str(prefix+"_command_type", "Command type sent for "+what+" moves", def.CommandType, nil,
			func(p *Params) *string { return &g(p).CommandType })),
		str(prefix+"_velocity_type", "Unit of "+prefix+"_velocity: PERCENT of each joint's velocity limit", def.VelocityType,
			[]string{"PERCENT"}, func(p *Params) *string { return &g(p).VelocityType }),
		compat(str(prefix+"_acceleration_type", "Unit of "+prefix+"_acceleration", def.AccelerationType, nil,
			func(p *Params) *string { return &g(p).AccelerationType })),
		compat(str(prefix+"_blending_type", "Unit of "+prefix+"_blending", def.BlendingType, nil,
			func(p *Params) *string { return &g(p).BlendingType })),
		dbl(prefix+"_velocity", "%", "Speed of "+what+" moves at speed override 1, in percent of each joint's velocity limit",
			def.Velocity, 0, 100, true, func(p *Params) *float64 { return &g(p).Velocity }),
		compat(dbl(prefix+"_acceleration", "%", "Acceleration of "+what+" moves", def.Acceleration, 0, 100, true,
			func(p *Params) *float64 { return &g(p).Acceleration })),
		compat(dbl(prefix+"_blending", "m", "Blending of "+what+" moves", def.Blending, 0, math.Inf(1), false,
			func(p *Params) *float64 { return &g(p).Blending })),
	}
}

// entries is the parameter table, in declaration order.
var entries = buildEntries()

func buildEntries() []entry {
	inf := math.Inf(1)
	t := []entry{
		readOnly(dbl("update_rate", "Hz", "Rate at which targets are recomputed and sent to the robot (best effort)",
			20, 0, 1000, true, func(p *Params) *float64 { return &p.UpdateRate })),
		dbl("heartbeat_timeout", "s", "Motion stops when no heartbeat (service or topic) came for this long; also settable live with set_heartbeat_timeout",
			0.2, 0, 60, true, func(p *Params) *float64 { return &p.HeartbeatTimeout }),
		dbl("step_translation", "m", "Distance of the next Cartesian target ahead of the tool in incremental moves",
			0.01, 0, 1, true, func(p *Params) *float64 { return &p.StepTranslation }),
		dbl("step_rotation", "rad", "Angle of the next Cartesian target ahead of the tool in incremental moves",
			0.2, 0, math.Pi, true, func(p *Params) *float64 { return &p.StepRotation }),
		dbl("step_joints", "rad or m", "Length of the joint-space step of the next target ahead of the arm in incremental joint moves",
			0.2, 0, 2*math.Pi, true, func(p *Params) *float64 { return &p.StepJoints }),
		boolean("step_scale_joints", "Multiply step_joints by the speed override", false,
			func(p *Params) *bool { return &p.StepScaleJoints }),
		boolean("step_scale_cartesian", "Multiply step_translation and step_rotation by the speed override", false,
			func(p *Params) *bool { return &p.StepScaleCartesian }),
		dbl("step_translation_factor", "", "A new incremental Cartesian target is computed only once the tool is within this fraction of step_translation of the previous one",
			1, 0, 1, true, func(p *Params) *float64 { return &p.StepTranslationFactor }),
		dbl("step_rotation_factor", "", "Same as step_translation_factor for the rotation and step_rotation",
			1, 0, 1, true, func(p *Params) *float64 { return &p.StepRotationFactor }),
		dbl("min_translation_step", "m", "An incremental Cartesian target is not sent if it is within this distance and min_rotation_step of the previous target (0: it only has to differ); keep it below step_translation",
			0, 0, inf, false, func(p *Params) *float64 { return &p.MinTranslationStep }),
		dbl("min_rotation_step", "rad", "See min_translation_step",
			0, 0, inf, false, func(p *Params) *float64 { return &p.MinRotationStep }),
	}
	t = append(t, moveGroup("joints_delta", "incremental joint", MoveSettings{true, "PTPCP", "PERCENT", "PERCENT", "M", 5, 100, 0.01},
		func(p *Params) *MoveSettings { return &p.JointsDelta })...)
	t = append(t, moveGroup("joints_goal", "absolute joint", MoveSettings{false, "PTP", "PERCENT", "PERCENT", "M", 5, 100, 0.01},
		func(p *Params) *MoveSettings { return &p.JointsGoal })...)
	t = append(t, moveGroup("cartesian_delta", "incremental Cartesian", MoveSettings{true, "PTP", "PERCENT", "PERCENT", "M", 5, 100, 0.01},
		func(p *Params) *MoveSettings { return &p.CartesianDelta })...)
	t = append(t,
		compat(dbl("cartesian_delta_blending_rot", "m", "Blending of rotation-only incremental Cartesian moves", 0.01, 0, inf, false,
			func(p *Params) *float64 { return &p.CartesianDeltaBlendingRot })),
		compat(dbl("cartesian_delta_acceleration_rot", "%", "Acceleration of rotation-only incremental Cartesian moves", 50, 0, 100, true,
			func(p *Params) *float64 { return &p.CartesianDeltaAccelerationRot })),
	)
	// The Cartesian goal group has the seed's irregular names.
	goal := func(p *Params) *MoveSettings { return &p.CartesianGoal }
	t = append(t,
		compat(boolean("cartesian_goal_replace", "Replace the robot's command list on each absolute Cartesian command", false,
			func(p *Params) *bool { return &goal(p).Replace })),
		compat(str("cartesian_goal_command_type_rotational_movement", "Command type of rotation-only absolute Cartesian moves", "PTP", nil,
			func(p *Params) *string { return &p.CartesianGoalCommandTypeRotational })),
		compat(str("cartesian_goal_command_type_translational_movement", "Command type of absolute Cartesian moves with translation", "PTP", nil,
			func(p *Params) *string { return &p.CartesianGoalCommandTypeTranslational })),
		str("cartesian_goal_velocity_type", "Unit of cartesian_goal_velocity: PERCENT of each joint's velocity limit (goals are reached point to point)", "PERCENT",
			[]string{"PERCENT"}, func(p *Params) *string { return &goal(p).VelocityType }),
		compat(str("cartesian_goal_acceleration_type", "Unit of cartesian_goal_acceleration", "PERCENT", nil,
			func(p *Params) *string { return &goal(p).AccelerationType })),
		compat(str("cartesian_blending_type", "Unit of cartesian_blending", "M", nil,
			func(p *Params) *string { return &goal(p).BlendingType })),
		dbl("cartesian_goal_velocity", "%", "Speed of absolute Cartesian moves at speed override 1, in percent of each joint's velocity limit",
			5, 0, 100, true, func(p *Params) *float64 { return &goal(p).Velocity }),
		compat(dbl("cartesian_goal_acceleration", "%", "Acceleration of absolute Cartesian moves", 100, 0, 100, true,
			func(p *Params) *float64 { return &goal(p).Acceleration })),
		compat(dbl("cartesian_blending", "m", "Blending of absolute Cartesian moves", 0, 0, inf, false,
			func(p *Params) *float64 { return &goal(p).Blending })),
		compat(str("cartesian_goal_command_type_rotational_movement_lin", "Command type of rotation-only LIN goal moves", "LIN", nil,
			func(p *Params) *string { return &p.CartesianGoalLinCommandTypeRotational })),
		compat(str("cartesian_goal_command_type_translational_movement_lin", "Command type of LIN goal moves with translation", "LIN", nil,
			func(p *Params) *string { return &p.CartesianGoalLinCommandTypeTranslational })),
		compat(str("cartesian_goal_velocity_type_lin", "Unit of cartesian_goal_velocity_lin", "M/S", nil,
			func(p *Params) *string { return &p.CartesianGoalLinVelocityType })),
		compat(str("cartesian_goal_acceleration_type_lin", "Unit of cartesian_goal_acceleration_lin", "PERCENT", nil,
			func(p *Params) *string { return &p.CartesianGoalLinAccelerationType })),
		compat(dbl("cartesian_goal_velocity_lin", "m/s", "Speed of LIN goal moves", 0.1, 0, inf, true,
			func(p *Params) *float64 { return &p.CartesianGoalLinVelocity })),
		compat(dbl("cartesian_goal_acceleration_lin", "%", "Acceleration of LIN goal moves", 100, 0, 100, true,
			func(p *Params) *float64 { return &p.CartesianGoalLinAcceleration })),
	)
	t = append(t,
		readOnly(str("robot_data.fixed_frame", "Robot base frame: the root of the kinematic chain, in which joint targets are computed", "manufacturer_base", nil,
			func(p *Params) *string { return &p.RobotData.FixedFrame })),
		readOnly(str("robot_data.flange_frame", "Tool frame: the tip of the kinematic chain", "robot_state_tcp", nil,
			func(p *Params) *string { return &p.RobotData.FlangeFrame })),
		readOnly(str("robot_data.urdf_param", "Parameter holding the robot's URDF", "robot_description", nil,
			func(p *Params) *string { return &p.RobotData.URDFParam })),
		readOnly(str("robot_data.world_frame", "World frame; incremental moves referred to it or to fixed_frame turn about the tool", "world", nil,
			func(p *Params) *string { return &p.RobotData.WorldFrame })),
	)
	limits := func(name, unit, desc string, def rosparam.ParameterValue, validate func(rosparam.ParameterValue) error) entry {
		return entry{Param: rosparam.Param{Name: name, Type: def.Type, Default: def, Unit: unit, Description: desc,
			ReadOnly: true, Validate: validate}, field: func(p *Params) any { return &p.JointLimits }}
	}
	units := func(v rosparam.ParameterValue) error {
		for _, u := range v.StringArrayValue {
			if u != "" && u != "deg" && u != "m" {
				return fmt.Errorf(`unit %q: want "", "deg" or "m"`, u)
			}
		}
		return nil
	}
	t = append(t,
		limits(jointLimitsMin, "deg or m", "Lower joint limits, one per joint, in degrees unless the unit is m; narrower than the URDF's, or empty", rosparam.DoubleArray([]float64{}), finite),
		limits(jointLimitsMax, "deg or m", "Upper joint limits, as joint_limits.min", rosparam.DoubleArray([]float64{}), finite),
		limits(jointLimitsUnit, "", `Unit of each joint limit: "" or "deg" (degrees) or "m" (metres, prismatic joints)`, rosparam.StringArray([]string{}), units),
		limits(jointLimitsStep, "deg or m", "GUI step of each joint (informative)", rosparam.DoubleArray([]float64{}), finite),
	)
	return t
}
