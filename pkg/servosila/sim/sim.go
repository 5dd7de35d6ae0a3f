package sim

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

	"github.com/telebridge/telebridge/pkg/odometry"
	"github.com/telebridge/telebridge/pkg/rate"
	"github.com/telebridge/telebridge/pkg/servosila/wire"
	"github.com/telebridge/telebridge/pkg/udplink"
)

// Config configures a Sim. Zero fields take the stated defaults; the
// protocol settings must match the driver's.
type Config struct {
	// Listen is the UDP address to bind. Default "127.0.0.1:0".
	Listen string
	// Frames are the frame type ids. Default 1 / 2 / 4.
	Frames wire.FrameTypes
	// Mapping is the gamepad assignment. Default wire.DefaultMapping().
	Mapping *wire.Mapping
	// Calibration converts protocol units to velocities. Default
	// wire.DefaultCalibration().
	Calibration *wire.Calibration
	// TelemetryRate is how often telemetry goes to the client [Hz].
	// Default 1.
	TelemetryRate float64
	// PhysicsRate is the integration rate [Hz]. Default 100.
	PhysicsRate float64
	// LinkTimeout stops everything when no packet arrived within it.
	// Default 1 s.
	LinkTimeout time.Duration
	// StallVelocity is the start (breakaway) threshold of a track standing
	// still [m/s of driving straight and rad/s of turning in place]: the
	// papers found 0.2 starts the robot and smaller commands may not. See
	// the package documentation for the per-track model. Default 0.15;
	// negative disables (tracks start at any speed).
	StallVelocity float64
	// TrackSeparation B is the distance between the track centre lines
	// [m]: the tracks run at v - w*B/2 (left) and v + w*B/2 (right).
	// Default (assumption) 2*Calibration.Angular/Calibration.Linear
	// = 0.704 m with the English paper's constants: the vendor server
	// mixing the linear and angular sticks into the two tracks with one
	// scale (left = linear - angular, right = linear + angular units).
	TrackSeparation float64
	// MaxStep caps the time integrated in one physics step, so that a
	// step that comes very late (a stalled process) does not jump: the
	// simulated clock (State.Elapsed) then runs slower than the wall
	// clock. Default 250 ms; lock-step tests set it near the physics
	// period.
	MaxStep time.Duration
	// MotorSlots is each joint's telemetry record. Default
	// wire.DefaultMotorSlots().
	MotorSlots *[wire.NumJoints]int
	// JointZero is the position count of each joint at angle zero.
	JointZero [wire.NumJoints]uint32
	// Initial are the joint angles at start [rad].
	Initial [wire.NumJoints]float64
	// Plant is the machine driven (see Plant). Nil: the kinematic model.
	Plant Plant
}

func (c Config) withDefaults() (Config, error) {
	if c.Listen == "" {
		c.Listen = "127.0.0.1:0"
	}
	if c.Frames == (wire.FrameTypes{}) {
		c.Frames = wire.DefaultFrameTypes()
	}
	if c.Mapping == nil {
		m := wire.DefaultMapping()
		c.Mapping = &m
	}
	if c.Calibration == nil {
		cal := wire.DefaultCalibration()
		c.Calibration = &cal
	}
	if c.TelemetryRate == 0 {
		c.TelemetryRate = 1
	}
	if c.PhysicsRate == 0 {
		c.PhysicsRate = 100
	}
	if c.LinkTimeout == 0 {
		c.LinkTimeout = time.Second
	}
	if c.StallVelocity == 0 {
		c.StallVelocity = 0.15
	}
	if c.TrackSeparation == 0 {
		c.TrackSeparation = 2 * c.Calibration.Angular / c.Calibration.Linear
	}
	if c.MotorSlots == nil {
		s := wire.DefaultMotorSlots()
		c.MotorSlots = &s
	}
	if err := c.Mapping.Validate(); err != nil {
		return c, err
	}
	if err := c.Calibration.Validate(); err != nil {
		return c, err
	}
	if _, err := rate.Hz(c.TelemetryRate); err != nil {
		return c, fmt.Errorf("servosilasim: telemetry rate: %w", err)
	}
	if _, err := rate.Hz(c.PhysicsRate); err != nil {
		return c, fmt.Errorf("servosilasim: physics rate: %w", err)
	}
	if c.MaxStep == 0 {
		c.MaxStep = 250 * time.Millisecond
	}
	if !(c.TrackSeparation > 0) || math.IsInf(c.TrackSeparation, 0) || c.MaxStep < 0 {
		return c, fmt.Errorf("servosilasim: track separation %g m, max step %v: must be positive", c.TrackSeparation, c.MaxStep)
	}
	if c.LinkTimeout < 0 {
		return c, errors.New("servosilasim: negative link timeout")
	}
	return c, nil
}

