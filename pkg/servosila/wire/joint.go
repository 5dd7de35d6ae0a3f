package wire

import (
	"fmt"
)

// Joint names one actuator group driven through the gamepad emulation.
type Joint uint8

// The joints. Waist, Shoulder, Elbow and Neck report positions and support
// position control; Flippers and Gripper are velocity-only.
const (
	Waist Joint = iota
	Shoulder
	Elbow
	Neck
	Flippers
	Gripper
	NumJoints = 6
)

// ArmJoints are the joints with position telemetry and position control.
var ArmJoints = [...]Joint{Waist, Shoulder, Elbow, Neck}

var jointNames = [NumJoints]string{"waist", "shoulder", "elbow", "neck", "flippers", "gripper"}

// String returns the lower-case joint name.
func (j Joint) String() string {
	if int(j) < NumJoints {
		return jointNames[j]
	}
	return fmt.Sprintf("joint(%d)", uint8(j))
}

// ParseJoint returns the joint with the given lower-case name.
func ParseJoint(name string) (Joint, error) {
	for i, n := range jointNames {
		if n == name {
			return Joint(i), nil
		}
	}
	return 0, fmt.Errorf("servosila: unknown joint %q", name)
}

// IsArm reports whether j has position telemetry (waist, shoulder, elbow,
// neck).
func (j Joint) IsArm() bool { return j <= Neck }
