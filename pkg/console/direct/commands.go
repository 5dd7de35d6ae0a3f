package direct

// The commands of console.Backend: each goes straight to the machine's
// core in this process (driver, bridge, jog controller).

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/telebridge/telebridge/pkg/console"
	furbotcontrol "github.com/telebridge/telebridge/pkg/furbot/control"
	"github.com/telebridge/telebridge/pkg/jog"
	servosilawire "github.com/telebridge/telebridge/pkg/servosila/wire"
)

// DriveServosila implements console.Backend.
func (b *Backend) DriveServosila(_ context.Context, linear, angular float64) error {
	if b.drv == nil {
		return fmt.Errorf("servosila: %w", errNone)
	}
	return b.drv.SetTwist(linear, angular)
}

// ServosilaJointVelocities implements console.Backend.
func (b *Backend) ServosilaJointVelocities(_ context.Context, v [console.NumServosilaJoints]float64) error {
	if b.drv == nil {
		return fmt.Errorf("servosila: %w", errNone)
	}
	return b.drv.SetJointVelocities(v)
}

// ServosilaTarget implements console.Backend.
func (b *Backend) ServosilaTarget(_ context.Context, j int, angle float64) error {
	if b.drv == nil {
		return fmt.Errorf("servosila: %w", errNone)
	}
	return b.drv.SetJointTarget(servosilawire.Joint(j), angle)
}

// ServosilaCancelTarget implements console.Backend.
func (b *Backend) ServosilaCancelTarget(_ context.Context, j int) error {
	if b.drv == nil {
		return fmt.Errorf("servosila: %w", errNone)
	}
	b.drv.CancelJointTarget(servosilawire.Joint(j))
	return nil
}

// ServosilaHeadlight implements console.Backend.
func (b *Backend) ServosilaHeadlight(_ context.Context, on bool) error {
	if b.drv == nil {
		return fmt.Errorf("servosila: %w", errNone)
	}
	b.drv.SetHeadlight(on)
	b.mu.Lock()
	b.headOn = on
	b.mu.Unlock()
	return nil
}

// DriveFurbot implements console.Backend.
func (b *Backend) DriveFurbot(_ context.Context, v, w float64) error {
	if b.bridge == nil {
		return fmt.Errorf("furbot: %w", errNone)
	}
	return b.bridge.SetCommand(furbotcontrol.Twist{V: v, W: w})
}

// JogJoint implements console.Backend.
func (b *Backend) JogJoint(_ context.Context, m console.JogJointMove) error {
	if b.ctrl == nil {
		return fmt.Errorf("jog: %w", errNone)
	}
	now := time.Now()
	b.ctrl.Heartbeat(now)
	return b.ctrl.StartJointMove(now, jog.JointMoveRequest{MoveDelta: m.Delta, JointValues: m.Values, Speed: m.Speed})
}

// JogCartesian implements console.Backend.
func (b *Backend) JogCartesian(_ context.Context, m console.JogCartesianMove) error {
	if b.ctrl == nil {
		return fmt.Errorf("jog: %w", errNone)
	}
	now := time.Now()
	b.ctrl.Heartbeat(now)
	p := m.Pose
	return b.ctrl.StartCartesianMove(now, jog.CartesianMoveRequest{
		PoseReference: m.Frame, MoveDelta: m.Delta, Speed: m.Speed,
		Pose: jog.EulerPose{X: p.X, Y: p.Y, Z: p.Z, RZ: p.RZ, RY: p.RY, RX: p.RX},
	})
}

// JogHeartbeat implements console.Backend.
func (b *Backend) JogHeartbeat(context.Context) error {
	if b.ctrl == nil {
		return fmt.Errorf("jog: %w", errNone)
	}
	b.ctrl.Heartbeat(time.Now())
	return nil
}

// JogStop implements console.Backend.
func (b *Backend) JogStop(context.Context) error {
	if b.runner == nil {
		return fmt.Errorf("jog: %w", errNone)
	}
	_, err := b.runner.Stop(time.Now())
	return err
}

// EStop implements console.Backend: every machine at once.
func (b *Backend) EStop(ctx context.Context) error {
	var errs []error
	if b.drv != nil {
		b.drv.EStop()
	}
	if b.bridge != nil {
		b.bridge.SetEStop(true)
		b.fMu.Lock()
		b.fEStop = true
		b.fMu.Unlock()
	}
	if b.runner != nil {
		errs = append(errs, b.JogStop(ctx))
	}
	return errors.Join(errs...)
}

// ReleaseEStop implements console.Backend.
func (b *Backend) ReleaseEStop(context.Context) error {
	if b.drv != nil {
		b.drv.Release()
	}
	if b.bridge != nil {
		// The Twist given before the e-stop must not come back.
		_ = b.bridge.SetCommand(furbotcontrol.Twist{})
		b.bridge.SetEStop(false)
		b.fMu.Lock()
		b.fEStop = false
		b.fMu.Unlock()
	}
	return nil
}

// ServeCamera implements console.Backend.
func (b *Backend) ServeCamera(name string, w http.ResponseWriter, r *http.Request) {
	for _, c := range b.cams {
		if c.name == name {
			c.stream.ServeHTTP(w, r)
			return
		}
	}
	http.Error(w, "console: no camera "+name, http.StatusNotFound)
}

// cameraNames returns the devices' display names.
