// Package crawler is the Servosila Engineer in a physics World (package
// physics): built from its URDF (launch/urdf/servosila_engineer.urdf by
// default), it is a chassis body carrying two tracks, the flipper pair on
// one motored hinge, and the arm's waist, shoulder, elbow and neck as
// motored hinges; the gripper is not simulated (its jaw is fixed closed).
//
// Masses and inertias are the URDF's, summed per rigid body (links on
// fixed joints merged, parallel axis theorem); each moving joint's limits,
// effort (the motor's torque limit [N m]) and velocity (its cap [rad/s])
// are the URDF's. Joints are indexed as the driver's (wire.Joint) and
// take velocity commands [rad/s] like the robot's motors; a joint
// commanded to stop holds its angle (the hinges are servos).
//
// Tracks are belts (contact surface motion, as Gazebo classic's tracked
// vehicles, Pecka et al. IROS 2017): every contact of a track or flipper
// shape gets friction direction 1 along the belt and a surface velocity
// of the commanded track speed. Each belted link's URDF box becomes a
// stadium (a box between two pulleys of its height) with road wheels in
// between, so that the belt presses on the ground along its length and
// rolls onto edges. A force-dependent slip (physics.Material Slip and
// SideSlip, DefaultTrack) is calibrated so that the robot turns at the
// kinematic model's rate (pkg/servosila/sim, effective track separation
// 0.704 m) although its tracks are 0.44 m apart in the URDF.
//
// Frames: base_link as in the URDF (x forward, z up, at the track axles'
// height); the world z up. Units SI.
package crawler
