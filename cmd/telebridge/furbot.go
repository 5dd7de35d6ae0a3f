package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"net/netip"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/telebridge/telebridge/pkg/furbot"
	furbotcontrol "github.com/telebridge/telebridge/pkg/furbot/control"
	furbotsim "github.com/telebridge/telebridge/pkg/furbot/sim"
	furbotwire "github.com/telebridge/telebridge/pkg/furbot/wire"
)

func init() {
	register(command{
		name:    "furbot",
		summary: "drive a Furbot (default: the embedded simulator) through the bridge: live view, or a scripted drive",
		run:     runFurbot,
	})
}

// furbotRun is one session: the bridge, and the simulator when there is
// no real vehicle.
type furbotRun struct {
	bridge  *furbot.Bridge
	sim     *furbotsim.Sim // nil with a real vehicle
	vehicle netip.AddrPort
}

func runFurbot(ctx context.Context, args []string, io stdio) error {
	fs := newFlagSet("furbot", io)
	vehicle := fs.String("vehicle", "", "the vehicle's control address HOST:PORT (default: an embedded simulator on loopback)")
	listen := fs.String("listen", "", "local UDP address for status frames (default :18003 with --vehicle, 127.0.0.1:0 with the simulator)")
	script := fs.Bool("script", false, "run the scripted drive and exit (the default when stdin is not a terminal)")
	scale := fs.Float64("scale", 1, "multiply the distances of the scripted drive's segments")
	bicycle := fs.Bool("bicycle-odom", false, "odometry from speed and steering angle instead of the rear wheel speeds")
	latAccel := fs.Float64("max-lat-accel", 0, "lateral acceleration limit [m/s²] (0: off)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		return fmt.Errorf("%w: unexpected argument %q", errUsage, fs.Arg(0))
	}
	if !(*scale > 0) || *scale > 100 {
		return fmt.Errorf("%w: --scale must be in (0, 100]", errUsage)
	}
	scripted := *script || !io.isTerminal
	if *vehicle != "" && !*script && !io.isTerminal {
		return fmt.Errorf("%w: refusing to drive a real vehicle unattended; pass --script to run the scripted drive", errUsage)
	}

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	errs := make(chan error, 2)
	defer func() { cancel(); wg.Wait() }()
	start := func(name string, f func(context.Context) error) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := f(ctx); err != nil {
				errs <- fmt.Errorf("%s: %w", name, err)
			}
		}()
	}

	r := furbotRun{}
	cfg := furbot.BridgeConfig{Listen: *listen}
	cfg.Controller.MaxLatAccel = *latAccel
	if *bicycle {
		cfg.Odometry.Source = furbotcontrol.OdomBicycle
	}
	if *vehicle == "" {
		sim, err := furbotsim.New(furbotsim.Config{Params: furbotsim.Params{StartupTime: 0.5}})
		if err != nil {
			return err
		}
		r.sim, r.vehicle = sim, sim.Addr()
		if cfg.Listen == "" {
			cfg.Listen = "127.0.0.1:0"
		}
		start("simulator", sim.Run)
	} else {
		ap, err := netip.ParseAddrPort(*vehicle)
		if err != nil {
			return fmt.Errorf("%w: --vehicle: %v", errUsage, err)
		}
		r.vehicle = ap
	}
	cfg.Vehicle = r.vehicle
	b, err := furbot.NewBridge(cfg)
	if err != nil {
		return err
	}
	r.bridge = b
	start("bridge", b.Run)

	if err := waitStarted(ctx, b, errs, 10*time.Second); err != nil {
		return err
	}
	if scripted {
		err = scriptedDrive(ctx, &r, *scale, io.out)
	} else {
		err = liveView(ctx, &r, io)
	}
	cancel()
	wg.Wait()
	select {
	case e := <-errs:
		return errors.Join(err, e)
	default:
	}
	return err
}

