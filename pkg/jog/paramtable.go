package jog

import "math"

var none = math.NaN()

func dbl(name, unit, desc string, def, lo, hi float64, minOpen bool, field func(*Params) *float64) Param {
	return Param{Name: name, Type: Double, Default: DoubleValue(def), Unit: unit, Description: desc,
		Min: lo, Max: hi, MinOpen: minOpen, Used: true, field: func(p *Params) any { return field(p) }}
}

func boolean(name, desc string, def bool, field func(*Params) *bool) Param {
	return Param{Name: name, Type: Bool, Default: BoolValue(def), Description: desc,
		Min: none, Max: none, Used: true, field: func(p *Params) any { return field(p) }}
}

func str(name, desc, def string, choices []string, field func(*Params) *string) Param {
	return Param{Name: name, Type: String, Default: StringValue(def), Description: desc, Choices: choices,
		Min: none, Max: none, Used: true, field: func(p *Params) any { return field(p) }}
}

// rmi marks a parameter as accepted for compatibility only.
func rmi(p Param) Param {
	p.Used = false
	p.Description += " (robot_movement_interface setting: accepted and validated, no effect on the JointTrajectory output)"
	return p
}

// moveGroup returns the eight settings of one kind of move.
func moveGroup(prefix, what string, def MoveSettings, g func(*Params) *MoveSettings) []Param {
	return []Param{
		rmi(boolean(prefix+"_replace", "Replace the robot's command list on each "+what+" command", def.Replace,
			func(p *Params) *bool { return &g(p).Replace })),
		rmi(str(prefix+"_command_type", "Command type sent for "+what+" moves", def.CommandType, nil,
			func(p *Params) *string { return &g(p).CommandType })),
		str(prefix+"_velocity_type", "Unit of "+prefix+"_velocity: PERCENT of each joint's velocity limit", def.VelocityType,
			[]string{"PERCENT"}, func(p *Params) *string { return &g(p).VelocityType }),
		rmi(str(prefix+"_acceleration_type", "Unit of "+prefix+"_acceleration", def.AccelerationType, nil,
			func(p *Params) *string { return &g(p).AccelerationType })),
		rmi(str(prefix+"_blending_type", "Unit of "+prefix+"_blending", def.BlendingType, nil,
			func(p *Params) *string { return &g(p).BlendingType })),
		dbl(prefix+"_velocity", "%", "Speed of "+what+" moves at speed override 1, in percent of each joint's velocity limit",
			def.Velocity, 0, 100, true, func(p *Params) *float64 { return &g(p).Velocity }),
		rmi(dbl(prefix+"_acceleration", "%", "Acceleration of "+what+" moves", def.Acceleration, 0, 100, true,
			func(p *Params) *float64 { return &g(p).Acceleration })),
		rmi(dbl(prefix+"_blending", "m", "Blending of "+what+" moves", def.Blending, 0, none, false,
			func(p *Params) *float64 { return &g(p).Blending })),
	}
}

var paramTable = buildTable()

