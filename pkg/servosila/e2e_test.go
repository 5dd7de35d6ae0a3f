package servosila_test

import (
	"context"
	"errors"
	"math"
	"net"
	"net/netip"
	"testing"
	"time"

	"github.com/telebridge/telebridge/internal/testkit/simrig"
	"github.com/telebridge/telebridge/pkg/servosila"
	"github.com/telebridge/telebridge/pkg/servosila/control"
	servosilasim "github.com/telebridge/telebridge/pkg/servosila/sim"
	"github.com/telebridge/telebridge/pkg/servosila/wire"
)

// rig is a driver and a simulator talking over loopback UDP (the shared
// rig, internal/testkit/simrig, without the impairment proxy).
type rig struct {
	*simrig.Rig[*servosilasim.Sim, *servosila.Driver]
	drv *servosila.Driver
	sim *servosilasim.Sim
}

// fastConfig is a driver configuration that makes closed-loop tests quick:
// 50 Hz packets, a 300 ms command timeout.
func fastConfig() servosila.Config {
	return servosila.Config{
		Local:          "127.0.0.1:0",
		SendRate:       50,
		CommandTimeout: 300 * time.Millisecond,
		MaxJoint:       [wire.NumJoints]float64{1, 1, 1, 1, 1, 1},
		Arm:            control.ArmConfig{Gain: 5, Timeout: 3 * time.Second},
	}
}

func startRig(t *testing.T, cfg servosila.Config) *rig {
	t.Helper()
	return startRigSim(t, cfg, servosilasim.Config{TelemetryRate: 50, PhysicsRate: 100})
}

// startRigSim is startRig with a simulator configuration.
func startRigSim(t *testing.T, cfg servosila.Config, simCfg servosilasim.Config) *rig {
	t.Helper()
	rr := simrig.New(t, simrig.Config[*servosilasim.Sim, *servosila.Driver]{
		Direct: true,
		NewSim: func(listen string) (*servosilasim.Sim, error) {
			c := simCfg
			c.Listen = listen
			return servosilasim.New(c)
		},
		NewDriver: func(at netip.AddrPort) (*servosila.Driver, func(context.Context) error, error) {
			cfg.Robot = at.String()
			drv, err := servosila.New(cfg)
			if err != nil {
				return nil, nil, err
			}
			return drv, drv.Run, nil
		},
	})
	return &rig{Rig: rr, drv: rr.Driver, sim: rr.Sim()}
}

// stop shuts the driver down and waits for it (idempotent).
func (r *rig) stop(t *testing.T) {
	t.Helper()
	r.StopDriver()
}

