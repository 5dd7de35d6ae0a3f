package graph

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/telebridge/telebridge/pkg/console"
)

// errOff is returned for a command to a machine that is switched off.
var errOff = errors.New("graph: machine not configured in this console")

// DriveServosila publishes the chassis Twist on the driver's cmd_vel.
func (b *Backend) DriveServosila(_ context.Context, linear, angular float64) error {
	if !b.cfg.Servosila {
		return errOff
	}
	if err := b.port.PublishTwist(b.names.ServosilaCmdVel, linear, angular); err != nil {
		return fmt.Errorf("graph: servosila cmd_vel: %w", err)
	}
	b.mu.Lock()
	b.srv.linear, b.srv.angular = linear, angular
	b.mu.Unlock()
	return nil
}

// ServosilaJointVelocities publishes every joint velocity on the driver's
// joint_velocities topic.
func (b *Backend) ServosilaJointVelocities(_ context.Context, v [console.NumServosilaJoints]float64) error {
	if !b.cfg.Servosila {
		return errOff
	}
	names := console.ServosilaJoints[:]
	if err := b.port.PublishJointState(b.names.ServosilaJointVel, names, nil, v[:]); err != nil {
		return fmt.Errorf("graph: servosila joint velocities: %w", err)
	}
	b.mu.Lock()
	b.srv.jointVel = v
	for j := 0; j < console.NumArmJoints; j++ {
		if v[j] != 0 && b.srv.targets[j].State == stateMoving {
			b.srv.targets[j].State = stateCancelled // the driver cancels it too
		}
	}
	b.mu.Unlock()
	return nil
}

// ServosilaTarget publishes a position target on the driver's
// joint_targets topic; the driver's position control moves the joint.
func (b *Backend) ServosilaTarget(_ context.Context, j int, angle float64) error {
	if !b.cfg.Servosila {
		return errOff
	}
	if j < 0 || j >= console.NumArmJoints {
		return fmt.Errorf("graph: joint %d has no position control", j)
	}
	return b.publishTarget(j, angle, stateMoving)
}

// publishTarget publishes angle [rad] as joint j's position target and
// records the state the console shows for it.
func (b *Backend) publishTarget(j int, angle float64, state string) error {
	if err := b.port.PublishJointState(b.names.ServosilaJointTarget, console.ServosilaJoints[j:j+1], []float64{angle}, nil); err != nil {
		return fmt.Errorf("graph: servosila joint target: %w", err)
	}
	b.mu.Lock()
	b.srv.targets[j] = console.TargetState{State: state, Target: angle}
	b.mu.Unlock()
	return nil
}

// ServosilaCancelTarget ends position control of joint j. The driver's ROS
// interface has no cancel: the joint is given its measured position as
// the new target, so it holds where it is.
func (b *Backend) ServosilaCancelTarget(ctx context.Context, j int) error {
	if !b.cfg.Servosila {
		return errOff
	}
	if j < 0 || j >= console.NumArmJoints {
		return fmt.Errorf("graph: joint %d has no position control", j)
	}
	b.mu.Lock()
	pos, ok := b.srv.joints[j], b.srv.haveJoint[j]
	b.mu.Unlock()
	if !ok {
		return fmt.Errorf("graph: cancel %s: no joint state yet to hold at", console.ServosilaJoints[j])
	}
	return b.publishTarget(j, pos, stateCancelled)
}

// ServosilaHeadlight calls the driver's headlight service.
func (b *Backend) ServosilaHeadlight(ctx context.Context, on bool) error {
	if !b.cfg.Servosila {
		return errOff
	}
	ctx, cancel := context.WithTimeout(ctx, b.cfg.ServiceTimeout)
	defer cancel()
	if err := b.port.SetBool(ctx, b.names.ServosilaHeadlight, on); err != nil {
		return fmt.Errorf("graph: headlight: %w", err)
	}
	b.mu.Lock()
	b.srv.headlight = on
	b.mu.Unlock()
	return nil
}

// DriveFurbot publishes the Furbot's Twist on its cmd_vel.
func (b *Backend) DriveFurbot(_ context.Context, v, w float64) error {
	if !b.cfg.Furbot {
		return errOff
	}
	if err := b.port.PublishTwist(b.names.FurbotCmdVel, v, w); err != nil {
		return fmt.Errorf("graph: furbot cmd_vel: %w", err)
	}
	return nil
}

// JogJoint calls the jog server's start joint move service.
func (b *Backend) JogJoint(ctx context.Context, m console.JogJointMove) error {
	if b.chain == nil {
		return errOff
	}
	if len(m.Values) != b.chain.DOF() {
		return fmt.Errorf("graph: jog joint move: %d values for %d joints", len(m.Values), b.chain.DOF())
	}
	return b.call(ctx, "jog joint move", func(ctx context.Context) error {
		return b.port.StartJointMove(ctx, b.names.JogStartJoint, m)
	}, "joint")
}

