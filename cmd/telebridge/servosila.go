package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"time"

	"github.com/telebridge/telebridge/pkg/servosila"
	servosilacontrol "github.com/telebridge/telebridge/pkg/servosila/control"
	servosilasim "github.com/telebridge/telebridge/pkg/servosila/sim"
	servosilawire "github.com/telebridge/telebridge/pkg/servosila/wire"
)

func init() {
	register(command{
		name:    "servosila",
		summary: "drive a Servosila Engineer (default: the embedded simulator) from the terminal, or run a scripted drive",
		run:     runServosila,
	})
}

// servosilaSession is a running driver, with the embedded simulator when
// no robot address was given.
type servosilaSession struct {
	drv     *servosila.Driver
	stop    context.CancelFunc // stops the driver
	done    chan error         // the driver's Run result
	sim     *servosilasim.Sim  // nil against a real robot
	simStop context.CancelFunc
	simDone chan error
}

func runServosila(ctx context.Context, args []string, io stdio) error {
	fs := newFlagSet("servosila", io)
	robot := fs.String("robot", "", "robot address host:port (e.g. 10.42.0.1:10000); empty runs the embedded simulator")
	script := fs.Bool("script", false, "run the short scripted drive and exit, even on a terminal")
	rateHz := fs.Float64("rate", 5, "remote-control packet rate [Hz]")
	simTel := fs.Float64("sim-telemetry-rate", 10, "telemetry rate of the embedded simulator [Hz] (the robot sends 1 Hz)")
	russian := fs.Bool("russian", false, "use the Russian paper's calibration (72021.739 units per m/s, 24000 per rad/s)")
	speed := fs.Float64("speed", 0.3, "teleoperation: drive speed [m/s]")
	turn := fs.Float64("turn", 0.6, "teleoperation: turn rate [rad/s]")
	jointSpeed := fs.Float64("joint-speed", 0.3, "teleoperation: joint speed [rad/s]")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		return fmt.Errorf("%w: unexpected argument %q", errUsage, fs.Arg(0))
	}
	cfg := servosila.Config{SendRate: *rateHz, Robot: *robot}
	if *russian {
		cal := servosilawire.RussianCalibration()
		cfg.Calibration = &cal
	}
	s, err := startServosila(ctx, cfg, *simTel)
	if err != nil {
		return err
	}
	if *script || !io.isTerminal {
		err = s.script(ctx, io.out)
	} else {
		err = teleop(ctx, s, io, teleopSpeeds{linear: *speed, angular: *turn, joint: *jointSpeed})
	}
	if serr := s.close(); err == nil {
		err = serr
	}
	return err
}

// startServosila starts the driver, and the embedded simulator when
// cfg.Robot is empty.
func startServosila(ctx context.Context, cfg servosila.Config, simTelemetry float64) (*servosilaSession, error) {
	ctx, stop := context.WithCancel(ctx)
	s := &servosilaSession{stop: stop, done: make(chan error, 1)}
	if cfg.Robot == "" {
		sim, err := servosilasim.New(servosilasim.Config{TelemetryRate: simTelemetry, Calibration: cfg.Calibration})
		if err != nil {
			stop()
			return nil, err
		}
		// The simulator outlives the driver so that it sees the zeros.
		simCtx, simStop := context.WithCancel(context.WithoutCancel(ctx))
		s.sim, s.simStop, s.simDone = sim, simStop, make(chan error, 1)
		go func() { s.simDone <- sim.Run(simCtx) }()
		cfg.Robot = sim.Addr().String()
		cfg.Local = "127.0.0.1:0"
	}
	drv, err := servosila.New(cfg)
	if err != nil {
		stop()
		if s.sim != nil {
			s.simStop()
			err = errors.Join(err, <-s.simDone)
		}
		return nil, err
	}
	s.drv = drv
	go func() { s.done <- drv.Run(ctx) }()
	return s, nil
}

// close stops the driver (zero packets out), then the simulator.
func (s *servosilaSession) close() error {
	s.stop()
	err := <-s.done
	if s.sim != nil {
		s.simStop()
		if serr := <-s.simDone; err == nil {
			err = serr
		}
	}
	return err
}