// State is the simulator's ground truth at one instant.
type State struct {
	At       time.Time       // when it was last integrated (wall clock)
	Elapsed  time.Duration   // simulated time integrated so far (steps capped at MaxStep)
	Steps    uint64          // physics steps done
	Pose     odometry.Pose2D // chassis pose in the simulator's world frame
	Distance float64         // path length travelled [m]
	Linear   float64         // chassis velocity being executed [m/s]
	Angular  float64         // chassis yaw rate being executed [rad/s]
	// Left and Right are the track speeds being executed [m/s]; zero for
	// a track that did not break away.
	Left, Right float64
	Joints      [wire.NumJoints]float64 // joint angles [rad]
	JointVel    [wire.NumJoints]float64 // joint velocities being executed [rad/s]
	Headlight   bool                    // the headlight is on
	// LinkUp is false before the first packet and after LinkTimeout
	// without packets (everything is then stopped).
	LinkUp bool
	Client netip.AddrPort     // where telemetry goes (the last sender)
	Last   wire.RemoteControl // the last valid remote-control packet
	LastAt time.Time          // when it arrived
	// Packets counts valid remote-control packets; ZeroPackets those of
	// them with every axis zero.
	Packets, ZeroPackets uint64
	TelemetrySent        uint64 // telemetry packets sent
	// TelemetrySlots counts the telemetry periods that came due; a slot
	// passes without a packet while the link is down, or when a stalled
	// process skips it.
	TelemetrySlots uint64
	// LinkDrops counts the times the link went down (LinkTimeout without
	// packets): the robot then stopped because commands did not arrive.
	LinkDrops uint64
	Link      udplink.Stats // received / accepted / malformed
	// Truth is the plant's state after the last step when Config.Plant is
	// set (the 3-D pose, tilt, torques, currents); zero otherwise.
	Truth Truth
	// PlantErrors counts steps whose Drive or Observe failed (the state
	// then keeps the last good truth); PlantErr is the last failure.
	PlantErrors uint64
	PlantErr    error
}

// Sim is a simulated Servosila vendor server. Create it with New, run it
// with Run; State may be called concurrently at any time.
type Sim struct {
	cfg  Config
	conn *net.UDPConn
	link udplink.Counters
	ran  atomic.Bool

	mu    sync.Mutex
	st    State
	tick  uint64
	rx    wire.RemoteControl // decode buffer, receive goroutine only
	telTx wire.Telemetry
	buf   [wire.NumMotors*24 + 64]byte

	updated chan struct{} // one token after each physics step
}

// New binds the simulator's socket.
func New(cfg Config) (*Sim, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	conn, err := udplink.Listen(cfg.Listen)
	if err != nil {
		return nil, fmt.Errorf("servosilasim: %w", err)
	}
	s := &Sim{cfg: cfg, conn: conn, updated: make(chan struct{}, 1)}
	s.st.Joints = cfg.Initial
	return s, nil
}

// Addr returns the simulator's UDP address (the driver's Robot address).
func (s *Sim) Addr() netip.AddrPort { return s.conn.LocalAddr().(*net.UDPAddr).AddrPort() }

// Updated returns a channel that holds a token after each physics step
// (one token at most: steps since the last receive coalesce). It lets one
// consumer, e.g. a test's path follower, act in lock-step with the
// simulation instead of sleeping. Use a single receiver.
func (s *Sim) Updated() <-chan struct{} { return s.updated }

// State returns a copy of the true state.
func (s *Sim) State() State {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.st
	st.Link = s.link.Stats()
	return st
}

// Run serves until ctx is cancelled, then closes the socket and returns
// nil (or the socket error that ended it). Call it once.
func (s *Sim) Run(ctx context.Context) error {
	if s.ran.Swap(true) {
		return errors.New("servosilasim: Run called twice")
	}
	defer s.conn.Close()
	physics, _ := rate.Hz(s.cfg.PhysicsRate)
	telPeriod, _ := rate.Hz(s.cfg.TelemetryRate)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	rx := udplink.Receiver{Conn: s.conn, Handle: s.handle, Counters: &s.link, BufferSize: 2048}
	rxDone := make(chan error, 1)
	go func() { rxDone <- rx.Run(ctx) }()

	start := time.Now()
	s.mu.Lock()
	s.st.At = start
	s.mu.Unlock()
	nextTel := start.Add(telPeriod)
	err := rate.Run(ctx, physics, func(t rate.Tick) error {
		s.advance(t.Now)
		if !t.Now.Before(nextTel) {
			s.sendTelemetry()
			var slots uint64
			for !t.Now.Before(nextTel) {
				nextTel = nextTel.Add(telPeriod)
				slots++
			}
			s.mu.Lock()
			s.st.TelemetrySlots += slots
			s.mu.Unlock()
		}
		return nil
	})
	cancel()
	rxErr := <-rxDone
	if ended(err) {
		err = nil
	}
	if err == nil && rxErr != nil && !ended(rxErr) {
		err = rxErr
	}
	return err
}

// ended reports whether err is the end of a context, not a failure.
func ended(err error) bool {
	return errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)
}

