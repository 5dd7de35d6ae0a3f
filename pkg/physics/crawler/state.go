package crawler

import (
	"fmt"

	"github.com/telebridge/telebridge/pkg/physics"
	"github.com/telebridge/telebridge/pkg/servosila/wire"
)

// SetTracks sets the commanded track speeds [m/s] (positive forward), as
// the robot's two track motors execute them.
func (r *Robot) SetTracks(left, right float64) error {
	if err := r.Left.SetSpeed(left); err != nil {
		return fmt.Errorf("crawler: left track: %w", err)
	}
	if err := r.Right.SetSpeed(right); err != nil {
		return fmt.Errorf("crawler: right track: %w", err)
	}
	return nil
}

// SetTwist commands the chassis twist as the vendor server and the
// kinematic simulator mix it: left track v - w*B/2, right v + w*B/2 (B =
// Config.TrackSeparation); v [m/s] forward, w [rad/s] counter-clockwise.
func (r *Robot) SetTwist(v, w float64) error {
	h := w * r.cfg.TrackSeparation / 2
	return r.SetTracks(v-h, v+h)
}

// SetJointVelocity sets joint j's motor target velocity [rad/s] (capped
// at the URDF's velocity limit); 0 holds it with up to the URDF's effort.
func (r *Robot) SetJointVelocity(j wire.Joint, v float64) error {
	if int(j) >= len(r.Joints) || r.Joints[j] == nil {
		return fmt.Errorf("crawler: joint %v is not simulated", j)
	}
	return r.Joints[j].SetVelocity(v)
}

// State is the robot's ground truth from the physics.
type State struct {
	Base     physics.Pose // base_link in the world
	Velocity physics.Vec3 // base_link origin's velocity [m/s, world]
	Spin     physics.Vec3 // chassis angular velocity [rad/s, world]
	// Forward is the speed along base_link's x axis [m/s]; YawRate the
	// turn rate about world z [rad/s]; Tilt the angle of base_link's z
	// axis from the vertical [rad].
	Forward, YawRate, Tilt float64
	// Joints, Rates and Torques are by wire.Joint [rad, rad/s, N m]
	// (zero for the gripper, not simulated).
	Joints, Rates, Torques [wire.NumJoints]float64
}

// State reads the robot's state.
func (r *Robot) State() (State, error) {
	var s State
	var err error
	if s.Base, err = r.Chassis.Pose(); err != nil {
		return s, err
	}
	if s.Velocity, s.Spin, err = r.Chassis.Velocity(); err != nil {
		return s, err
	}
	s.Forward = s.Base.Rot.Rotate(physics.Vec3{1, 0, 0}).Dot(s.Velocity)
	s.YawRate = s.Spin[2]
	s.Tilt = s.Base.Rot.Tilt()
	for i, h := range r.Joints {
		if h == nil {
			continue
		}
		if s.Joints[i], err = h.Angle(); err != nil {
			return s, err
		}
		if s.Rates[i], err = h.Rate(); err != nil {
			return s, err
		}
		if s.Torques[i], err = h.Torque(); err != nil {
			return s, err
		}
	}
	return s, nil
}

// LinkPose returns URDF link name's pose in the world now (its body's
// pose composed with the link's fixed place on that body), e.g. a
// camera link's for rendering what it sees.
func (r *Robot) LinkPose(name string) (physics.Pose, error) {
	rel, ok := r.linkPose[name]
	if !ok {
		return physics.Pose{}, fmt.Errorf("crawler: no link %q on the robot", name)
	}
	p, err := r.Links[r.linkBody[name]].Pose()
	if err != nil {
		return physics.Pose{}, err
	}
	return p.Compose(rel), nil
}