// waitStarted waits until the bridge publishes (every subsystem works), a
// component fails (errs), or limit passes.
func waitStarted(ctx context.Context, b *furbot.Bridge, errs <-chan error, limit time.Duration) error {
	ctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	started := make(chan error, 1)
	go func() { started <- b.WaitStarted(ctx) }()
	select {
	case err := <-started:
		if err != nil {
			return fmt.Errorf("the vehicle did not report every subsystem working within %v: %w", limit, err)
		}
		return nil
	case err := <-errs:
		return err
	}
}

// commander re-sends the current command at 20 Hz, like a cmd_vel
// publisher, until its context ends.
type commander struct {
	mu  sync.Mutex
	cmd furbotcontrol.Twist
}

func (c *commander) set(t furbotcontrol.Twist) {
	c.mu.Lock()
	c.cmd = t
	c.mu.Unlock()
}

func (c *commander) get() furbotcontrol.Twist {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.cmd
}

func (c *commander) run(ctx context.Context, b *furbot.Bridge) {
	tk := time.NewTicker(50 * time.Millisecond)
	defer tk.Stop()
	for {
		_ = b.SetCommand(c.get())
		select {
		case <-ctx.Done():
			return
		case <-tk.C:
		}
	}
}

// segment is one leg of the scripted drive: hold cmd until the odometry
// has covered dist metres (scaled), or, for a zero command, until the
// vehicle stands still.
type segment struct {
	name string
	cmd  furbotcontrol.Twist
	dist float64 // [m]
}

var furbotScript = []segment{
	{"straight, 1.5 m/s", furbotcontrol.Twist{V: 1.5}, 3},
	{"left arc, R 8 m at 2 m/s", furbotcontrol.Twist{V: 2, W: 0.25}, 6},
	{"stop", furbotcontrol.Twist{}, 0},
}

// segmentTimeout bounds each leg, so a vehicle that does not move ends the
// drive with an error instead of hanging.
const segmentTimeout = 60 * time.Second

// scriptedDrive drives furbotScript and prints odometry against the
// simulator's truth after each segment. With the simulator it fails when
// the odometry's distance is off by 1 % or more (and by more than 1 cm).
func scriptedDrive(ctx context.Context, r *furbotRun, scale float64, out io.Writer) error {
	var cmd commander
	cctx, stop := context.WithCancel(ctx)
	defer stop()
	go cmd.run(cctx, r.bridge)
	fmt.Fprintf(out, "furbot scripted drive, vehicle %v%s\n", r.vehicle, map[bool]string{true: " (embedded simulator)", false: ""}[r.sim != nil])
	begin := time.Now()
	for _, seg := range furbotScript {
		cmd.set(seg.cmd)
		var err error
		if seg.cmd == (furbotcontrol.Twist{}) {
			err = waitStill(ctx, r, segmentTimeout)
		} else {
			err = waitDistance(ctx, r, seg.dist*scale, segmentTimeout)
		}
		if err != nil {
			cmd.set(furbotcontrol.Twist{})
			return fmt.Errorf("segment %q: %w", seg.name, err)
		}
		printProgress(out, r, seg.name, time.Since(begin))
	}
	snap, _ := r.bridge.Latest()
	st := snap.Stats
	fmt.Fprintf(out, "frames: %d status used, %d invalid, %d foreign, %d dropped, %d gaps; %d control frames sent; %d loop periods missed\n",
		st.Accepted, st.Invalid, st.Foreign, st.Dropped, st.Gaps, st.ControlSent, st.MissedTicks)
	if r.sim == nil {
		fmt.Fprintf(out, "result: odometry distance %.3f m (no ground truth with a real vehicle)\n", snap.Odom.Distance)
		return nil
	}
	tr := r.sim.Truth()
	abs := math.Abs(snap.Odom.Distance - tr.Distance)
	distErr := 100 * abs / math.Max(tr.Distance, 1e-9)
	posErr := math.Hypot(snap.Odom.Pose.X-tr.X, snap.Odom.Pose.Y-tr.Y)
	fmt.Fprintf(out, "result: odometry distance %.3f m, truth %.3f m, error %.3f %%; position error %.3f m\n",
		snap.Odom.Distance, tr.Distance, distErr, posErr)
	if distErr >= 1 && abs > 0.01 {
		return fmt.Errorf("odometry distance error %.3f %% is 1 %% or more", distErr)
	}
	return nil
}

