package graph

import (
	"context"
	"math"
	"strconv"
	"time"

	servosilanode "github.com/telebridge/telebridge/pkg/servosila/node"

	"github.com/telebridge/telebridge/pkg/console"
	"github.com/telebridge/telebridge/pkg/diag"
	furbotwire "github.com/telebridge/telebridge/pkg/furbot/wire"
	"github.com/telebridge/telebridge/pkg/geom"
	"github.com/telebridge/telebridge/pkg/mjpeg"
	servosilawire "github.com/telebridge/telebridge/pkg/servosila/wire"
)

// Position-control states the console shows for the Servosila arm. The
// driver's ROS interface does not publish its controller's state, so the
// backend derives it from the joint states: a target is reached when the
// joint lies within the driver's default tolerance of it.
const (
	stateMoving    = "moving"
	stateReached   = "reached"
	stateCancelled = "cancelled"
)

type servosilaView struct {
	linear, angular float64
	jointVel        [console.NumServosilaJoints]float64
	headlight       bool
	estopAsked      bool
	joints          [console.NumServosilaJoints]float64
	haveJoint       [console.NumServosilaJoints]bool
	targets         [console.NumArmJoints]console.TargetState
	odom            Odom
	haveOdom        bool
	telemetry       Telemetry
	telemetryAt     time.Time
	telemetryN      uint64 // telemetry messages received
	diagEStop       bool
	diagAt          time.Time
	link            console.ServosilaLink
}

type furbotView struct {
	estopAsked  bool
	traction    Traction
	steer       float64
	status      Status
	statusAt    time.Time
	statusN     uint64 // status messages received
	charge      float64
	voltage     float64
	current     float64
	tempHi      int
	tempLo      int
	controlSent ControlSent
	odom        Odom
	frames      uint64
}

type jogView struct {
	mode, reason string
	targets      uint64
	beatErr      error
	pos          []float64
	have         []bool
}

// Odom is the part of nav_msgs/Odometry the console shows: the pose in
// the odom frame (x, y [m], yaw [rad]) and the twist in the base frame.
type Odom struct {
	X, Y, Yaw       float64 // pose in odom: x, y [m], yaw [rad]
	Linear, Angular float64 // twist in the base frame: forward [m/s], about z [rad/s]
}

// Telemetry is a telebridge_interfaces/ServosilaTelemetry message.
type Telemetry struct {
	Tick   uint64               // the robot's packet counter
	Motors []console.MotorState // Angle is filled by the backend
}

// Traction is the part of telebridge_interfaces/TractionData the console
// shows.
type Traction struct {
	Speed           float64 // [m/s]
	Throttle, Brake float64 // applied [0, 1]
	Reverse         bool    // reverse gear engaged
}

// Status is the part of telebridge_interfaces/VehicleStatus the console
// shows.
type Status struct {
	States     [furbotwire.NumBlocks]uint8 // raw state byte of each block, by BlockID
	Working    uint16                      // bit i: block i present and working
	AllWorking bool                        // every block present and working
	LinkFresh  bool                        // the bridge received a status frame within its link timeout
	EStopped   bool                        // motion block flag bit 1: the vehicle's e-stop latched
}

// ControlSent is the part of telebridge_interfaces/ControlSignals (the
// frame the bridge sent) the console shows.
type ControlSent struct {
	EStop bool // flag bit 1
}

// OnServosilaOdom takes the driver's odom (quaternion from the message).
func (b *Backend) OnServosilaOdom(x, y float64, q geom.Quat, linear, angular float64) {
	yaw, _, _ := q.EulerZYX()
	b.mu.Lock()
	b.srv.odom, b.srv.haveOdom = Odom{X: x, Y: y, Yaw: yaw, Linear: linear, Angular: angular}, true
	b.mu.Unlock()
}

// OnServosilaJointStates takes the driver's joint_states: the joints'
// positions [rad] (arm, flippers, gripper), by name. Unknown names are
// ignored.
func (b *Backend) OnServosilaJointStates(names []string, position []float64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for i, name := range names {
		if i >= len(position) || math.IsNaN(position[i]) || math.IsInf(position[i], 0) {
			continue
		}
		for j, n := range console.ServosilaJoints {
			if n != name {
				continue
			}
			b.srv.joints[j], b.srv.haveJoint[j] = position[i], true
			if j >= console.NumArmJoints {
				continue
			}
			if t := &b.srv.targets[j]; t.State == stateMoving && math.Abs(position[i]-t.Target) <= b.tol {
				t.State = stateReached
			}
		}
	}
}