// script is the unattended drive: forward, turn, a waist target, e-stop,
// release, stop. It prints what was commanded and, on the simulator, the
// truth, and fails if the robot did not do what it was told, or if the
// telemetry showed commands that did not reach it (a COMMAND LOSS line).
func (s *servosilaSession) script(ctx context.Context, w io.Writer) error {
	cfg := s.drv.Config()
	where := "robot " + cfg.Robot
	if s.sim != nil {
		where = "embedded simulator at " + cfg.Robot
	}
	fmt.Fprintf(w, "servosila: scripted drive against the %s (%g Hz commands, command timeout %v)\n", where, cfg.SendRate, cfg.CommandTimeout)
	var failed []string
	check := func(ok bool, what string) {
		if !ok {
			failed = append(failed, what)
			fmt.Fprintf(w, "  FAILED: %s\n", what)
		}
	}
	hold := func(cmd servosilawire.Command, d time.Duration) error {
		end := time.Now().Add(d)
		for time.Now().Before(end) {
			if err := s.drv.SetCommand(cmd); err != nil {
				return err
			}
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(50 * time.Millisecond):
			}
		}
		return nil
	}
	pause := func(d time.Duration) error {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(d):
			return nil
		}
	}
	truth := func() (servosilasim.State, bool) {
		if s.sim == nil {
			return servosilasim.State{}, false
		}
		return s.sim.State(), true
	}
	// settled is the truth after a physics step that began after this
	// call: a packet the simulator has already received (State().Last)
	// takes effect on its velocities only at its next step, which a loaded
	// machine can delay. Bounded at 2 s in case the simulator stopped.
	settled := func() (servosilasim.State, bool) {
		a, ok := truth()
		if !ok {
			return a, false
		}
		for deadline := time.Now().Add(2 * time.Second); time.Now().Before(deadline); time.Sleep(2 * time.Millisecond) {
			if b := s.sim.State(); b.Steps > a.Steps {
				return b, true
			}
		}
		return s.sim.State(), true
	}

	// 1. Forward.
	a, _ := truth()
	if err := hold(servosilawire.Command{Linear: 0.3}, time.Second); err != nil {
		return err
	}
	st := s.drv.Status()
	fmt.Fprintf(w, "1. forward 0.30 m/s for 1 s: sent %.3f m/s; odometry x %.3f m", st.Last.Command.Linear, st.Odometry.Pose.X)
	if b, ok := truth(); ok {
		fmt.Fprintf(w, "; simulator %.3f m/s, moved %.3f m", b.Linear, b.Distance-a.Distance)
		check(math.Abs(b.Linear-0.3) < 1e-3, "simulator speed is the commanded 0.3 m/s")
		check(b.Distance-a.Distance > 0.2, "simulator moved forward")
	}
	fmt.Fprintln(w)

	// 2. Turn left, slower than the minimum start velocity.
	a, _ = truth()
	if err := hold(servosilawire.Command{Angular: 0.1}, time.Second); err != nil {
		return err
	}
	st = s.drv.Status()
	fmt.Fprintf(w, "2. turn left 0.10 rad/s for 1 s: sent %.3f rad/s (raised to the 0.2 minimum); odometry yaw %.3f rad", st.Last.Command.Angular, st.Odometry.Pose.Yaw)
	if b, ok := truth(); ok {
		fmt.Fprintf(w, "; simulator %.3f rad/s, turned %.3f rad", b.Angular, math.Remainder(b.Pose.Yaw-a.Pose.Yaw, 2*math.Pi))
		check(math.Abs(b.Angular-0.2) < 1e-3, "simulator turns at the 0.2 rad/s minimum")
	}
	fmt.Fprintln(w)

	// 3. Waist to 0.3 rad by position control from telemetry.
	if err := pause(cfg.CommandTimeout + 200*time.Millisecond); err != nil { // the chassis stops first
		return err
	}
	if err := s.drv.SetJointTarget(servosilawire.Waist, 0.3); err != nil {
		return err
	}
	deadline := time.Now().Add(8 * time.Second)
	for !s.drv.JointStatus(servosilawire.Waist).State.Done() && time.Now().Before(deadline) {
		if err := pause(50 * time.Millisecond); err != nil {
			return err
		}
	}
	js := s.drv.JointStatus(servosilawire.Waist)
	fmt.Fprintf(w, "3. waist to 0.300 rad: %s, telemetry %.3f rad", js.State, js.Position)
	check(js.State == servosilacontrol.Reached, "waist target reached")
	if b, ok := truth(); ok {
		fmt.Fprintf(w, "; simulator %.3f rad", b.Joints[servosilawire.Waist])
		check(math.Abs(b.Joints[servosilawire.Waist]-0.3) <= cfg.Arm.Tolerance+1e-3, "simulator waist within tolerance")
	}
	fmt.Fprintln(w)

	// 4. Emergency stop while driving; commands are ignored while latched.
	if err := hold(servosilawire.Command{Linear: -0.3}, 500*time.Millisecond); err != nil {
		return err
	}
	s.drv.EStop()
	if err := hold(servosilawire.Command{Linear: -0.3}, 500*time.Millisecond); err != nil {
		return err
	}
	st = s.drv.Status()
	fmt.Fprintf(w, "4. e-stop while reversing, then 0.5 s of reverse commands: latched %v, sent %.3f m/s", st.EStopped, st.Last.Command.Linear)
	check(st.EStopped && st.Last.Command.Linear == 0, "e-stop latched and zero sent")
	if b, ok := truth(); ok {
		fmt.Fprintf(w, "; simulator %.3f m/s", b.Linear)
		check(b.Linear == 0, "simulator stopped by the e-stop")
	}
	fmt.Fprintln(w)

	// 5. Release, then a new command moves again.
	s.drv.Release()
	if err := hold(servosilawire.Command{Linear: 0.25}, 600*time.Millisecond); err != nil {
		return err
	}
	st = s.drv.Status()
	fmt.Fprintf(w, "5. release, forward 0.25 m/s: sent %.3f m/s", st.Last.Command.Linear)
	if b, ok := truth(); ok {
		fmt.Fprintf(w, "; simulator %.3f m/s", b.Linear)
		check(math.Abs(b.Linear-0.25) < 1e-3, "simulator moves again after release")
	}
	fmt.Fprintln(w)

	// 6. Stop: the driver sends zeros before closing its socket.
	s.stop()
	if err := <-s.done; err != nil {
		return err
	}
	s.done <- nil // for close
	st = s.drv.Status()
	fmt.Fprintf(w, "6. stop: %d packets sent, %d telemetry packets received (%d foreign, %d malformed); odometry x %.3f y %.3f yaw %.3f",
		st.Sent, st.Link.Accepted, st.Link.Foreign, st.Link.Malformed, st.Odometry.Pose.X, st.Odometry.Pose.Y, st.Odometry.Pose.Yaw)
	if b, ok := settled(); ok {
		fmt.Fprintf(w, "; simulator x %.3f y %.3f yaw %.3f, %.3f m/s, last packet zero %v",
			b.Pose.X, b.Pose.Y, b.Pose.Yaw, b.Linear, b.Last.Axes == [servosilawire.NumAxes]int16{})
		check(b.Linear == 0 && b.Last.Axes == [servosilawire.NumAxes]int16{}, "simulator stopped by the zero packets")
		check(b.LinkUp, "stop came from the zeros, not from the link timeout")
	}
	fmt.Fprintln(w)
	// Commands that did not reach the robot (shorter losses than a lost
	// link): the telemetry showed them; the odometry above is uncertain.
	if st := s.drv.Status(); st.CommandLoss.Events > 0 {
		l, cov := st.CommandLoss, st.Odometry.PoseCovariance
		fmt.Fprintf(w, "COMMAND LOSS: the robot did not confirm the commands %d time(s) (last: %s, %.1f s unconfirmed; longest %.1f s; %d telemetry packet(s) missing); odometry uncertain: sigma x %.3f m, y %.3f m, yaw %.3f rad\n",
			l.Events, l.LastKind, l.Last.Seconds(), l.Longest.Seconds(), l.MissingTelemetry, math.Sqrt(cov[0]), math.Sqrt(cov[7]), math.Sqrt(cov[35]))
		check(false, "every command reached the robot")
	}
	// Without a simulator the truth is unknown: at least the driver must
	// have seen the robot all along (after a lost link the odometry, and
	// the lines above, may show motion the robot did not carry out).
	if ls := s.drv.Status().LinkState; ls.Losses > 0 || ls.Lost {
		fmt.Fprintf(w, "link to the robot lost %d time(s) during the drive (telemetry silent for more than %v)\n", ls.Losses, ls.LostAfter)
		check(false, "the link to the robot held")
	}
	if len(failed) > 0 {
		return fmt.Errorf("scripted drive: %d check(s) failed: %v", len(failed), failed)
	}
	fmt.Fprintln(w, "ok: scripted drive done, robot stopped")
	return nil
}