// handle decodes one remote-control packet (receive goroutine).
func (s *Sim) handle(pkt []byte, from netip.AddrPort, at time.Time) error {
	if err := wire.DecodeRemoteControl(&s.rx, pkt, s.cfg.Frames.RemoteControl); err != nil {
		return err
	}
	s.mu.Lock()
	s.st.Last, s.st.LastAt, s.st.Client = s.rx, at, from
	s.st.Packets++
	if s.rx.Axes == ([wire.NumAxes]int16{}) {
		s.st.ZeroPackets++
	}
	s.mu.Unlock()
	return nil
}

// advance integrates the state up to now with the velocities of the last
// packet (zero if the link is down).
func (s *Sim) advance(now time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := &s.st
	step := now.Sub(st.At)
	if step < 0 {
		step = 0
	}
	if step > s.cfg.MaxStep {
		step = s.cfg.MaxStep
	}
	dt := step.Seconds()
	// The velocities in force since the last step.
	st.Distance += math.Abs(st.Linear) * dt
	if s.cfg.Plant == nil {
		st.Pose = odometry.Integrate(st.Pose, odometry.Twist2D{V: st.Linear, W: st.Angular}, dt)
		for j := range st.Joints {
			st.Joints[j] += st.JointVel[j] * dt
		}
	}
	st.At = now
	st.Elapsed += step
	st.Steps++
	// The velocities from now on.
	up := !st.LastAt.IsZero() && now.Sub(st.LastAt) <= s.cfg.LinkTimeout
	if st.LinkUp && !up {
		st.LinkDrops++
	}
	st.LinkUp = up
	var ch wire.Channels
	if st.LinkUp {
		s.cfg.Mapping.Decode(&ch, &st.Last)
	}
	v := s.cfg.Calibration.Velocities(&ch)
	st.Left, st.Right = s.tracks(v.Linear, v.Angular, st.Left, st.Right)
	b := s.cfg.TrackSeparation
	st.Linear, st.Angular = (st.Left+st.Right)/2, (st.Right-st.Left)/b
	st.JointVel = v.Joints
	st.Headlight = ch.Headlight
	if s.cfg.Plant != nil {
		s.drivePlant(st)
	}
	select {
	case s.updated <- struct{}{}:
	default:
	}
}

// tracks returns the track speeds [m/s] for the commanded twist (v [m/s],
// w [rad/s]) given the speeds of the previous step (the per-track stall
// model of the package documentation).
func (s *Sim) tracks(v, w, left, right float64) (float64, float64) {
	half := w * s.cfg.TrackSeparation / 2
	start := s.cfg.StallVelocity
	track := func(cmd, prev, drive float64) float64 {
		switch {
		case cmd == 0:
			return 0
		case prev != 0 && (prev > 0) == (cmd > 0):
			return cmd // moving: no threshold while the direction holds
		case start <= 0 || math.Abs(drive) >= start:
			return cmd // breaks away
		}
		return 0 // static friction holds it
	}
	// A track's drive in the units of the measured starts: v + w for the
	// right track, v - w for the left (see the package documentation).
	return track(v-half, left, v-w), track(v+half, right, v+w)
}

// sendTelemetry sends one telemetry packet to the client while the link is
// up.
func (s *Sim) sendTelemetry() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.st.LinkUp || !s.st.Client.IsValid() {
		return
	}
	s.tick++
	t := &s.telTx
	t.FrameType, t.Tick, t.MotorCount = s.cfg.Frames.Telemetry, s.tick, wire.NumMotors
	// Every motor echoes the speed command it received (wire.ExpectEcho,
	// from the last packet: the link is up) and reports its speed.
	var ch wire.Channels
	s.cfg.Mapping.Decode(&ch, &s.st.Last)
	var echo wire.SpeedEcho
	wire.ExpectEcho(&echo, &ch, s.cfg.MotorSlots)
	for i := range t.Motors {
		t.Motors[i] = wire.Motor{DeviceID: uint8(i + 1), State: 1, SpeedCommand: echo[i]}
	}
	t.Motors[wire.LeftTrackSlot].Speed, t.Motors[wire.RightTrackSlot].Speed = wire.TrackSpeeds(s.st.Left, s.st.Right, s.cfg.Calibration)
	for j, slot := range s.cfg.MotorSlots {
		if slot == wire.None {
			continue
		}
		m := &t.Motors[slot]
		m.Position = wire.RadToCounts(s.st.Joints[j], s.cfg.JointZero[j])
		m.Speed = wire.Saturate(s.st.JointVel[j], s.cfg.Calibration.Joints[j])
		if s.cfg.Plant != nil {
			m.Current = currentUnits(s.st.Truth.Currents[j])
		}
	}
	pkt, err := wire.EncodeTelemetry(s.buf[:], t)
	if err != nil {
		return
	}
	if _, err := s.conn.WriteToUDPAddrPort(pkt, s.st.Client); err == nil {
		s.st.TelemetrySent++
	}
}
