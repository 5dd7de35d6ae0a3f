package servosila

import (
	"math"
	"sync/atomic"
	"time"

	"github.com/telebridge/telebridge/pkg/odometry"
	"github.com/telebridge/telebridge/pkg/servosila/control"
	"github.com/telebridge/telebridge/pkg/servosila/wire"
	"github.com/telebridge/telebridge/pkg/udplink"
)

// DropCounters count the telemetry-side datagrams from the robot's address
// that were dropped (the foreign ones are in the udplink counters). Fields
// may be read concurrently.
type DropCounters struct {
	Length, FrameType, MotorCount atomic.Uint64 // wrong length, wrong frame type, motor count out of range
	// Video counts video frames, which are recognised and ignored.
	Video atomic.Uint64
}

// Sent describes the last remote-control packet the driver sent.
type Sent struct {
	At time.Time // when it was sent
	// Command is the command in force after e-stop, timeout, position
	// control, limits and the minimum start velocity, as the robot will
	// execute it (the packet's channels converted back to SI).
	Command wire.Command
	Packet  wire.RemoteControl // the packet as it went out
	// Dropped is the Mapping.Encode mask of channels that could not go out
	// together with a higher-priority one (e.g. waist while driving).
	Dropped uint32
	// Stale reports that neither command source was fresh (both timed
	// out, or none was given).
	Stale bool
}

// Status is a snapshot of the driver for display and tests.
type Status struct {
	EStopped bool          // the e-stop is latched: zeros go out until it is released
	Last     Sent          // the last remote-control packet sent
	Sent     uint64        // remote-control packets sent
	Changes  uint64        // of them sent early because the command changed
	SendErrs uint64        // failed socket writes
	Link     udplink.Stats // telemetry datagrams received, accepted, foreign, malformed
	Length   uint64        // telemetry drops: wrong length
	Frame    uint64        // wrong frame type
	Motors   uint64        // motor count out of range
	Video    uint64        // video frames ignored
	// Odometry is the dead reckoning; its pose covariance includes the
	// inflation of every lost link (LinkState).
	Odometry odometry.State
	Arm      [len(wire.ArmJoints)]control.JointStatus // position control of each arm joint, in wire.ArmJoints order
	// LinkState is the link as the telemetry shows it.
	LinkState LinkState
	// CommandLoss reports commands that did not reach the robot.
	CommandLoss CommandLoss
}

// Status returns a snapshot of the driver.
func (d *Driver) Status() Status {
	d.mu.Lock()
	defer d.mu.Unlock()
	s := Status{
		EStopped: d.estop,
		Last:     d.last,
		Sent:     d.sent.Load(),
		Changes:  d.chgs.Load(),
		SendErrs: d.sendE.Load(),
		Link:     d.link.Stats(),
		Length:   d.drops.Length.Load(),
		Frame:    d.drops.FrameType.Load(),
		Motors:   d.drops.MotorCount.Load(),
		Video:    d.drops.Video.Load(),
		Odometry: d.odo.State(),
	}
	d.ls.apply(&s.Odometry)
	s.LinkState = d.ls.state
	s.CommandLoss = d.loss
	s.CommandLoss.Period = d.cc.Period()
	s.LinkState.OldTelemetry, s.LinkState.Resyncs = d.oldTel.Load(), d.resyncs.Load()
	for i, j := range wire.ArmJoints {
		s.Arm[i] = d.arm.Status(j)
	}
	return s
}

// JointStatus returns the position-control status of joint j.
func (d *Driver) JointStatus(j wire.Joint) control.JointStatus {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.arm.Status(j)
}

// JointPositions returns the joint angles of the latest telemetry [rad]
// (NaN for joints without a record) and when it arrived.
func (d *Driver) JointPositions() (pos [wire.NumJoints]float64, at time.Time, ok bool) {
	t, at, ok := d.tel.Load()
	for j := range pos {
		pos[j] = math.NaN()
		if s := d.cfg.MotorSlots[j]; ok && s != wire.None && s < int(t.MotorCount) {
			pos[j] = wire.CountsToRad(t.Motors[s].Position, d.cfg.JointZero[j])
		}
	}
	return pos, at, ok
}

// Telemetry returns the latest telemetry packet and when it arrived.
func (d *Driver) Telemetry() (wire.Telemetry, time.Time, bool) { return d.tel.Load() }
