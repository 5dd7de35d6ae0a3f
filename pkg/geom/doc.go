// Package geom holds the one rigid-transform type of telebridge: a
// translation [m] and a unit quaternion, with composition, inversion,
// interpolation and conversion to and from Euler angles (intrinsic ZYX:
// rz about Z, then ry about the new Y, then rx about the new X, [rad]).
//
// A Transform named T_ab (written "a -> b" in the docs) maps coordinates
// expressed in frame b into frame a; it is also the pose of frame b seen
// from frame a. Composition follows the frame names:
// T_ac = T_ab.Mul(T_bc).
//
// URDF's fixed-axis roll-pitch-yaw (rotate about X by roll, then Y by
// pitch, then Z by yaw, all about the fixed axes) is the same rotation as
// intrinsic ZYX with rz=yaw, ry=pitch, rx=roll, so FromRPY and FromEulerZYX
// share one implementation.
//
// All values are plain values; every function is safe for concurrent use
// and allocates nothing.
package geom
