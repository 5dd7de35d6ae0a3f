package servosila

import (
	"time"

	"github.com/telebridge/telebridge/pkg/servosila/control"
	"github.com/telebridge/telebridge/pkg/servosila/wire"
)

// SetCommand makes cmd the latest command of both sources (chassis and
// joints) and sets the headlight; the sender repeats it until it is
// replaced or older than CommandTimeout. A command with NaN or infinite
// values is refused with ErrInvalidCommand and changes nothing. A non-zero
// velocity for a joint under position control cancels its target.
func (d *Driver) SetCommand(cmd wire.Command) error {
	if err := cmd.Validate(); err != nil {
		return err
	}
	now := time.Now()
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.headlight != cmd.Headlight {
		d.headlight = cmd.Headlight
		d.changedLocked()
	}
	d.setTwistLocked(cmd.Linear, cmd.Angular, now)
	d.setJointsLocked(cmd.Joints, now)
	return nil
}

// SetTwist sets only the chassis command: linear [m/s] and angular
// [rad/s] (the cmd_vel source). Joint velocities from SetJointVelocities
// are kept; each source has its own CommandTimeout.
func (d *Driver) SetTwist(linear, angular float64) error {
	if err := (wire.Command{Linear: linear, Angular: angular}).Validate(); err != nil {
		return err
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	d.setTwistLocked(linear, angular, time.Now())
	return nil
}

// setTwistLocked stores the chassis command; a command that differs from
// the one in force (or replaces a timed-out one) wakes the send loop.
func (d *Driver) setTwistLocked(linear, angular float64, now time.Time) {
	c := twistCmd{linear: linear, angular: angular, gen: d.gen}
	if prev, ok := d.twist.Fresh(now, d.cfg.CommandTimeout); !ok || prev != c {
		d.changedLocked()
	}
	d.twist.Store(c, now)
}

// changedLocked marks the command in force changed and wakes the send
// loop, which sends it as soon as MaxSendRate allows. d.mu must be held.
func (d *Driver) changedLocked() {
	d.dirty = true
	select {
	case d.wake <- struct{}{}:
	default: // a wake-up is already pending
	}
}

// SetJointVelocities sets only the joint velocities [rad/s], indexed by
// Joint (the arm jog source); the chassis command is kept. A non-zero
// velocity for a joint under position control cancels its target.
func (d *Driver) SetJointVelocities(v [wire.NumJoints]float64) error {
	if err := (wire.Command{Joints: v}).Validate(); err != nil {
		return err
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	d.setJointsLocked(v, time.Now())
	return nil
}

// SetHeadlight switches the headlight; it is not subject to the command
// timeout nor to the e-stop.
func (d *Driver) SetHeadlight(on bool) {
	d.mu.Lock()
	if d.headlight != on {
		d.headlight = on
		d.changedLocked()
	}
	d.mu.Unlock()
}

func (d *Driver) setJointsLocked(v [wire.NumJoints]float64, now time.Time) {
	for _, j := range wire.ArmJoints {
		if v[j] != 0 {
			d.arm.Cancel(j)
		}
	}
	c := jointCmd{v: v, gen: d.gen}
	if prev, ok := d.joints.Fresh(now, d.cfg.CommandTimeout); !ok || prev != c {
		d.changedLocked()
	}
	d.joints.Store(c, now)
}

// SetJointTarget starts position control of an arm joint (waist, shoulder,
// elbow, neck) towards angle [rad]. It fails while the e-stop is latched.
func (d *Driver) SetJointTarget(j wire.Joint, angle float64) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.estop {
		return ErrEStopped
	}
	if err := d.arm.SetTarget(j, angle, time.Now()); err != nil {
		return err
	}
	d.changedLocked()
	return nil
}

// FollowJointTrajectory makes an arm joint follow a trajectory through p
// (and on to next, when next.Due is set): see ArmController.Follow. It
// fails while the e-stop is latched.
func (d *Driver) FollowJointTrajectory(j wire.Joint, p, next control.TrajectoryPoint) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.estop {
		return ErrEStopped
	}
	if err := d.arm.Follow(j, p, next, time.Now()); err != nil {
		return err
	}
	d.changedLocked()
	return nil
}

// CancelJointTarget stops position control of joint j.
func (d *Driver) CancelJointTarget(j wire.Joint) {
	d.mu.Lock()
	d.arm.Cancel(j)
	d.changedLocked()
	d.mu.Unlock()
}

// EStop latches the emergency stop: every axis goes to zero at once (a zero
// packet is sent immediately, not at the next tick), position targets are
// cancelled, and nothing moves until Release. Commands given before
// Release are discarded.
func (d *Driver) EStop() {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.estop = true
	d.gen++
	d.arm.CancelAll()
	d.dirty = false // what was pending is discarded; the zero goes now
	d.sendLocked(time.Now(), wire.Command{Headlight: d.headlight}, true)
}

// Release clears a latched emergency stop. The robot stays still until a
// new command arrives.
func (d *Driver) Release() {
	d.mu.Lock()
	d.estop = false
	d.gen++
	d.changedLocked()
	d.mu.Unlock()
}
