package servosila

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net"
	"net/netip"
	"sync"
	"sync/atomic"
	"time"

	"github.com/telebridge/telebridge/pkg/mailbox"
	"github.com/telebridge/telebridge/pkg/odometry"
	"github.com/telebridge/telebridge/pkg/rate"
	"github.com/telebridge/telebridge/pkg/udplink"
)

// ErrEStopped is returned by SetJointTarget while the emergency stop is
// latched.
var ErrEStopped = errors.New("servosila: emergency stop latched")

// twistCmd and jointCmd are the two command sources, each with the safety
// generation it was given in: a command from an older generation (before
// an e-stop or a release) is never executed.
type twistCmd struct {
	linear, angular float64
	gen             uint64
}

type jointCmd struct {
	v   [NumJoints]float64
	gen uint64
}

// Driver is the operator side of the link to one robot: it sends the
// latest command as remote-control packets as soon as it changes (at most
// MaxSendRate) and at least at SendRate (keep-alive), and receives
// telemetry. Create it with New, run it with Run; every other method is
// safe for concurrent use.
//
// The receive goroutine is the only reader of the socket. Packets are
// written by the send loop and, for an immediate e-stop, by EStop's caller;
// both hold the driver's lock, so writes never interleave. The send loop
// owns the timing: the setters only mark the command changed and wake it.
//
// Commands come from two sources, each with its own timeout: the chassis
// (SetTwist) and the joints (SetJointVelocities); SetCommand sets both.
// Position targets (SetJointTarget) take precedence over joint velocities
// of the same joint.
type Driver struct {
	cfg   Config
	conn  *net.UDPConn
	robot netip.AddrPort
	odo   *odometry.Odometry // guarded by mu

	twist  mailbox.Latest[twistCmd] // chassis command source
	joints mailbox.Latest[jointCmd] // joint velocity command source
	tel    mailbox.Latest[Telemetry]

	link  udplink.Counters
	drops DropCounters
	sent  atomic.Uint64
	sendE atomic.Uint64
	chgs  atomic.Uint64 // packets sent early because the command changed
	wake  chan struct{} // a token when the command in force changed
	rxTel Telemetry     // decode buffer, owned by the receive goroutine
	order telemetryOrder
	// Link state counters written by the receive goroutine.
	oldTel, resyncs atomic.Uint64
	lostAfter       atomic.Int64 // LinkState.LostAfter [ns], for the receiver

	mu        sync.Mutex
	gen       uint64
	estop     bool
	headlight bool
	arm       *ArmController
	telSeq    uint64
	inForce   odometry.Twist2D // chassis velocity sent at the last tick
	last      Sent
	ls        linkTracker
	rc        RemoteControl
	buf       [64]byte // encode buffer (a packet is 57 bytes)
	ran       bool
	dirty     bool // the command changed since the last packet
}

// DropCounters count the telemetry-side datagrams from the robot's address
// that were dropped (the foreign ones are in the udplink counters). Fields
// may be read concurrently.
type DropCounters struct {
	Length, FrameType, MotorCount atomic.Uint64
	// Video counts video frames, which are recognised and ignored.
	Video atomic.Uint64
}

// Sent describes the last remote-control packet the driver sent.
type Sent struct {
	At time.Time
	// Command is the command in force after e-stop, timeout, position
	// control, limits and the minimum start velocity, as the robot will
	// execute it (the packet's channels converted back to SI).
	Command Command
	Packet  RemoteControl
	// Dropped is the Mapping.Encode mask of channels that could not go out
	// together with a higher-priority one (e.g. waist while driving).
	Dropped uint32
	// Stale reports that neither command source was fresh (both timed
	// out, or none was given).
	Stale bool
}

// Status is a snapshot of the driver for display and tests.
type Status struct {
	EStopped bool
	Last     Sent
	Sent     uint64 // remote-control packets sent
	Changes  uint64 // of them sent early because the command changed
	SendErrs uint64 // failed socket writes
	Link     udplink.Stats
	Length   uint64 // telemetry drops: wrong length
	Frame    uint64 // wrong frame type
	Motors   uint64 // motor count out of range
	Video    uint64 // video frames ignored
	// Odometry is the dead reckoning; its pose covariance includes the
	// inflation of every lost link (LinkState).
	Odometry odometry.State
	Arm      [len(ArmJoints)]JointStatus
	// LinkState is the link as the telemetry shows it.
	LinkState LinkState
}