// waitDistance waits until the odometry has covered dist metres more.
func waitDistance(ctx context.Context, r *furbotRun, dist float64, limit time.Duration) error {
	s, _ := r.bridge.Latest()
	goal := s.Odom.Distance + dist
	deadline := time.Now().Add(limit)
	for {
		s, _ = r.bridge.Latest()
		if s.Odom.Distance >= goal {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("covered %.2f m of %.2f m within %v", s.Odom.Distance-(goal-dist), dist, limit)
		}
		if err := sleepCtx(ctx, 10*time.Millisecond); err != nil {
			return err
		}
	}
}

func waitStill(ctx context.Context, r *furbotRun, limit time.Duration) error {
	deadline := time.Now().Add(limit)
	for {
		s, _ := r.bridge.Latest()
		if s.Status.Traction.Speed == 0 && (r.sim == nil || r.sim.Truth().V == 0) {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("the vehicle did not stop within %v", limit)
		}
		if err := sleepCtx(ctx, 20*time.Millisecond); err != nil {
			return err
		}
	}
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

func printProgress(out io.Writer, r *furbotRun, name string, t time.Duration) {
	s, _ := r.bridge.Latest()
	o := s.Odom
	fmt.Fprintf(out, "t %6.2f s  %-26s odom x %7.3f y %7.3f yaw %6.3f dist %7.3f m  speed %5.2f m/s",
		t.Seconds(), name, o.Pose.X, o.Pose.Y, o.Pose.Yaw, o.Distance, s.Status.Traction.SpeedMPS())
	if r.sim != nil {
		tr := r.sim.Truth()
		fmt.Fprintf(out, " | truth x %7.3f y %7.3f yaw %6.3f dist %7.3f m", tr.X, tr.Y, tr.Yaw, tr.Distance)
	}
	fmt.Fprintln(out)
}

// liveView redraws the vehicle state 5 times a second and takes commands
// as lines on stdin until "q", end of input or cancellation.
func liveView(ctx context.Context, r *furbotRun, io stdio) error {
	var cmd commander
	cctx, stop := context.WithCancel(ctx)
	defer stop()
	go cmd.run(cctx, r.bridge)
	lines := make(chan string)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(io.in)
		for sc.Scan() {
			select {
			case lines <- strings.TrimSpace(sc.Text()):
			case <-cctx.Done():
				return
			}
		}
	}()
	tk := time.NewTicker(200 * time.Millisecond)
	defer tk.Stop()
	msg := ""
	estop := false
	render(io.out, r, cmd.get(), msg)
	for {
		select {
		case <-ctx.Done():
			return nil
		case line, ok := <-lines:
			if !ok || line == "q" || line == "quit" {
				return nil
			}
			c := cmd.get()
			msg = ""
			f := strings.Fields(line)
			switch {
			case len(f) == 0:
			case f[0] == "e" || f[0] == "estop":
				estop = !estop
				r.bridge.SetEStop(estop)
				msg = fmt.Sprintf("emergency stop %v", map[bool]string{true: "LATCHED", false: "released"}[estop])
			case f[0] == "stop" || f[0] == "s" || f[0] == "0":
				cmd.set(furbotcontrol.Twist{})
			case (f[0] == "v" || f[0] == "w") && len(f) == 2:
				x, err := strconv.ParseFloat(f[1], 64)
				if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
					msg = fmt.Sprintf("not a number: %q", f[1])
					break
				}
				if f[0] == "v" {
					c.V = x
				} else {
					c.W = x
				}
				cmd.set(c)
			default:
				msg = fmt.Sprintf("unknown command %q", line)
			}
			render(io.out, r, cmd.get(), msg)
		case <-tk.C:
			render(io.out, r, cmd.get(), msg)
		}
	}
}

