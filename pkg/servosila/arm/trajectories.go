package arm

import (
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/telebridge/telebridge/pkg/jog"
	"github.com/telebridge/telebridge/pkg/servosila"
)

// Trajectories drives the arm from joint targets that name any of its
// position-controlled joints in any order: the targets a trajectory
// publisher such as jog_server sends to servosila_driver's
// ~/joint_trajectory topic. Each target goes through an Arm of the joints
// it names (Arm.WriteJointTarget: followed with its velocities, or a
// position target without them); the Arm is made again only when the
// names change, so a stream of targets for the same joints allocates
// nothing here. Safe for concurrent use.
type Trajectories struct {
	drv *servosila.Driver

	mu  sync.Mutex
	arm *Arm // of the latest target's joints; nil before the first
}

// NewTrajectories returns a Trajectories on drv, which the caller runs.
func NewTrajectories(drv *servosila.Driver) (*Trajectories, error) {
	if drv == nil {
		return nil, errors.New("servosilaarm: trajectories: no driver")
	}
	return &Trajectories{drv: drv}, nil
}

// Write commands t. Names that are not the arm's joints (waist,
// shoulder, elbow, neck), or a joint named twice, are refused with
// ErrTarget and nothing is commanded; otherwise as Arm.WriteJointTarget.
func (tr *Trajectories) Write(t jog.JointTarget) error {
	if len(t.JointNames) == 0 {
		return fmt.Errorf("%w: no joint names", ErrTarget)
	}
	tr.mu.Lock()
	defer tr.mu.Unlock()
	if tr.arm == nil || !slices.Equal(tr.arm.names, t.JointNames) {
		a, err := New(Config{Driver: tr.drv, Joints: t.JointNames})
		if err != nil {
			return fmt.Errorf("%w: %v", ErrTarget, err)
		}
		tr.arm = a
	}
	return tr.arm.WriteJointTarget(t)
}
