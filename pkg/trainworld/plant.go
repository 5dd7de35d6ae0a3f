package trainworld

import (
	"fmt"
	"math"

	"github.com/telebridge/telebridge/pkg/odometry"
	servosilasim "github.com/telebridge/telebridge/pkg/servosila/sim"
	"github.com/telebridge/telebridge/pkg/servosila/wire"
)

// DefaultTorqueConstant is the assumed torque per ampere of a joint motor
// at the joint's output [N m/A] (motor constant times gear ratio): the
// vendor's calibration (wire.Calibration) has none, and no paper measured
// one. 10 N m/A makes the URDF's largest arm effort read tens of amperes,
// the order of a geared 24 V motor. An assumption, in docs/world.md.
const DefaultTorqueConstant = 10.0

// Plant is the Servosila vendor simulator's machine in the world
// (servosilasim.Plant): the commands of each simulator step go to the
// crawler's tracks and joint motors, and the truth comes from the physics.
type Plant struct {
	// W is the world whose robot the plant drives.
	W *World
	// TorqueConstant converts joint torque into motor current [N m/A].
	// Default DefaultTorqueConstant.
	TorqueConstant float64
}

var _ servosilasim.Plant = (*Plant)(nil)

// Drive implements servosilasim.Plant.
func (p *Plant) Drive(left, right float64, joints *[wire.NumJoints]float64) error {
	w := p.W
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return fmt.Errorf("trainworld: plant: world closed")
	}
	if err := w.robot.SetTracks(left, right); err != nil {
		return err
	}
	for j, v := range joints {
		if w.robot.Joints[j] == nil {
			continue
		}
		if err := w.robot.SetJointVelocity(wire.Joint(j), v); err != nil {
			return err
		}
	}
	return nil
}

// Observe implements servosilasim.Plant.
func (p *Plant) Observe(t *servosilasim.Truth) error {
	s, err := p.W.Robot()
	if err != nil {
		return err
	}
	kt := p.TorqueConstant
	if kt == 0 {
		kt = DefaultTorqueConstant
	}
	t.Pose = toGeom(s.Base)
	t.Pose2D = odometry.Pose2D{X: s.Base.Pos[0], Y: s.Base.Pos[1], Yaw: yawOf(t.Pose.Rotation)}
	t.Linear, t.Angular, t.Tilt = s.Forward, s.YawRate, s.Tilt
	t.Joints, t.JointVel, t.Torques = s.Joints, s.Rates, s.Torques
	for j, tq := range s.Torques {
		t.Currents[j] = tq / kt
		if math.IsNaN(t.Currents[j]) {
			t.Currents[j] = 0
		}
	}
	return nil
}