// New validates cfg, fills its defaults and opens the UDP socket. Call Run
// to start the link, or Close if Run will never run.
func New(cfg Config) (*Driver, error) {
	cfg, err := cfg.WithDefaults()
	if err != nil {
		return nil, err
	}
	robot := netip.MustParseAddrPort(cfg.Robot) // validated
	arm, err := NewArmController(cfg.Arm, cfg.MaxJoint)
	if err != nil {
		return nil, err
	}
	odo, err := odometry.New(odometry.Config{MaxGap: 2 * time.Second})
	if err != nil {
		return nil, fmt.Errorf("servosila: %w", err)
	}
	laddr, err := net.ResolveUDPAddr("udp", cfg.Local)
	if err != nil {
		return nil, fmt.Errorf("%w: local address: %v", ErrConfig, err)
	}
	conn, err := net.ListenUDP("udp", laddr)
	if err != nil {
		return nil, fmt.Errorf("servosila: listen %s: %w", cfg.Local, err)
	}
	d := &Driver{cfg: cfg, conn: conn, robot: robot, arm: arm, odo: odo, wake: make(chan struct{}, 1)}
	d.rc.FrameType = cfg.Frames.RemoteControl
	return d, nil
}

// Config returns the configuration in use (defaults filled in).
func (d *Driver) Config() Config {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.cfg
}

// LocalAddr returns the address of the driver's socket.
func (d *Driver) LocalAddr() netip.AddrPort { return d.conn.LocalAddr().(*net.UDPAddr).AddrPort() }

