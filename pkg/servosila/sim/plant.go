package sim

import (
	"github.com/telebridge/telebridge/pkg/geom"
	"github.com/telebridge/telebridge/pkg/odometry"
	"github.com/telebridge/telebridge/pkg/servosila/wire"
)

// Plant is the machine the simulator's motors drive. Nil (Config.Plant)
// is the built-in kinematic model: exact arcs from the track speeds and
// joint angles integrated from their speeds. Another plant (the physics
// crawler of a training world, pkg/trainworld) moves on its own clock;
// the simulator hands it the commands of each step, after the link
// timeout and the stall model, and reads back its truth for State and the
// telemetry. The protocol side (packets, rates, link timeout, e-stop) is
// the same for every plant.
type Plant interface {
	// Drive sets what the motors execute from now on: the track speeds
	// [m/s] (positive forward) and the joint velocities [rad/s] by
	// wire.Joint. It is called once per simulator step.
	Drive(left, right float64, joints *[wire.NumJoints]float64) error
	// Observe fills truth with the plant's state now.
	Observe(truth *Truth) error
}

// Truth is a plant's state as the simulator reports it.
type Truth struct {
	// Pose is base_link's pose in the world frame [m, rad] (3-D).
	Pose geom.Transform
	// Pose2D is Pose projected on the ground plane (x, y, yaw).
	Pose2D odometry.Pose2D
	// Linear is the speed along base_link's x axis [m/s]; Angular the yaw
	// rate about world z [rad/s]; Tilt the angle of base_link's z axis
	// from the vertical [rad].
	Linear, Angular, Tilt float64
	// Joints [rad], JointVel [rad/s], Torques [N m] and Currents [A] by
	// wire.Joint.
	Joints, JointVel, Torques, Currents [wire.NumJoints]float64
}

// drivePlant hands the step's commands to the plant and reads its truth
// into st: the pose, the executed chassis twist, and the joints as the
// plant measured them (what the telemetry then reports). Called with
// s.mu held.
func (s *Sim) drivePlant(st *State) {
	joints := st.JointVel
	err := s.cfg.Plant.Drive(st.Left, st.Right, &joints)
	var t Truth
	if err == nil {
		err = s.cfg.Plant.Observe(&t)
	}
	if err != nil {
		st.PlantErrors++
		st.PlantErr = err
		return
	}
	st.Truth = t
	st.Pose = t.Pose2D
	st.Joints = t.Joints
	st.JointVel = t.JointVel
}

// currentUnits rounds a motor current [A] to the telemetry's int16.
func currentUnits(a float64) int16 {
	switch {
	case a >= 32767:
		return 32767
	case a <= -32768:
		return -32768
	case a != a:
		return 0
	case a < 0:
		return int16(a - 0.5)
	}
	return int16(a + 0.5)
}