// hold keeps refreshing cmd for d (like an operator holding a key).
func (r *rig) hold(t *testing.T, cmd wire.Command, d time.Duration) {
	t.Helper()
	end := time.Now().Add(d)
	for time.Now().Before(end) {
		if err := r.drv.SetCommand(cmd); err != nil {
			t.Fatal(err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// settle is the failure bound of the waits below: far beyond what an idle
// machine needs, so that a loaded machine slows the tests without failing
// them. Tests pass as soon as their condition holds.
const settle = 10 * time.Second

// holdUntil keeps refreshing cmd (like an operator holding a key) until
// cond holds on the simulator's state, and returns that state.
func (r *rig) holdUntil(t *testing.T, cmd wire.Command, what string, cond func(servosilasim.State) bool) servosilasim.State {
	t.Helper()
	if err := r.drv.SetCommand(cmd); err != nil {
		t.Fatal(err)
	}
	return r.waitFor(t, what, settle, func(st servosilasim.State) bool {
		if cond(st) {
			return true
		}
		if err := r.drv.SetCommand(cmd); err != nil {
			t.Fatal(err)
		}
		return false
	})
}

// waitFor polls cond on the simulator's state until it holds or the
// deadline passes.
func (r *rig) waitFor(t *testing.T, what string, within time.Duration, cond func(servosilasim.State) bool) servosilasim.State {
	t.Helper()
	end := time.Now().Add(within)
	for {
		st := r.sim.State()
		if cond(st) {
			return st
		}
		if time.Now().After(end) {
			t.Fatalf("%s: not within %v; simulator state %+v", what, within, st)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func TestTwistMovesSimulatedRobot(t *testing.T) {
	r := startRig(t, fastConfig())
	cmd := wire.Command{Linear: 0.3, Angular: 0.5}
	a := r.holdUntil(t, cmd, "executing the command", func(s servosilasim.State) bool {
		return math.Abs(s.Linear-0.3) < 2e-5 && math.Abs(s.Angular-0.5) < 5e-5
	})
	r.hold(t, cmd, 400*time.Millisecond)
	b := r.sim.State()
	// The simulator's own clock: a step stalled past MaxStep on a loaded
	// machine integrates less than the wall clock shows.
	dt := (b.Elapsed - a.Elapsed).Seconds()
	// Quantisation of one axis unit is 1/71553.837 m/s.
	if math.Abs(b.Linear-0.3) > 2e-5 || math.Abs(b.Angular-0.5) > 5e-5 {
		t.Errorf("simulator executes %.6f m/s, %.6f rad/s; want 0.3, 0.5", b.Linear, b.Angular)
	}
	speed := (b.Distance - a.Distance) / dt
	yawRate := math.Remainder(b.Pose.Yaw-a.Pose.Yaw, 2*math.Pi) / dt
	if math.Abs(speed-0.3) > 0.3*0.02 {
		t.Errorf("measured speed %.4f m/s over %.3f s, want 0.3 ±2%%", speed, dt)
	}
	if math.Abs(yawRate-0.5) > 0.5*0.02 {
		t.Errorf("measured yaw rate %.4f rad/s, want 0.5 ±2%%", yawRate)
	}
	// Dead reckoning integrates what was sent, so it tracks the truth.
	// Compare both at rest: while moving, the simulator's state is as of
	// its last physics step and the odometry as of the driver's last tick,
	// which a loaded machine can set hundreds of milliseconds apart.
	r.holdUntil(t, wire.Command{}, "the robot stopped", func(s servosilasim.State) bool {
		return s.Linear == 0 && s.Angular == 0
	})
	n := r.drv.Status().Sent
	waitSent := time.Now().Add(settle)
	for r.drv.Status().Sent < n+2 { // a zero tick after the one the robot got: odometry still
		if time.Now().After(waitSent) {
			t.Fatal("driver stopped sending")
		}
		time.Sleep(5 * time.Millisecond)
	}
	end := r.sim.State()
	odo := r.drv.Status().Odometry.Pose
	if d := math.Hypot(odo.X-end.Pose.X, odo.Y-end.Pose.Y); d > 0.03 {
		t.Errorf("odometry %+v vs simulator %+v at rest: %.3f m apart", odo, end.Pose, d)
	}
	t.Logf("speed %.4f m/s, yaw rate %.4f rad/s over %.3f s; at rest: odometry %+v, truth %+v", speed, yawRate, dt, odo, end.Pose)
}

func TestMinimumStartVelocityKeepsSign(t *testing.T) {
	for _, c := range []struct {
		name        string
		min         float64
		cmd, want   float64
		wantAngular bool
	}{
		{"+0.1 m/s becomes +0.2", 0, 0.1, 0.2, false},
		{"-0.1 m/s becomes -0.2", 0, -0.1, -0.2, false},
		{"-0.05 rad/s becomes -0.2", 0, -0.05, -0.2, true},
		{"without the rule 0.1 m/s stalls", -1, 0.1, 0, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			cfg := fastConfig()
			cfg.MinStartVelocity = c.min
			r := startRig(t, cfg)
			cmd := wire.Command{Linear: c.cmd}
			if c.wantAngular {
				cmd = wire.Command{Angular: c.cmd}
			}
			// Wait until the robot has the command's packet (a non-zero
			// drive or turn axis), then judge what it executes.
			st := r.holdUntil(t, cmd, "the command at the robot", func(s servosilasim.State) bool {
				return s.Last.Axes != ([wire.NumAxes]int16{})
			})
			// A physics step that ends after this observation took its
			// lock after the packet was stored, so it executes it (one
			// that merely started after the packet's arrival may not).
			st = r.holdUntil(t, cmd, "one physics step after it", func(s servosilasim.State) bool { return s.At.After(st.At) })
			got := st.Linear
			if c.wantAngular {
				got = st.Angular
			}
			if math.Abs(got-c.want) > 1e-4 {
				t.Errorf("simulator executes %.5f, want %.5f", got, c.want)
			}
		})
	}
}

func TestCommandTimeoutStopsRobot(t *testing.T) {
	cfg := fastConfig()
	r := startRig(t, cfg)
	if err := r.drv.SetCommand(wire.Command{Linear: 0.3}); err != nil {
		t.Fatal(err)
	}
	given := time.Now()
	r.waitFor(t, "robot moving", settle, func(s servosilasim.State) bool { return s.Linear > 0.29 })
	st := r.waitFor(t, "robot stopped by the command timeout", settle, func(s servosilasim.State) bool { return s.Linear == 0 })
	took := time.Since(given)
	if took < cfg.CommandTimeout {
		t.Errorf("stopped after %v, before the %v timeout", took, cfg.CommandTimeout)
	}
	if !st.LinkUp || st.ZeroPackets == 0 {
		t.Errorf("stop should come from zero packets on a live link: %+v", st)
	}
	if !r.drv.Status().Last.Stale {
		t.Error("driver does not report the command as stale")
	}
	t.Logf("stopped %v after the only command (timeout %v)", took, cfg.CommandTimeout)
}

func TestEStopLatchesUntilReleased(t *testing.T) {
	r := startRig(t, fastConfig())
	drive := wire.Command{Linear: 0.3}
	r.holdUntil(t, drive, "moving", func(s servosilasim.State) bool { return s.Linear > 0 })
	before := r.drv.Status()
	r.drv.EStop()
	// A zero packet went out (TestEStopSendsAtOnce shows it is sent
	// inside EStop, without a tick).
	if after := r.drv.Status(); after.Sent <= before.Sent || after.Last.Packet.Axes != ([wire.NumAxes]int16{}) {
		t.Fatalf("EStop did not send a zero packet at once: sent %d -> %d, last %+v", before.Sent, after.Sent, after.Last.Packet)
	}
	r.waitFor(t, "stopped by e-stop", settle, func(s servosilasim.State) bool { return s.Linear == 0 })
	// Fresh commands while latched move nothing.
	r.hold(t, drive, 200*time.Millisecond)
	if st := r.sim.State(); st.Linear != 0 || st.Last.Axes != ([wire.NumAxes]int16{}) {
		t.Fatalf("moved while latched: %+v", st)
	}
	if err := r.drv.SetJointTarget(wire.Waist, 0.2); !errors.Is(err, servosila.ErrEStopped) {
		t.Errorf("position target while latched: %v", err)
	}
	if !r.drv.Status().EStopped {
		t.Error("status does not report the latch")
	}
	// Release alone moves nothing: the commands of before are discarded.
	r.drv.Release()
	p := r.sim.State().Packets
	if st := r.waitFor(t, "5 packets after the release", settle, func(s servosilasim.State) bool { return s.Packets >= p+5 }); st.Linear != 0 {
		t.Fatalf("release resumed an old command: %+v", st)
	}
	r.holdUntil(t, drive, "moving after release and a new command", func(s servosilasim.State) bool { return s.Linear > 0 })
}

func TestShutdownStopsSimulator(t *testing.T) {
	cfg := fastConfig()
	cfg.SendRate = 5 // the default rate: the stop must not wait for a tick
	r := startRig(t, cfg)
	r.holdUntil(t, wire.Command{Linear: 0.3, Joints: [wire.NumJoints]float64{wire.Neck: 0.4}}, "moving",
		func(s servosilasim.State) bool { return s.Linear > 0 && s.JointVel[wire.Neck] > 0 })
	before := r.sim.State().ZeroPackets
	r.drv.SetCommand(wire.Command{Linear: 0.3}) // still fresh at shutdown
	r.stop(t)
	st := r.waitFor(t, "zeros received", settle, func(s servosilasim.State) bool {
		return s.ZeroPackets-before >= 5 && s.Linear == 0
	})
	if !st.LinkUp {
		t.Errorf("stopped by the link timeout, not by the zero packets: %+v", st)
	}
	if st.Last.Axes != ([wire.NumAxes]int16{}) || st.JointVel != ([wire.NumJoints]float64{}) {
		t.Errorf("last packet not zero: %+v", st.Last)
	}
}

func TestPositionTargetReached(t *testing.T) {
	r := startRig(t, fastConfig())
	targets := map[wire.Joint]float64{wire.Waist: 0.4, wire.Shoulder: -0.25, wire.Neck: 0.3}
	for j, a := range targets {
		if err := r.drv.SetJointTarget(j, a); err != nil {
			t.Fatal(err)
		}
	}
	deadline := time.Now().Add(4 * settle) // typically 1 s; a failure bound only
	for j := range targets {
		for !r.drv.JointStatus(j).State.Done() {
			if time.Now().After(deadline) {
				t.Fatalf("%s not done in time: %+v", j, r.drv.JointStatus(j))
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	st := r.sim.State()
	tol := r.drv.Config().Arm.Tolerance
	for j, a := range targets {
		s := r.drv.JointStatus(j)
		if s.State != control.Reached {
			t.Errorf("%s: %v", j, s.State)
		}
		// The truth, not just the telemetry, is within the band (plus one
		// count of telemetry resolution).
		if e := st.Joints[j] - a; math.Abs(e) > tol+2*math.Pi/wire.CountsPerTurn {
			t.Errorf("%s at %.4f rad, target %.4f, tolerance %.4f", j, st.Joints[j], a, tol)
		}
		t.Logf("%s: target %.4f rad, truth %.4f, telemetry %.4f", j, a, st.Joints[j], s.Position)
	}
	if st.JointVel != ([wire.NumJoints]float64{}) {
		t.Errorf("joints still moving after reaching: %v", st.JointVel)
	}
}

func TestForeignAndMalformedPacketsCounted(t *testing.T) {
	robot, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	defer robot.Close()
	foreign, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	defer foreign.Close()
	cfg := fastConfig()
	cfg.Robot = robot.LocalAddr().String()
	drv, err := servosila.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- drv.Run(ctx) }()
	defer func() { cancel(); <-done }()

	good := wire.Telemetry{FrameType: 2, Tick: 7, MotorCount: 10}
	good.Motors[3].Position = 1000
	goodRaw, _ := wire.EncodeTelemetry(make([]byte, wire.TelemetrySize), &good)
	to := drv.LocalAddr()
	send := func(c *net.UDPConn, b []byte) {
		if _, err := c.WriteToUDPAddrPort(b, to); err != nil {
			t.Fatal(err)
		}
	}
	waitStats := func(ok func(servosila.Status) bool) servosila.Status {
		t.Helper()
		end := time.Now().Add(settle)
		for {
			s := drv.Status()
			if ok(s) {
				return s
			}
			if time.Now().After(end) {
				t.Fatalf("counters not as expected: %+v", s)
			}
			time.Sleep(2 * time.Millisecond)
		}
	}
	send(robot, goodRaw)
	waitStats(func(s servosila.Status) bool { return s.Link.Accepted == 1 })
	ref, refAt, _ := drv.Telemetry()

	evil := good
	evil.Tick, evil.Motors[3].Position = 99, 60000
	evilRaw, _ := wire.EncodeTelemetry(make([]byte, wire.TelemetrySize), &evil)
	wrongType := append([]byte(nil), evilRaw...)
	wrongType[0] = 1
	fewMotors := append([]byte(nil), evilRaw...)
	fewMotors[9] = 3
	send(foreign, evilRaw)          // right bytes, wrong sender
	send(robot, evilRaw[:100])      // short
	send(robot, append(evilRaw, 0)) // long
	send(robot, wrongType)
	send(robot, fewMotors) // fewer records than the joints need
	video := make([]byte, 1200)
	video[0] = 4
	send(robot, video) // a video frame: recognised, ignored
	s := waitStats(func(s servosila.Status) bool { return s.Link.Received == 7 })
	if s.Link.Foreign != 1 || s.Length != 2 || s.Frame != 1 || s.Motors != 1 || s.Link.Malformed != 4 || s.Video != 1 || s.Link.Accepted != 2 {
		t.Errorf("counters %+v", s)
	}
	got, gotAt, _ := drv.Telemetry()
	if got != ref || !gotAt.Equal(refAt) {
		t.Errorf("bad packets changed the telemetry: tick %d", got.Tick)
	}
	// Nothing moved: everything the driver sent is a zero packet.
	buf := make([]byte, 128)
	_ = robot.SetReadDeadline(time.Now().Add(time.Second))
	n, _, err := robot.ReadFromUDPAddrPort(buf)
	if err != nil {
		t.Fatal(err)
	}
	var rc wire.RemoteControl
	if err := wire.DecodeRemoteControl(&rc, buf[:n], 1); err != nil || rc.Axes != ([wire.NumAxes]int16{}) {
		t.Errorf("driver sent %+v (%v)", rc, err)
	}
}

func TestSimulatorCountsMalformed(t *testing.T) {
	r := startRig(t, fastConfig())
	c, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	// The driver's packets first, so that the simulator knows its client
	// before the malformed ones arrive (on a loaded machine the driver may
	// start late).
	r.waitFor(t, "the driver's first packet", settle, func(s servosilasim.State) bool { return s.Client == r.drv.LocalAddr() })
	bad := make([]byte, 57)
	bad[0] = 2 // telemetry id in a remote-control-sized packet
	bad[3] = 0x7f
	for _, b := range [][]byte{bad, bad[:20]} {
		if _, err := c.WriteToUDPAddrPort(b, r.sim.Addr()); err != nil {
			t.Fatal(err)
		}
	}
	st := r.waitFor(t, "malformed counted", settle, func(s servosilasim.State) bool { return s.Link.Malformed == 2 })
	if st.Linear != 0 || st.Client != r.drv.LocalAddr() {
		t.Errorf("malformed packets changed the simulator: %+v", st)
	}
}

func TestSeparateSourcesTimeOutSeparately(t *testing.T) {
	r := startRig(t, fastConfig())
	neck := [wire.NumJoints]float64{wire.Neck: 0.3}
	// Both sources fresh: the neck moves while the chassis drives.
	refresh := func(twist bool, what string, cond func(servosilasim.State) bool) servosilasim.State {
		t.Helper()
		end := time.Now().Add(settle)
		for {
			if twist {
				if err := r.drv.SetTwist(0.3, 0); err != nil {
					t.Fatal(err)
				}
			}
			if err := r.drv.SetJointVelocities(neck); err != nil {
				t.Fatal(err)
			}
			if st := r.sim.State(); cond(st) {
				return st
			}
			if time.Now().After(end) {
				t.Fatalf("%s: not within %v; simulator state %+v", what, settle, r.sim.State())
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
	refresh(true, "driving with the neck moving", func(s servosilasim.State) bool {
		return s.Linear > 0.29 && s.JointVel[wire.Neck] > 0.29
	})
	// Only the joint source keeps refreshing: the chassis times out alone
	// (the joints are refreshed every 5 ms, far within their timeout).
	st := refresh(false, "the chassis timed out", func(s servosilasim.State) bool { return s.Linear == 0 })
	if st.Linear != 0 || math.Abs(st.JointVel[wire.Neck]-0.3) > 1e-4 {
		t.Errorf("after the chassis timeout: linear %g m/s, neck %g rad/s; want 0 and 0.3", st.Linear, st.JointVel[wire.Neck])
	}
	if err := r.drv.SetTwist(math.NaN(), 0); !errors.Is(err, wire.ErrInvalidCommand) {
		t.Errorf("NaN twist: %v", err)
	}
}
