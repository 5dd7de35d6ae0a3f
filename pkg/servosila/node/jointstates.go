package node

import (
	"time"

	"github.com/telebridge/telebridge/pkg/servosila"
	"github.com/telebridge/telebridge/pkg/servosila/wire"
)

// DescriptionFile is the file name of the robot's URDF description, in
// the repository's launch/urdf/ and installed to share/telebridge/urdf/.
// Its moving joints are named as JointStateJoints (Joint.String).
const DescriptionFile = "servosila_engineer.urdf"

// JointStateJoints are the joints servosila_driver publishes on
// joint_states, in this order: every joint with a telemetry record (the
// arm joints, the flippers, and the gripper, whose motor has a record of
// its own: MotorSlots). Their names (Joint.String) are the URDF's joint
// names. The tracks are not joints of the description: their motors
// report no position.
var JointStateJoints = [...]wire.Joint{wire.Waist, wire.Shoulder, wire.Elbow, wire.Neck, wire.Flippers, wire.Gripper}

// JointStates is the content of a sensor_msgs/JointState: joint names and
// positions [rad], as the motors last reported them. Velocities are left
// out: the scale of the telemetry speed field is not known. A JointStates
// is reused for every message; it is not safe for concurrent use.
type JointStates struct {
	Name     []string  // joint names, as in the robot's URDF
	Position []float64 // [rad], in Name order
}

// NewJointStates returns a JointStates with room for every joint, so that
// Fill does not allocate.
func NewJointStates() *JointStates {
	return &JointStates{
		Name:     make([]string, 0, len(JointStateJoints)),
		Position: make([]float64, 0, len(JointStateJoints)),
	}
}

// Fill sets js to the joint angles of telemetry t [rad]: every joint of
// JointStateJoints whose record (cfg.MotorSlots, default
// DefaultMotorSlots) is within the packet's motor count, measured from
// cfg.JointZero. It returns the number of joints and does not allocate once
// js has room for them (NewJointStates).
func (js *JointStates) Fill(cfg *servosila.Config, t *wire.Telemetry) int {
	slots := cfg.MotorSlots
	if slots == nil {
		def := wire.DefaultMotorSlots()
		slots = &def
	}
	js.Name, js.Position = js.Name[:0], js.Position[:0]
	for _, j := range JointStateJoints {
		s := slots[j]
		if s == wire.None || s < 0 || s >= int(t.MotorCount) || s >= wire.NumMotors {
			continue
		}
		js.Name = append(js.Name, j.String())
		js.Position = append(js.Position, wire.CountsToRad(t.Motors[s].Position, cfg.JointZero[j]))
	}
	return len(js.Name)
}

// JointStatesDue reports whether servosila_driver publishes joint_states
// at now: at every odom tick (OdomRate) while the latest telemetry
// (received at) is younger than the driver's TelemetryTimeout. The
// positions are the latest reported, held between telemetry packets (1 Hz
// on the robot) and stamped now, so that robot_state_publisher's tf of the
// arm and cameras stays as current as odom -> base_link and a tf lookup at
// an image's time does not fail for want of a newer transform. With stale
// or no telemetry nothing is published: tf of the arm then ages visibly
// instead of showing a pose nobody measured.
func (c Config) JointStatesDue(have bool, at, now time.Time) bool {
	return have && now.Sub(at) <= c.Driver.TelemetryTimeout
}
