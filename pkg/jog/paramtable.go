package jog

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/telebridge/telebridge/pkg/jog/control"
	"github.com/telebridge/telebridge/pkg/rosparam"
)

// entry is one parameter: its rosparam description and the Params field
// it fills.
type entry struct {
	rosparam.Param
	field func(p *Params) any // pointer to the field
}

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

func readOnly(e entry) entry {
	e.ReadOnly = true
	return e
}

// commandType is a command type parameter: one of choices; a relative
// type where it is not a choice gets its own refusal.
func commandType(name, desc, def string, choices []string, field func(*Params) *string) entry {
	e := str(name, desc, def, choices, field)
	inner := e.Validate
	e.Validate = func(v rosparam.ParameterValue) error {
		if control.IsRelative(v.StringValue) && !slices.Contains(choices, v.StringValue) {
			return fmt.Errorf("%s is a relative Cartesian command: only cartesian_delta_command_type takes one; use one of %s", v.StringValue, strings.Join(choices, ", "))
		}
		return inner(v)
	}
	return e
}

// moveGroup returns the eight settings of one kind of move; commands are
// the command types it allows, blending the blending radius's meaning.
func moveGroup(prefix, what string, def MoveSettings, commands []string, replace, command, blending string, g func(*Params) *MoveSettings) []entry {
	return []entry{
		boolean(prefix+"_replace", replace, def.Replace,
			func(p *Params) *bool { return &g(p).Replace }),
		commandType(prefix+"_command_type", command, def.CommandType, commands,
			func(p *Params) *string { return &g(p).CommandType }),
		str(prefix+"_velocity_type", "Unit of "+prefix+"_velocity: PERCENT of each joint's velocity limit", def.VelocityType,
			[]string{"PERCENT"}, func(p *Params) *string { return &g(p).VelocityType }),
		str(prefix+"_acceleration_type", "Unit of "+prefix+"_acceleration: PERCENT of each joint's acceleration limit", def.AccelerationType,
			[]string{"PERCENT"}, func(p *Params) *string { return &g(p).AccelerationType }),
		str(prefix+"_blending_type", "Unit of "+prefix+"_blending: M (metres, or rad in joint space)", def.BlendingType,
			[]string{"M"}, func(p *Params) *string { return &g(p).BlendingType }),
		dbl(prefix+"_velocity", "%", "Speed of "+what+" moves at speed override 1, in percent of each joint's velocity limit",
			def.Velocity, 0, 100, true, func(p *Params) *float64 { return &g(p).Velocity }),
		dbl(prefix+"_acceleration", "%", "Acceleration of "+what+" moves, in percent of each joint's acceleration limit", def.Acceleration, 0, 100, true,
			func(p *Params) *float64 { return &g(p).Acceleration }),
		dbl(prefix+"_blending", "m", blending, def.Blending, 0, math.Inf(1), false,
			func(p *Params) *float64 { return &g(p).Blending }),
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
	ptp := []string{CommandPTP, CommandPTPCP}
	t = append(t, moveGroup("joints_delta", "incremental joint", MoveSettings{true, "PTPCP", "PERCENT", "PERCENT", "M", 5, 100, 0.01}, ptp,
		"A new incremental joint command takes over at once; false: the step in progress is finished first",
		"PTP: the arm stops at every step target; PTPCP: the next step target is taken within joints_delta_blending, without stopping",
		"Blending radius of incremental joint moves with PTPCP: the next step target is taken when every joint is this close to the current one [rad or m]",
		func(p *Params) *MoveSettings { return &p.JointsDelta })...)
	t = append(t, moveGroup("joints_goal", "absolute joint", MoveSettings{false, "PTP", "PERCENT", "PERCENT", "M", 5, 100, 0.01}, ptp,
		"A new absolute goal replaces the current one at once; false: it is queued behind the current goal",
		"PTP: the arm stops at every queued goal; PTPCP: it blends into the next queued goal within joints_goal_blending",
		"Blending radius between queued absolute joint goals with PTPCP [rad or m per joint]",
		func(p *Params) *MoveSettings { return &p.JointsGoal })...)
	t = append(t, moveGroup("cartesian_delta", "incremental Cartesian", MoveSettings{true, "PTP", "PERCENT", "PERCENT", "M", 5, 100, 0.01},
		[]string{CommandPTP, control.CommandREL, control.CommandRELW, control.CommandRELT},
		"A new incremental Cartesian command takes over at once; false: the target in progress stays and the new direction applies from the next one",
		"PTP: each point goes to the arm as joint positions; REL, RELW, RELT: the same points go as the increment from the measured tool, in the base's, the world's or the tool's axes, to an arm that takes relative Cartesian commands (refused at start-up for an arm that takes joint trajectories only)",
		"The next incremental Cartesian target is computed only when the commanded tool is this close to the current one (0: the arm stops at every target)",
		func(p *Params) *MoveSettings { return &p.CartesianDelta })...)
	t = append(t,
		dbl("cartesian_delta_blending_rot", "rad", "cartesian_delta_blending for rotation-only incremental Cartesian moves, as an angle", 0.01, 0, inf, false,
			func(p *Params) *float64 { return &p.CartesianDeltaBlendingRot }),
		dbl("cartesian_delta_acceleration_rot", "%", "Acceleration of rotation-only incremental Cartesian moves, in percent of each joint's acceleration limit", 50, 0, 100, true,
			func(p *Params) *float64 { return &p.CartesianDeltaAccelerationRot }),
	)
	// The Cartesian goal group has the seed's irregular names.
	goal := func(p *Params) *MoveSettings { return &p.CartesianGoal }
	gtypes := []string{CommandPTP, CommandPTPCP, CommandLIN}
	t = append(t,
		boolean("cartesian_goal_replace", "A new absolute Cartesian goal replaces the current one at once; false: it is queued behind the current goal", false,
			func(p *Params) *bool { return &goal(p).Replace }),
		commandType("cartesian_goal_command_type_rotational_movement", "Command type of rotation-only absolute Cartesian moves: PTP, PTPCP (point to point) or LIN (about the tool point, at the _lin settings)", "PTP", gtypes,
			func(p *Params) *string { return &p.CartesianGoalCommandTypeRotational }),
		commandType("cartesian_goal_command_type_translational_movement", "Command type of absolute Cartesian moves with translation: PTP, PTPCP (point to point) or LIN (straight line, at the _lin settings)", "PTP", gtypes,
			func(p *Params) *string { return &p.CartesianGoalCommandTypeTranslational }),
		str("cartesian_goal_velocity_type", "Unit of cartesian_goal_velocity: PERCENT of each joint's velocity limit", "PERCENT",
			[]string{"PERCENT"}, func(p *Params) *string { return &goal(p).VelocityType }),
		str("cartesian_goal_acceleration_type", "Unit of cartesian_goal_acceleration: PERCENT of each joint's acceleration limit", "PERCENT",
			[]string{"PERCENT"}, func(p *Params) *string { return &goal(p).AccelerationType }),
		str("cartesian_blending_type", "Unit of cartesian_blending: M (metres)", "M",
			[]string{"M"}, func(p *Params) *string { return &goal(p).BlendingType }),
		dbl("cartesian_goal_velocity", "%", "Speed of point-to-point absolute Cartesian moves at speed override 1, in percent of each joint's velocity limit",
			5, 0, 100, true, func(p *Params) *float64 { return &goal(p).Velocity }),
		dbl("cartesian_goal_acceleration", "%", "Acceleration of point-to-point absolute Cartesian moves, in percent of each joint's acceleration limit", 100, 0, 100, true,
			func(p *Params) *float64 { return &goal(p).Acceleration }),
		dbl("cartesian_blending", "m", "Blending radius between queued point-to-point Cartesian goals with PTPCP: the next goal is taken when the commanded tool is this close to the current one (0: stop at each)", 0, 0, inf, false,
			func(p *Params) *float64 { return &goal(p).Blending }),
		str("cartesian_goal_command_type_rotational_movement_lin", "Command type of rotation-only LIN goal moves (LIN, the only straight-line command)", "LIN", []string{CommandLIN},
			func(p *Params) *string { return &p.CartesianGoalLinCommandTypeRotational }),
		str("cartesian_goal_command_type_translational_movement_lin", "Command type of LIN goal moves with translation (LIN, the only straight-line command)", "LIN", []string{CommandLIN},
			func(p *Params) *string { return &p.CartesianGoalLinCommandTypeTranslational }),
		str("cartesian_goal_velocity_type_lin", "Unit of cartesian_goal_velocity_lin: M/S (rotation-only lines: the same number in rad/s)", "M/S", []string{"M/S"},
			func(p *Params) *string { return &p.CartesianGoalLinVelocityType }),
		str("cartesian_goal_acceleration_type_lin", "Unit of cartesian_goal_acceleration_lin: PERCENT of each joint's acceleration limit", "PERCENT", []string{"PERCENT"},
			func(p *Params) *string { return &p.CartesianGoalLinAccelerationType }),
		dbl("cartesian_goal_velocity_lin", "m/s", "Tool speed of LIN goal moves at speed override 1 (rotation-only: rad/s); a line on which a joint would exceed its velocity limit is refused", 0.1, 0, 10, true,
			func(p *Params) *float64 { return &p.CartesianGoalLinVelocity }),
		dbl("cartesian_goal_acceleration_lin", "%", "Acceleration of LIN goal moves, in percent of each joint's acceleration limit (half of it for the path acceleration, half for the path's curvature)", 100, 0, 100, true,
			func(p *Params) *float64 { return &p.CartesianGoalLinAcceleration }),
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
		limits(jointLimitsStep, "deg or m", "step of each joint in the operator console (its goal box and step buttons), >= 0, 0 for none", rosparam.DoubleArray([]float64{}), finite),
	)
	positive := func(v rosparam.ParameterValue) error {
		for _, x := range v.DoubleArrayValue {
			if !(x > 0) || math.IsInf(x, 0) {
				return fmt.Errorf("every limit must be a positive finite number, not %g", x)
			}
		}
		return nil
	}
	t = append(t,
		readOnly(entry{Param: rosparam.Param{Name: "joint_acceleration_limits", Type: rosparam.ParameterDoubleArray, Default: rosparam.DoubleArray([]float64{}),
			Unit: "rad/s² or m/s²", Description: "Acceleration limit of each joint, base to tip (URDF has none); empty: default_joint_acceleration for every joint",
			Validate: positive}, field: func(p *Params) any { return &p.JointAccelerations }}),
		dbl("default_joint_acceleration", "rad/s² or m/s²", "Acceleration limit of every joint when joint_acceleration_limits is empty",
			2, 0, 1000, true, func(p *Params) *float64 { return &p.DefaultJointAcceleration }),
		dbl("max_stop_time", "s", "Longest deceleration of a stop (stop service, heartbeat timeout, stale joint state, shutdown): a stop within the acceleration limits that would take longer decelerates harder",
			0.5, 0, 10, true, func(p *Params) *float64 { return &p.MaxStopTime }),
	)
	return t
}