// SetCommand makes cmd the latest command of both sources (chassis and
// joints) and sets the headlight; the sender repeats it until it is
// replaced or older than CommandTimeout. A command with NaN or infinite
// values is refused with ErrInvalidCommand and changes nothing. A non-zero
// velocity for a joint under position control cancels its target.
func (d *Driver) SetCommand(cmd Command) error {
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
	if err := (Command{Linear: linear, Angular: angular}).Validate(); err != nil {
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
func (d *Driver) SetJointVelocities(v [NumJoints]float64) error {
	if err := (Command{Joints: v}).Validate(); err != nil {
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

func (d *Driver) setJointsLocked(v [NumJoints]float64, now time.Time) {
	for _, j := range ArmJoints {
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
func (d *Driver) SetJointTarget(j Joint, angle float64) error {
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
func (d *Driver) FollowJointTrajectory(j Joint, p, next TrajectoryPoint) error {
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
func (d *Driver) CancelJointTarget(j Joint) {
	d.mu.Lock()
	d.arm.Cancel(j)
	d.changedLocked()
	d.mu.Unlock()
}

// JointStatus returns the position-control status of joint j.
func (d *Driver) JointStatus(j Joint) JointStatus {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.arm.Status(j)
}

// JointPositions returns the joint angles of the latest telemetry [rad]
// (NaN for joints without a record) and when it arrived.
func (d *Driver) JointPositions() (pos [NumJoints]float64, at time.Time, ok bool) {
	t, at, ok := d.tel.Load()
	for j := range pos {
		pos[j] = math.NaN()
		if s := d.cfg.MotorSlots[j]; ok && s != None && s < int(t.MotorCount) {
			pos[j] = CountsToRad(t.Motors[s].Position, d.cfg.JointZero[j])
		}
	}
	return pos, at, ok
}

// Telemetry returns the latest telemetry packet and when it arrived.
func (d *Driver) Telemetry() (Telemetry, time.Time, bool) { return d.tel.Load() }

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
	d.sendLocked(time.Now(), Command{Headlight: d.headlight}, true)
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
	s.LinkState.OldTelemetry, s.LinkState.Resyncs = d.oldTel.Load(), d.resyncs.Load()
	for i, j := range ArmJoints {
		s.Arm[i] = d.arm.Status(j)
	}
	return s
}

// Run starts the receive goroutine and sends remote-control packets until
// ctx is cancelled: a changed command at once (no sooner than
// 1/MaxSendRate after the previous packet), and the command in force
// again whenever 1/SendRate passed without a packet (keep-alive). It then
// sends ShutdownPackets zero packets, stops the receiver, closes the
// socket and returns nil (or the error that ended the link). Call it once.
func (d *Driver) Run(ctx context.Context) error {
	d.mu.Lock()
	if d.ran {
		d.mu.Unlock()
		return errors.New("servosila: Run called twice")
	}
	d.ran = true
	d.mu.Unlock()
	period, err := rate.Hz(d.cfg.SendRate)
	if err != nil {
		_ = d.conn.Close()
		return fmt.Errorf("servosila: %w", err)
	}
	gap, err := rate.Hz(d.cfg.MaxSendRate)
	if err != nil {
		_ = d.conn.Close()
		return fmt.Errorf("servosila: max send rate: %w", err)
	}
	rxCtx, stopRx := context.WithCancel(ctx)
	rx := udplink.Receiver{
		Conn:       d.conn,
		Handle:     d.handle,
		Accept:     udplink.From(d.robot),
		Counters:   &d.link,
		BufferSize: 2048,
	}
	rxDone := make(chan error, 1)
	go func() { rxDone <- rx.Run(rxCtx) }()

	d.tick(time.Now()) // the first packet goes out at once
	err = d.sendLoop(ctx, period, gap)
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		err = nil
	}
	d.shutdown()
	stopRx()
	if rxErr := <-rxDone; rxErr != nil && !errors.Is(rxErr, context.Canceled) && !errors.Is(rxErr, context.DeadlineExceeded) && err == nil {
		err = rxErr
	}
	if cerr := d.conn.Close(); cerr != nil && err == nil {
		err = fmt.Errorf("servosila: close: %w", cerr)
	}
	return err
}

// Close releases the socket of a driver whose Run was never called.
func (d *Driver) Close() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.ran {
		return nil
	}
	d.ran = true
	return d.conn.Close()
}

// shutdown tells the robot to stop: several zero packets, a little apart,
// so that one lost datagram does not leave it moving.
func (d *Driver) shutdown() {
	for i := 0; i < d.cfg.ShutdownPackets; i++ {
		if i > 0 {
			time.Sleep(d.cfg.ShutdownInterval)
		}
		d.mu.Lock()
		d.arm.CancelAll()
		d.sendLocked(time.Now(), Command{Headlight: d.headlight}, true)
		d.mu.Unlock()
	}
}

// sendLoop sends a packet whenever nextSend says one is due, until ctx
// ends. It sleeps on a timer and on the setters' wake-ups, never polls.
func (d *Driver) sendLoop(ctx context.Context, period, gap time.Duration) error {
	timer := time.NewTimer(period)
	defer timer.Stop()
	for {
		d.mu.Lock()
		due := nextSend(d.last.At, d.dirty, period, gap)
		d.mu.Unlock()
		now := time.Now()
		if !now.Before(due) {
			d.tick(now)
			continue
		}
		timer.Reset(due.Sub(now)) // Go >= 1.23: no stale value after Reset
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-timer.C:
		case <-d.wake: // recompute the deadline
		}
	}
}

// nextSend is when the next packet is due, given the time of the last one:
// a changed command 1/MaxSendRate (gap) after it, otherwise the keep-alive
// 1/SendRate (period) after it.
func nextSend(last time.Time, changed bool, period, gap time.Duration) time.Time {
	if changed && gap < period {
		return last.Add(gap)
	}
	return last.Add(period)
}

// tick is one step of the send loop at time now.
func (d *Driver) tick(now time.Time) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.feedArm()
	_, telAt, haveTel := d.tel.Load()
	lost := d.ls.observe(now, d.tel.Seq(), telAt, haveTel, d.odo.State(), d.cfg.TelemetryTimeout)
	d.lostAfter.Store(int64(d.ls.state.LostAfter))
	var cmd Command
	stale := true
	if !d.estop && !lost {
		if c, ok := d.twist.Fresh(now, d.cfg.CommandTimeout); ok && c.gen == d.gen {
			cmd.Linear, cmd.Angular, stale = c.linear, c.angular, false
		}
		if c, ok := d.joints.Fresh(now, d.cfg.CommandTimeout); ok && c.gen == d.gen {
			cmd.Joints, stale = c.v, false
		}
		d.arm.Step(now, d.cfg.TelemetryTimeout, &cmd.Joints)
		for _, j := range ArmJoints {
			cmd.Joints[j] = d.arm.Limit(j, cmd.Joints[j])
		}
	}
	cmd.Headlight = d.headlight
	d.sendLocked(now, cmd, stale)
}

// feedArm hands new telemetry positions to the position controller.
func (d *Driver) feedArm() {
	seq := d.tel.Seq()
	if seq == d.telSeq {
		return
	}
	d.telSeq = seq
	t, at, ok := d.tel.Load()
	if !ok {
		return
	}
	for _, j := range ArmJoints {
		if s := d.cfg.MotorSlots[j]; s != None && s < int(t.MotorCount) {
			d.arm.Measure(j, CountsToRad(t.Motors[s].Position, d.cfg.JointZero[j]), at)
		}
	}
}

// sendLocked converts, encodes and sends cmd, and advances the odometry
// with the twist that was in force until now. d.mu must be held.
func (d *Driver) sendLocked(now time.Time, cmd Command, stale bool) {
	ch := d.cfg.Convert(&cmd)
	dropped := d.cfg.Mapping.Encode(&d.rc, &ch)
	// What the robot will execute: the packet read back as the robot does.
	var out Channels
	d.cfg.Mapping.Decode(&out, &d.rc)
	exec := d.cfg.Calibration.Velocities(&out)
	if d.dirty && !d.last.At.IsZero() && now.Sub(d.last.At) < time.Duration(float64(time.Second)/d.cfg.SendRate) {
		d.chgs.Add(1) // sent before the keep-alive was due
	}
	d.dirty = false
	_ = d.odo.Update(d.inForce, now) // finite by construction
	d.inForce = odometry.Twist2D{V: exec.Linear, W: exec.Angular}
	d.last = Sent{At: now, Command: exec, Packet: d.rc, Dropped: dropped, Stale: stale}
	pkt, _ := EncodeRemoteControl(d.buf[:], &d.rc) // buffer has the right size
	if _, err := d.conn.WriteToUDPAddrPort(pkt, d.robot); err != nil {
		d.sendE.Add(1)
		return
	}
	d.sent.Add(1)
}

// handle processes one datagram from the robot's address (receive
// goroutine).
func (d *Driver) handle(pkt []byte, _ netip.AddrPort, at time.Time) error {
	if len(pkt) > 0 && pkt[0] == d.cfg.Frames.Video && d.cfg.Frames.Video != d.cfg.Frames.Telemetry {
		d.drops.Video.Add(1)
		return nil
	}
	if err := DecodeTelemetry(&d.rxTel, pkt, d.cfg.Frames.Telemetry); err != nil {
		switch {
		case errors.Is(err, ErrLength):
			d.drops.Length.Add(1)
		case errors.Is(err, ErrFrameType):
			d.drops.FrameType.Add(1)
		case errors.Is(err, ErrMotorCount):
			d.drops.MotorCount.Add(1)
		}
		return err
	}
	if n := d.cfg.MinMotors(); int(d.rxTel.MotorCount) < n {
		d.drops.MotorCount.Add(1)
		return fmt.Errorf("servosila: decode telemetry: %w: %d motors, need %d", ErrMotorCount, d.rxTel.MotorCount, n)
	}
	ok, resync := d.order.accept(d.rxTel.Tick, at, time.Duration(d.lostAfter.Load()))
	if !ok {
		d.oldTel.Add(1) // duplicated or reordered: older than what we have
		return nil
	}
	if resync {
		d.resyncs.Add(1)
	}
	d.tel.Store(d.rxTel, at)
	return nil
}
