package direct

import (
	"context"
	"math"
	"time"

	"github.com/telebridge/telebridge/pkg/console"
	furbotwire "github.com/telebridge/telebridge/pkg/furbot/wire"
	servosilawire "github.com/telebridge/telebridge/pkg/servosila/wire"
)

// Snapshot implements console.Backend.
func (b *Backend) Snapshot(context.Context) (console.Snapshot, error) {
	var s console.Snapshot
	now := time.Now()
	if b.drv != nil {
		s.Servosila = b.servosilaState(now)
	}
	if b.bridge != nil {
		s.Furbot = b.furbotState(now)
	}
	if b.ctrl != nil {
		s.Jog = b.jogSnapshot()
	}
	for _, c := range b.cams {
		s.Cameras = append(s.Cameras, c.state())
	}
	return s, nil
}

func (b *Backend) servosilaState(now time.Time) *console.ServosilaState {
	st := b.drv.Status()
	cfg := b.drv.Config()
	b.mu.Lock()
	head := b.headOn
	b.mu.Unlock()
	out := &console.ServosilaState{
		EStopped: st.EStopped, Headlight: head,
		Linear: st.Last.Command.Linear, Angular: st.Last.Command.Angular,
		JointVel: st.Last.Command.Joints,
		Dropped:  servosilawire.DroppedNames(st.Last.Dropped),
		X:        st.Odometry.Pose.X, Y: st.Odometry.Pose.Y, Yaw: st.Odometry.Pose.Yaw,
		Link: console.ServosilaLink{
			Sent: st.Sent, SendErrs: st.SendErrs, Received: st.Link.Received, Accepted: st.Link.Accepted,
			Foreign: st.Link.Foreign, Malformed: st.Link.Malformed + st.Length + st.Frame + st.Motors,
		},
	}
	for i, js := range st.Arm {
		out.Targets[i] = console.TargetState{State: js.State.String(), Target: js.Target}
	}
	pos, _, ok := b.drv.JointPositions()
	if ok {
		for j := range console.NumServosilaJoints {
			if !math.IsNaN(pos[j]) {
				out.Joints[j], out.JointKnown[j] = pos[j], true
			}
		}
	}
	tel, at, ok := b.drv.Telemetry()
	out.HaveTelemetry = ok
	if ok {
		out.TelemetryAge = now.Sub(at).Seconds()
		out.Tick = tel.Tick
		slots := cfg.MotorSlots
		for i := range int(tel.MotorCount) {
			m := tel.Motors[i]
			ms := console.MotorState{
				ID: m.DeviceID, State: m.State, Mode: m.OperationMode, Position: m.Position,
				Speed: m.Speed, Current: m.Current, Status: uint16(m.StatusBits),
				Fault: m.FaultDetected != 0, FaultCount: m.FaultCounter,
			}
			zero := uint32(0)
			if slots != nil {
				for j, s := range slots {
					if s == i {
						zero = cfg.JointZero[j]
					}
				}
			}
			ms.Angle = servosilawire.CountsToRad(m.Position, zero)
			out.Motors = append(out.Motors, ms)
		}
	}
	return out
}

func (b *Backend) furbotState(now time.Time) *console.FurbotState {
	snap, ok := b.bridge.Latest()
	b.fMu.Lock()
	out := &console.FurbotState{EStopped: b.fEStop}
	b.fMu.Unlock()
	st := b.bridge.Stats()
	out.Frames, out.Invalid = st.Accepted, st.Invalid
	for id := range furbotwire.NumBlocks {
		bid := furbotwire.BlockID(id)
		sub := console.Subsystem{Name: bid.String()}
		if ok {
			state, present := snap.Status.BlockState(bid)
			sub.State, sub.Present, sub.Working = int(state), present, snap.Status.Working(bid)
		}
		out.Subsystems = append(out.Subsystems, sub)
	}
	if !ok {
		return out
	}
	t := snap.Status.Traction
	out.Ready = snap.Ready
	out.Speed, out.Throttle, out.Brake, out.Reverse = t.SpeedMPS(), t.ThrottleRatio(), t.BrakeRatio(), t.Reverse != 0
	out.Steer = snap.Status.Steering.AngleRad()
	bms := snap.Status.BMS
	out.Charge, out.Voltage, out.Current = 100*bms.Percentage(), bms.VoltageV(), bms.CurrentA()
	out.TempHi, out.TempLo = int(bms.TempHi), int(bms.TempLo)
	out.X, out.Y, out.Yaw = snap.Odom.Pose.X, snap.Odom.Pose.Y, snap.Odom.Pose.Yaw
	out.Age = now.Sub(snap.StatusAt).Seconds()
	return out
}

func (b *Backend) jogSnapshot() *console.JogState {
	st := b.ctrl.Status()
	q := b.arm.Positions()
	out := &console.JogState{Mode: st.Mode.String(), Reason: st.Reason, Joints: q, Targets: st.Sent}
	if t, err := b.chain.FK(q); err == nil {
		x, y, z, rz, ry, rx := t.XYZEuler()
		out.Tool = console.JogPose{X: x, Y: y, Z: z, RZ: rz, RY: ry, RX: rx}
	}
	return out
}