// OnServosilaTelemetry takes the driver's raw telemetry.
func (b *Backend) OnServosilaTelemetry(t Telemetry) {
	now := b.now()
	b.mu.Lock()
	defer b.mu.Unlock()
	b.srv.telemetry.Tick = t.Tick
	b.srv.telemetry.Motors = append(b.srv.telemetry.Motors[:0], t.Motors...)
	for i := range b.srv.telemetry.Motors {
		m := &b.srv.telemetry.Motors[i]
		m.Angle = servosilawire.CountsToRad(m.Position, 0)
	}
	b.srv.telemetryAt = now
	b.srv.telemetryN++
}

// OnDiagnostics takes one diagnostic_msgs/DiagnosticStatus from
// /diagnostics; the Servosila driver's statuses (named after its fully
// qualified name, Names.ServosilaDriverNode) give the e-stop latch and the
// link counters; another robot's driver in another namespace is ignored.
func (b *Backend) OnDiagnostics(s diag.Status) {
	if _, ok := diag.Component(s.Name, b.names.ServosilaDriverNode); !b.cfg.Servosila || !ok {
		return
	}
	now := b.now()
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, kv := range s.Values {
		n, _ := strconv.ParseUint(kv.Value, 10, 64)
		switch kv.Key {
		case servosilanode.DiagEmergencyStop:
			b.srv.diagEStop = kv.Value == "true"
		case servosilanode.DiagPacketsSent:
			b.srv.link.Sent = n
		case servosilanode.DiagSendErrors:
			b.srv.link.SendErrs = n
		case servosilanode.DiagTelemetryAccepted:
			b.srv.link.Accepted = n
		case servosilanode.DiagDroppedForeign:
			b.srv.link.Foreign = n
		case servosilanode.DiagDroppedMalformed:
			b.srv.link.Malformed = n
		}
	}
	b.srv.diagAt = now
}

// OnFurbotTraction takes the bridge's traction data.
func (b *Backend) OnFurbotTraction(t Traction) {
	b.mu.Lock()
	b.fur.traction = t
	b.fur.frames++
	b.mu.Unlock()
}

// OnFurbotSteering takes the current road-wheel angle [rad], positive
// left.
func (b *Backend) OnFurbotSteering(angle float64) {
	b.mu.Lock()
	b.fur.steer = angle
	b.mu.Unlock()
}

// OnFurbotStatus takes the bridge's vehicle status.
func (b *Backend) OnFurbotStatus(s Status) {
	now := b.now()
	b.mu.Lock()
	b.fur.status, b.fur.statusAt = s, now
	b.fur.statusN++
	b.mu.Unlock()
}

// OnFurbotBattery takes sensor_msgs/BatteryState: percentage [0, 1],
// voltage [V], current [A] (negative while discharging, BatteryState's
// sign). The console shows the discharge current positive, as the direct
// backend does, so the sign is turned here.
func (b *Backend) OnFurbotBattery(percentage, voltage, current float64) {
	b.mu.Lock()
	b.fur.charge, b.fur.voltage, b.fur.current = 100*percentage, voltage, -current
	b.mu.Unlock()
}

// OnFurbotBMS takes the cell temperatures [degC] of BmsData.
func (b *Backend) OnFurbotBMS(tempHigh, tempLow int) {
	b.mu.Lock()
	b.fur.tempHi, b.fur.tempLo = tempHigh, tempLow
	b.mu.Unlock()
}

// OnFurbotControlSent takes the control frame the bridge sent.
func (b *Backend) OnFurbotControlSent(c ControlSent) {
	b.mu.Lock()
	b.fur.controlSent = c
	b.mu.Unlock()
}

// OnFurbotOdom takes the Furbot's odom.
func (b *Backend) OnFurbotOdom(x, y float64, q geom.Quat, linear, angular float64) {
	yaw, _, _ := q.EulerZYX()
	b.mu.Lock()
	b.fur.odom = Odom{X: x, Y: y, Yaw: yaw, Linear: linear, Angular: angular}
	b.mu.Unlock()
}

// OnJogJointStates takes /joint_states for the jog arm: positions of its
// joints by name (other joints, such as the Servosila's, are ignored).
func (b *Backend) OnJogJointStates(names []string, position []float64) {
	if b.chain == nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	for i, name := range names {
		if i >= len(position) || math.IsNaN(position[i]) || math.IsInf(position[i], 0) {
			continue
		}
		for k, j := range b.chain.Joints {
			if j.Name == name {
				b.jog.pos[k], b.jog.have[k] = position[i], true
			}
		}
	}
}