func buildTable() []Param {
	t := []Param{
		func() Param {
			p := dbl("update_rate", "Hz", "Rate at which targets are recomputed and sent to the robot (best effort)",
				20, 0, 1000, true, func(p *Params) *float64 { return &p.UpdateRate })
			p.ReadOnly = true
			return p
		}(),
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
		dbl("min_translation_step", "m", "An incremental Cartesian target is not sent if it is within this distance and min_rotation_step of the previous target (0: it only has to differ)",
			0, 0, none, false, func(p *Params) *float64 { return &p.MinTranslationStep }),
		dbl("min_rotation_step", "rad", "See min_translation_step",
			0, 0, none, false, func(p *Params) *float64 { return &p.MinRotationStep }),
	}
	t = append(t, moveGroup("joints_delta", "incremental joint", MoveSettings{true, "PTPCP", "PERCENT", "PERCENT", "M", 5, 100, 0.01},
		func(p *Params) *MoveSettings { return &p.JointsDelta })...)
	t = append(t, moveGroup("joints_goal", "absolute joint", MoveSettings{false, "PTP", "PERCENT", "PERCENT", "M", 5, 100, 0.01},
		func(p *Params) *MoveSettings { return &p.JointsGoal })...)
	t = append(t, moveGroup("cartesian_delta", "incremental Cartesian", MoveSettings{true, "PTP", "PERCENT", "PERCENT", "M", 5, 100, 0.01},
		func(p *Params) *MoveSettings { return &p.CartesianDelta })...)
	t = append(t,
		rmi(dbl("cartesian_delta_blending_rot", "m", "Blending of rotation-only incremental Cartesian moves", 0.01, 0, none, false,
			func(p *Params) *float64 { return &p.CartesianDeltaBlendingRot })),
		rmi(dbl("cartesian_delta_acceleration_rot", "%", "Acceleration of rotation-only incremental Cartesian moves", 50, 0, 100, true,
			func(p *Params) *float64 { return &p.CartesianDeltaAccelerationRot })),
	)
	// The Cartesian goal group has the seed's irregular names.
	goal := func(p *Params) *MoveSettings { return &p.CartesianGoal }
	t = append(t,
		rmi(boolean("cartesian_goal_replace", "Replace the robot's command list on each absolute Cartesian command", false,
			func(p *Params) *bool { return &goal(p).Replace })),
		rmi(str("cartesian_goal_command_type_rotational_movement", "Command type of rotation-only absolute Cartesian moves", "PTP", nil,
			func(p *Params) *string { return &p.CartesianGoalCommandTypeRotational })),
		rmi(str("cartesian_goal_command_type_translational_movement", "Command type of absolute Cartesian moves with translation", "PTP", nil,
			func(p *Params) *string { return &p.CartesianGoalCommandTypeTranslational })),
		str("cartesian_goal_velocity_type", "Unit of cartesian_goal_velocity: PERCENT of each joint's velocity limit (goals are reached point to point)", "PERCENT",
			[]string{"PERCENT"}, func(p *Params) *string { return &goal(p).VelocityType }),
		rmi(str("cartesian_goal_acceleration_type", "Unit of cartesian_goal_acceleration", "PERCENT", nil,
			func(p *Params) *string { return &goal(p).AccelerationType })),
		rmi(str("cartesian_blending_type", "Unit of cartesian_blending", "M", nil,
			func(p *Params) *string { return &goal(p).BlendingType })),
		dbl("cartesian_goal_velocity", "%", "Speed of absolute Cartesian moves at speed override 1, in percent of each joint's velocity limit",
			5, 0, 100, true, func(p *Params) *float64 { return &goal(p).Velocity }),
		rmi(dbl("cartesian_goal_acceleration", "%", "Acceleration of absolute Cartesian moves", 100, 0, 100, true,
			func(p *Params) *float64 { return &goal(p).Acceleration })),
		rmi(dbl("cartesian_blending", "m", "Blending of absolute Cartesian moves", 0, 0, none, false,
			func(p *Params) *float64 { return &goal(p).Blending })),
		rmi(str("cartesian_goal_command_type_rotational_movement_lin", "Command type of rotation-only LIN goal moves", "LIN", nil,
			func(p *Params) *string { return &p.CartesianGoalLinCommandTypeRotational })),
		rmi(str("cartesian_goal_command_type_translational_movement_lin", "Command type of LIN goal moves with translation", "LIN", nil,
			func(p *Params) *string { return &p.CartesianGoalLinCommandTypeTranslational })),
		rmi(str("cartesian_goal_velocity_type_lin", "Unit of cartesian_goal_velocity_lin", "M/S", nil,
			func(p *Params) *string { return &p.CartesianGoalLinVelocityType })),
		rmi(str("cartesian_goal_acceleration_type_lin", "Unit of cartesian_goal_acceleration_lin", "PERCENT", nil,
			func(p *Params) *string { return &p.CartesianGoalLinAccelerationType })),
		rmi(dbl("cartesian_goal_velocity_lin", "m/s", "Speed of LIN goal moves", 0.1, 0, none, true,
			func(p *Params) *float64 { return &p.CartesianGoalLinVelocity })),
		rmi(dbl("cartesian_goal_acceleration_lin", "%", "Acceleration of LIN goal moves", 100, 0, 100, true,
			func(p *Params) *float64 { return &p.CartesianGoalLinAcceleration })),
	)
	ro := func(p Param) Param { p.ReadOnly = true; return p }
	t = append(t,
		ro(str("robot_data.fixed_frame", "Robot base frame: the root of the kinematic chain, in which joint targets are computed", "manufacturer_base", nil,
			func(p *Params) *string { return &p.RobotData.FixedFrame })),
		ro(str("robot_data.flange_frame", "Tool frame: the tip of the kinematic chain", "robot_state_tcp", nil,
			func(p *Params) *string { return &p.RobotData.FlangeFrame })),
		ro(str("robot_data.urdf_param", "Parameter holding the robot's URDF", "robot_description", nil,
			func(p *Params) *string { return &p.RobotData.URDFParam })),
		ro(str("robot_data.world_frame", "World frame; incremental moves referred to it or to fixed_frame turn about the tool", "world", nil,
			func(p *Params) *string { return &p.RobotData.WorldFrame })),
	)
	limits := func(name, unit, desc string, typ ParamType) Param {
		var def Value
		if typ == StringArray {
			def = StringsValue()
		} else {
			def = DoublesValue()
		}
		return Param{Name: name, Type: typ, Default: def, Unit: unit, Description: desc, Min: none, Max: none,
			ReadOnly: true, Used: name != jointLimitsStep, field: func(p *Params) any { return &p.JointLimits }}
	}
	t = append(t,
		limits(jointLimitsMin, "deg or m", "Lower joint limits, one per joint, in degrees unless the unit is m; tighter than the URDF's or empty", DoubleArray),
		limits(jointLimitsMax, "deg or m", "Upper joint limits, as joint_limits.min", DoubleArray),
		limits(jointLimitsUnit, "", `Unit of each joint limit: "" or "deg" (degrees) or "m" (metres, prismatic joints)`, StringArray),
		limits(jointLimitsStep, "deg or m", "GUI step of each joint (informative)", DoubleArray),
	)
	return t
}