// JogCartesian calls the jog server's start Cartesian move service.
func (b *Backend) JogCartesian(ctx context.Context, m console.JogCartesianMove) error {
	if b.chain == nil {
		return errOff
	}
	return b.call(ctx, "jog cartesian move", func(ctx context.Context) error {
		return b.port.StartCartesianMove(ctx, b.names.JogStartCartesian, m)
	}, "cartesian")
}

// JogHeartbeat calls the jog server's heartbeat service (preferred to the
// topic: a queued message never keeps a motion alive) without waiting for
// the answer: the console calls it with its lock held, and an e-stop must
// not wait behind a slow service. At most one call is in flight; a beat
// that comes while one is (it resets the same timer) is skipped. The
// error returned is that of the last completed call.
func (b *Backend) JogHeartbeat(context.Context) error {
	if b.chain == nil {
		return errOff
	}
	if b.beating.CompareAndSwap(false, true) {
		go func() {
			defer b.beating.Store(false)
			err := b.call(context.Background(), "jog heartbeat", func(ctx context.Context) error {
				return b.port.Trigger(ctx, b.names.JogHeartbeat)
			}, "")
			b.mu.Lock()
			b.jog.beatErr = err
			b.mu.Unlock()
		}()
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.jog.beatErr
}

// JogStop calls the jog server's stop service.
func (b *Backend) JogStop(ctx context.Context) error {
	if b.chain == nil {
		return errOff
	}
	return b.call(ctx, "jog stop", func(ctx context.Context) error {
		return b.port.Trigger(ctx, b.names.JogStop)
	}, "idle")
}

// call runs one service call within the service timeout and records the
// jog mode it leads to ("" keeps it).
func (b *Backend) call(ctx context.Context, what string, fn func(context.Context) error, mode string) error {
	ctx, cancel := context.WithTimeout(ctx, b.cfg.ServiceTimeout)
	defer cancel()
	err := fn(ctx)
	b.mu.Lock()
	defer b.mu.Unlock()
	if err != nil {
		b.jog.reason = fmt.Sprintf("%s refused: %v", what, err)
		return fmt.Errorf("graph: %s: %w", what, err)
	}
	if mode != "" {
		b.jog.mode = mode
		b.jog.targets++
	}
	return nil
}

// EStop latches the e-stop of every machine at once (the Servosila
// driver's and the Furbot bridge's services, and the jog stop), all calls
// in parallel so that one slow service does not delay the others; with
// TwistMux, first the twist_mux lock (lock). It returns every failure.
func (b *Backend) EStop(ctx context.Context) error {
	lockErr := b.lock(true) // twist_mux mutes every source at once
	ctx, cancel := context.WithTimeout(ctx, b.cfg.ServiceTimeout)
	defer cancel()
	calls := []struct {
		on      bool
		service string
	}{{b.cfg.Servosila, b.names.ServosilaEStop}, {b.cfg.Furbot, b.names.FurbotEStop}, {b.chain != nil, b.names.JogStop}}
	errs := make([]error, len(calls))
	var wg sync.WaitGroup
	for i, c := range calls {
		if !c.on {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := b.port.Trigger(ctx, c.service); err != nil {
				errs[i] = fmt.Errorf("graph: e-stop %s: %w", c.service, err)
			}
		}()
	}
	wg.Wait()
	b.mu.Lock()
	b.srv.estopAsked, b.fur.estopAsked = true, true
	for j := range b.srv.targets {
		if b.srv.targets[j].State == stateMoving {
			b.srv.targets[j].State = stateCancelled
		}
	}
	if b.chain != nil {
		b.jog.mode, b.jog.reason = "idle", "emergency stop"
	}
	b.mu.Unlock()
	return errors.Join(append(errs, lockErr)...)
}

// ReleaseEStop releases the Servosila's and the Furbot's e-stops, and
// with TwistMux the lock once both are released.
func (b *Backend) ReleaseEStop(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, b.cfg.ServiceTimeout)
	defer cancel()
	var errs []error
	if b.cfg.Servosila {
		if err := b.port.Trigger(ctx, b.names.ServosilaRelease); err != nil {
			errs = append(errs, fmt.Errorf("graph: release servosila: %w", err))
		}
	}
	if b.cfg.Furbot {
		if err := b.port.Trigger(ctx, b.names.FurbotRelease); err != nil {
			errs = append(errs, fmt.Errorf("graph: release furbot: %w", err))
		}
	}
	if len(errs) == 0 {
		b.mu.Lock()
		b.srv.estopAsked, b.fur.estopAsked = false, false
		b.mu.Unlock()
		errs = append(errs, b.lock(false))
	}
	return errors.Join(errs...)
}