func render(out io.Writer, r *furbotRun, cmd furbotcontrol.Twist, msg string) {
	s, _ := r.bridge.Latest()
	st := &s.Status
	var b strings.Builder
	b.WriteString("\x1b[H\x1b[2J")
	fmt.Fprintf(&b, "telebridge furbot: vehicle %v%s, vehicle clock %.2f s, ready %v\n\n", r.vehicle,
		map[bool]string{true: " (embedded simulator)", false: ""}[r.sim != nil], float64(st.Timestamp)/1000, s.Ready)
	b.WriteString("subsystems:")
	for id := furbotwire.BlockID(0); id < furbotwire.NumBlocks; id++ {
		state, _ := st.BlockState(id)
		mark := "ok"
		if !st.Working(id) {
			mark = fmt.Sprintf("state %d", state)
		}
		fmt.Fprintf(&b, " %s:%s", id, mark)
	}
	l, rr := st.Traction.WheelRates()
	fmt.Fprintf(&b, "\ntraction: speed %6.3f m/s  wheels L %6.2f R %6.2f rad/s  throttle %5.1f %%  brake %5.1f %%  reverse %d  odometer %.2f m\n",
		st.Traction.SpeedMPS(), l, rr, float64(st.Traction.Throttle)/10, float64(st.Traction.Brake)/10, st.Traction.Reverse,
		float64(st.Traction.Odometer)*furbotwire.OdometerScale)
	fmt.Fprintf(&b, "steering: %6.2f deg (target %6.2f deg)\n", float64(st.Steering.Angle)/100, float64(st.Steering.Target)/100)
	fmt.Fprintf(&b, "battery:  %d %%  %.2f V  %.1f A  cells %d..%d degC\n", st.BMS.Charge,
		float64(st.BMS.Voltage)*furbotwire.VoltageScale, float64(st.BMS.Current)*furbotwire.CurrentScale, st.BMS.TempLo, st.BMS.TempHi)
	o := s.Odom
	fmt.Fprintf(&b, "odometry: x %7.3f m  y %7.3f m  yaw %6.3f rad  distance %7.3f m\n", o.Pose.X, o.Pose.Y, o.Pose.Yaw, o.Distance)
	if r.sim != nil {
		tr := r.sim.Truth()
		fmt.Fprintf(&b, "truth:    x %7.3f m  y %7.3f m  yaw %6.3f rad  distance %7.3f m\n", tr.X, tr.Y, tr.Yaw, tr.Distance)
	}
	out2 := s.Output
	fmt.Fprintf(&b, "command:  v %5.2f m/s  w %5.2f rad/s -> mode %v, reference %5.2f m/s, steer %6.2f deg, throttle %5.1f %%, brake %5.1f %%\n",
		cmd.V, cmd.W, out2.Mode, out2.Ref, out2.Steer*180/math.Pi, out2.Throttle*100, out2.Brake*100)
	fmt.Fprintf(&b, "frames:   %d used, %d invalid, %d foreign, %d dropped; %d control sent; loop late %v\n",
		s.Stats.Accepted, s.Stats.Invalid, s.Stats.Foreign, s.Stats.Dropped, s.Stats.ControlSent, s.Late.Round(time.Microsecond))
	b.WriteString("\nkeys (then Enter): v <m/s>  w <rad/s>  stop  e (emergency stop on/off)  q (quit)\n")
	if msg != "" {
		b.WriteString(msg + "\n")
	}
	_, _ = io.WriteString(out, b.String())
}
