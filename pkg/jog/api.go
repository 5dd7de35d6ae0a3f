package jog

import (
	"fmt"
	"math"

	"github.com/telebridge/telebridge/pkg/geom"
)

// JointMoveRequest mirrors telebridge_interfaces/srv/StartJointMove.
type JointMoveRequest struct {
	// MoveDelta selects an incremental move: JointValues is a direction,
	// normalised to step_joints. Otherwise JointValues is the goal.
	MoveDelta bool
	// JointValues has one value per joint [rad, or m for prismatic
	// joints]; as a direction its length does not matter.
	JointValues []float64
	// Speed is the override in (0, 1] of the configured velocity.
	Speed float64
}

// EulerPose is a pose as x, y, z [m] and intrinsic ZYX Euler angles rz,
// ry, rx [rad] (mirrors telebridge_interfaces/msg/EulerPose).
type EulerPose struct {
	X, Y, Z    float64 // [m]
	RZ, RY, RX float64 // [rad], intrinsic ZYX
}

// Transform returns the pose as a geom.Transform.
func (p EulerPose) Transform() geom.Transform {
	return geom.FromXYZEuler(p.X, p.Y, p.Z, p.RZ, p.RY, p.RX)
}

// EulerPoseOf returns the EulerPose of a transform.
func EulerPoseOf(t geom.Transform) EulerPose {
	var p EulerPose
	p.X, p.Y, p.Z, p.RZ, p.RY, p.RX = t.XYZEuler()
	return p
}

func (p EulerPose) finite() bool {
	for _, v := range [...]float64{p.X, p.Y, p.Z, p.RZ, p.RY, p.RX} {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return false
		}
	}
	return true
}

// CartesianMoveRequest mirrors telebridge_interfaces/srv/StartCartesianMove.
type CartesianMoveRequest struct {
	// PoseReference names the tf frame the pose is relative to; empty
	// means robot_data.world_frame.
	PoseReference string
	// MoveDelta selects an incremental move: Pose's position and rotation
	// are two directions, normalised to step_translation and
	// step_rotation. Otherwise Pose is the goal.
	MoveDelta bool
	// Pose is the goal or the direction, in the reference frame.
	Pose EulerPose
	// UseReferenceFrame adds ReferenceFrame, a frame given as a pose in
	// the PoseReference frame, between that frame and Pose.
	UseReferenceFrame bool
	ReferenceFrame    EulerPose // see UseReferenceFrame
	// Speed is the override in (0, 1] of the configured velocity.
	Speed float64
}

// Response mirrors the services' response fields.
type Response struct {
	Success bool   // the request was accepted
	Message string // why not, or what was done
}

// ResponseOf turns a request's error into a Response.
func ResponseOf(err error) Response {
	if err != nil {
		return Response{Message: err.Error()}
	}
	return Response{Success: true, Message: "ok"}
}

func checkSpeed(s float64) error {
	if !(s > 0 && s <= 1) {
		return fmt.Errorf("%w: speed %g not in (0, 1]", ErrRequest, s)
	}
	return nil
}
