// Package jog is the core of a drag&bot-style jog server: it turns
// operator requests (start a joint or Cartesian move, absolute or
// incremental; stop; heartbeat) into one joint target per cycle for a
// robot arm, and stops the arm when the operator's heartbeat lapses.
//
// # Requests
//
// Joint moves take one value per joint [rad, or m for prismatic joints]:
// a goal, or a direction that is normalised so that each cycle's target is
// step_joints ahead of the measured joints. Cartesian moves take a pose
// x, y, z [m] and Euler angles rz, ry, rx [rad] (intrinsic ZYX: rz about
// Z, then ry about the new Y, then rx about the new X) relative to a tf
// frame (PoseReference, default the world frame) and optionally an extra
// frame given in it. A goal is T_base_ref * T_ref_extra * pose
// (CartesianGoalInBase). An incremental move normalises the position and
// the rotation separately to step_translation [m] and step_rotation [rad]
// per cycle, expressed in the reference frame; when that frame is the
// world or the robot base the step turns about the tool point with the
// frame's axes. Speed, in (0, 1], scales the velocity (and the steps if
// step_scale_* is set).
//
// # Cycle
//
// Controller.Step(now) is a pure function of the controller's state, the
// last measured joints and now: no clock is read, so tests inject time.
// Each cycle it checks the heartbeat (timeout heartbeat_timeout, 0.2 s by
// default, changeable live) and the freshness of the joint state, then
// computes the target: measured + step for incremental joint moves; the
// inverse kinematics of the next pose for Cartesian ones (one attempt from
// the measured joints, so the arm never jumps to another branch); the goal
// for absolute moves, until every joint is within tolerance. Targets
// always lie within the joint limits (the URDF's, narrowed by the
// joint_limits parameter, degrees unless the unit is m). TimeFromStart is
// set so that every joint moves at most at its velocity limit times the
// move's *_velocity percentage times the speed override, all arriving
// together. When a motion ends (stop, heartbeat timeout, error) the next
// target is the measured position, marked Hold (not when the joint state
// is stale: a hold at an old position could send the arm back); then
// nothing is sent until the next start, so no stale motion is ever
// replayed.
//
// Runner runs the cycle in real time at update_rate (20 Hz) with
// pkg/rate, between a JointSource and an Output (an Arm is both).
//
// # Parameters
//
// ParameterTable lists every parameter of the drag&bot control panel as a
// rosparam.Table (type, default, unit, range, description, read-only,
// validation); Params holds their values, Params.Apply and Params.Set
// validate, ValidateUpdate is the cross-parameter check for a
// rosparam.Store and Controller.ApplyParams takes live changes. Names
// (NodeName, *Service, *Topic) and the request types mirror the ROS 2
// interfaces, so the ROS node only wires.
//
// A Controller is safe for concurrent use.
package jog
