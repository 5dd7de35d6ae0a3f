// Package balance computes the static balance of a robot from its URDF:
// the whole robot's centre of mass for the live joint positions, the
// support polygon of the links that touch the ground, and the static
// stability margin on flat ground or on a slope. It is pure maths: no
// clock, no I/O after New.
//
// Frames and units: everything is in the URDF's root (base) frame
// ([m], x forward, y left, z up, REP 103); joint positions are [rad]
// (revolute, continuous) or [m] (prismatic). The ground plane is the
// plane z = GroundZ of the base frame: the robot stands on it, so on a
// slope the plane tilts with the robot and gravity does not point along
// -z. Ground.Pitch and Ground.Roll [rad] are the base's attitude on the
// slope as REP 103 defines them (pitch > 0: nose down; roll > 0: left side
// up); gravity in the base frame is R(roll, pitch)ᵀ·(0, 0, -1).
//
// Centre of mass: the mass-weighted mean of every link's <inertial>
// origin, carried to the base frame by the forward kinematics of the
// URDF's tree (fixed, revolute, continuous and prismatic joints; the tree
// of a crawler has several branches, so pkg/kinematics' serial chains do
// not fit, but its Joint.Motion does).
//
// Support polygon: the convex hull, in the ground plane, of the points of
// the contact links' geometry that lie within Params.Tolerance of the
// ground plane (or below it): the corners of boxes, 16 points of each rim
// of cylinders, the lowest point of spheres. A contact link's <collision>
// geometry is used, or its <visual> geometry where it has no collision
// (the Servosila's flippers). Which links may touch the ground is not
// written in a URDF: Params.ContactLinks names them. The ground plane's
// height is that of Params.GroundLink's origin at zero joints
// (base_footprint), or the lowest contact point there.
//
// Stability margin: the signed distance [m] in the ground plane from the
// CoM's projection along gravity to the nearest edge of the polygon,
// positive inside, negative outside. The tip-over angle of an edge [rad]
// is how much more the ground may tilt about that edge, towards its
// outside, before the CoM passes over it.
//
// Assumed masses: a link whose nearest preceding XML comment says
// "assumed" or "estimate" has an assumed mass; Model.Assumed says which
// share of the total mass is so, and every Result carries it.
package balance
