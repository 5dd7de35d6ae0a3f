package servosila

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"sync"
	"sync/atomic"
	"time"

	"github.com/telebridge/telebridge/pkg/mailbox"
	"github.com/telebridge/telebridge/pkg/odometry"
	"github.com/telebridge/telebridge/pkg/rate"
	"github.com/telebridge/telebridge/pkg/servosila/control"
	"github.com/telebridge/telebridge/pkg/servosila/wire"
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
	v   [wire.NumJoints]float64
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
	tel    mailbox.Latest[wire.Telemetry]

	link  udplink.Counters
	drops DropCounters
	sent  atomic.Uint64
	sendE atomic.Uint64
	chgs  atomic.Uint64  // packets sent early because the command changed
	wake  chan struct{}  // a token when the command in force changed
	rxTel wire.Telemetry // decode buffer, owned by the receive goroutine
	cc    *control.CommandCheck
	order telemetryOrder
	// Link state counters written by the receive goroutine.
	oldTel, resyncs atomic.Uint64
	lostAfter       atomic.Int64 // LinkState.LostAfter [ns], for the receiver

	mu        sync.Mutex
	gen       uint64
	estop     bool
	headlight bool
	arm       *control.ArmController
	telSeq    uint64
	inForce   odometry.Twist2D // chassis velocity sent at the last tick
	last      Sent
	ls        linkTracker
	rc        wire.RemoteControl
	buf       [64]byte // encode buffer (a packet is 57 bytes)
	ran       bool
	dirty     bool // the command changed since the last packet
	// The command check's state (cmdloss.go), guarded by mu.
	expect, echoRx, speedRx wire.SpeedEcho // buffers
	loss                    CommandLoss
	confOdo                 odometry.State // dead reckoning at the last confirmation
	confLosses              uint64         // LinkState.Losses then
	added                   [3]float64     // variance added since then
}

// New validates cfg, fills its defaults and opens the UDP socket. Call Run
// to start the link, or Close if Run will never run.
func New(cfg Config) (*Driver, error) {
	cfg, err := cfg.WithDefaults()
	if err != nil {
		return nil, err
	}
	robot := netip.MustParseAddrPort(cfg.Robot) // validated
	arm, err := control.NewArmController(cfg.Arm, cfg.MaxJoint)
	if err != nil {
		return nil, err
	}
	cc, err := control.NewCommandCheck(cfg.CommandCheck)
	if err != nil {
		return nil, err
	}
	odo, err := odometry.New(odometry.Config{MaxGap: 2 * time.Second})
	if err != nil {
		return nil, fmt.Errorf("servosila: %w", err)
	}
	conn, err := udplink.Listen(cfg.Local)
	if err != nil {
		return nil, fmt.Errorf("servosila: %w", err)
	}
	d := &Driver{cfg: cfg, conn: conn, robot: robot, arm: arm, odo: odo, cc: cc, wake: make(chan struct{}, 1)}
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
		d.sendLocked(time.Now(), wire.Command{Headlight: d.headlight}, true)
		d.mu.Unlock()
	}
}