// Snapshot assembles the state of every machine from the latest messages.
func (b *Backend) Snapshot(context.Context) (console.Snapshot, error) {
	now := b.now()
	b.mu.Lock()
	defer b.mu.Unlock()
	var s console.Snapshot
	if b.cfg.Servosila {
		v := &b.srv
		st := &console.ServosilaState{
			EStopped: v.estopAsked, Headlight: v.headlight, Linear: v.linear, Angular: v.angular,
			JointVel: v.jointVel, Joints: v.joints, JointKnown: v.haveJoint, Targets: v.targets,
			X: v.odom.X, Y: v.odom.Y, Yaw: v.odom.Yaw,
			HaveTelemetry: !v.telemetryAt.IsZero(), Tick: v.telemetry.Tick, Link: v.link,
			Motors: append([]console.MotorState(nil), v.telemetry.Motors...),
		}
		if v.haveOdom { // what the driver executes, after its limits
			st.Linear, st.Angular = v.odom.Linear, v.odom.Angular
		}
		if !v.diagAt.IsZero() && !v.diagAt.Before(v.telemetryAt.Add(-2*time.Second)) {
			st.EStopped = v.diagEStop || v.estopAsked
		}
		if st.HaveTelemetry {
			st.TelemetryAge = now.Sub(v.telemetryAt).Seconds()
		}
		s.Servosila = st
	}
	if b.cfg.Furbot {
		v := &b.fur
		st := &console.FurbotState{
			Ready:    v.status.AllWorking && v.status.LinkFresh,
			EStopped: v.estopAsked || v.status.EStopped || v.controlSent.EStop,
			Speed:    v.traction.Speed, Steer: v.steer, Throttle: v.traction.Throttle, Brake: v.traction.Brake,
			Reverse: v.traction.Reverse, Charge: v.charge, Voltage: v.voltage, Current: v.current,
			TempHi: v.tempHi, TempLo: v.tempLo, X: v.odom.X, Y: v.odom.Y, Yaw: v.odom.Yaw, Frames: v.frames,
		}
		if !v.statusAt.IsZero() {
			st.Age = now.Sub(v.statusAt).Seconds()
		}
		for i := 0; i < furbotwire.NumBlocks; i++ {
			st.Subsystems = append(st.Subsystems, console.Subsystem{
				Name: furbotwire.BlockID(i).String(), State: int(v.status.States[i]),
				Present: !v.statusAt.IsZero(), Working: v.status.Working&(1<<i) != 0,
			})
		}
		s.Furbot = st
	}
	if b.chain != nil {
		st := &console.JogState{Mode: b.jog.mode, Reason: b.jog.reason, Targets: b.jog.targets, Joints: append([]float64(nil), b.jog.pos...)}
		if st.Mode == "" {
			st.Mode = "idle"
		}
		all := true
		for _, h := range b.jog.have {
			all = all && h
		}
		if all {
			if tf, err := b.chain.FK(b.jog.pos); err == nil {
				rz, ry, rx := tf.Rotation.EulerZYX()
				st.Tool = console.JogPose{X: tf.Translation.X, Y: tf.Translation.Y, Z: tf.Translation.Z, RZ: rz, RY: ry, RX: rx}
			}
		}
		s.Jog = st
	}
	for _, name := range b.cfg.Cameras {
		cs := console.CameraState{Name: name}
		if st, ok := b.cameras[name]; ok {
			cs = cameraState(st.Stats(), &b.camIn, name, now)
		}
		s.Cameras = append(s.Cameras, cs)
	}
	return s, nil
}

// inRate measures a camera's input frame rate between snapshots.
type inRate struct {
	at     time.Time
	frames uint64
	fps    float64
}

// cameraState turns a stream's statistics into the page's camera state;
// the input rate is measured over the time since the previous snapshot.
func cameraState(st mjpeg.Stats, rates *map[string]*inRate, name string, now time.Time) console.CameraState {
	if *rates == nil {
		*rates = map[string]*inRate{}
	}
	r := (*rates)[name]
	if r == nil {
		r = &inRate{at: now, frames: st.FramesIn}
		(*rates)[name] = r
	}
	if dt := now.Sub(r.at).Seconds(); dt >= 0.5 {
		r.fps = float64(st.FramesIn-r.frames) / dt
		r.at, r.frames = now, st.FramesIn
	}
	return console.CameraState{
		Name: name, Width: st.Width, Height: st.Height, Format: st.InputEncoding,
		InFPS: r.fps, OutFPS: st.FPS, Viewers: st.Viewers, BytesSec: st.BytesPerSec,
	}
}
