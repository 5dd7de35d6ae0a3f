// Package jog is the core of a drag&bot-style jog server: it turns
// operator requests (start a joint or Cartesian move, absolute or
// incremental; stop; heartbeat) into one joint target per cycle for a
// robot arm, and stops the arm when the operator's heartbeat lapses.
//
// # Requests
//
// Joint moves take one value per joint [rad, or m for prismatic joints]:
// a goal, or a direction that is normalised, along which step targets
// step_joints apart follow each other. Cartesian moves take a pose x, y, z
// [m] and Euler angles rz, ry, rx [rad] (intrinsic ZYX: rz about Z, then
// ry about the new Y, then rx about the new X) relative to a tf frame
// (PoseReference, default the world frame) and optionally an extra frame
// given in it. A goal is T_base_ref * T_ref_extra * pose
// (CartesianGoalInBase), reached point to point (PTP, PTPCP) or along the
// straight line (LIN) as the command type parameters say. An incremental
// move normalises the position and the rotation separately to
// step_translation [m] and step_rotation [rad] per target, expressed in
// the reference frame; when that frame is the world or the robot base the
// step turns about the tool point with the frame's axes. Speed, in (0, 1],
// scales the velocity (and the steps if step_scale_* is set).
//
// # Cycle and profiles
//
// Controller.Step(now) is a pure function of the controller's state, the
// last measured joints and now: no clock is read, so tests inject time.
// Each cycle it checks the heartbeat (timeout heartbeat_timeout, 0.2 s by
// default, changeable live) and the freshness of the joint state, then
// advances the motion's profile by one cycle and returns its next point:
// positions, velocities and TimeFromStart one cycle. The profiles keep
// every joint within its velocity limit (URDF) and acceleration limit
// (joint_acceleration_limits or default_joint_acceleration) times the
// move's percentages: synchronised trapezoids for point-to-point moves,
// a trapezoid of the path length along a LIN line planned and checked
// (IK every 1 mm from the previous solution, joint limits, joint speeds)
// before anything moves. Targets lie within the joint limits (the URDF's,
// soft limits included, narrowed by the joint_limits parameter, degrees
// unless the unit is m). A stop (service, heartbeat timeout, stale joint
// state, error) decelerates all joints together to rest within the
// acceleration limits or max_stop_time, whichever is shorter; its first
// point, marked Hold, is the rest point; then nothing is sent until the
// next start, so no stale motion is ever replayed.
//
// Runner runs the cycle in real time at update_rate (20 Hz) with
// pkg/rate, between a JointSource and an Output (an Arm is both).
//
// # Layout
//
// This package is the runtime: the Controller (its state, the requests,
// the cycle, the heartbeat deadman, the stop), the Runner loop, the
// outputs, and the parameters' values (Params). The maths (profiles,
// lines, Cartesian frames, relative commands) is package jog/control; the
// ROS contract of the jog_server node (names, QoS, the node's parameter
// table and configuration) is package jog/node.
//
// # Parameters
//
// ParameterTable lists every parameter of the drag&bot control panel as a
// rosparam.Table (type, default, unit, range, description, read-only,
// validation); Params holds their values, Params.Apply and Params.Set
// validate, and Controller.ApplyParams takes live changes. The request
// types mirror the ROS 2 interfaces, and package jog/node gives their
// names, so the ROS node only wires.
//
// A Controller is safe for concurrent use.
package jog
