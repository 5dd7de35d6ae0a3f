// Command servosila-sim runs a simulated Servosila Engineer vendor server
// on UDP, for driving the telebridge driver (or any client of the
// protocol) without a robot.
//
// Usage:
//
//	servosila-sim [-listen 127.0.0.1:10000] [-telemetry-rate 1] [-link-timeout 1s] [-russian]
//
// It prints the true state once a second until interrupted.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	servosilasim "github.com/telebridge/telebridge/pkg/servosila/sim"
	servosilawire "github.com/telebridge/telebridge/pkg/servosila/wire"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "servosila-sim:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string, out, errOut io.Writer) error {
	fs := flag.NewFlagSet("servosila-sim", flag.ContinueOnError)
	fs.SetOutput(errOut)
	listen := fs.String("listen", "127.0.0.1:10000", "UDP address to listen on")
	telRate := fs.Float64("telemetry-rate", 1, "telemetry packets per second")
	linkTimeout := fs.Duration("link-timeout", time.Second, "stop everything after this long without packets")
	russian := fs.Bool("russian", false, "use the Russian paper's calibration (72021.739 / 24000) instead of the English one")
	every := fs.Duration("print", time.Second, "state print interval (0: never)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	cfg := servosilasim.Config{Listen: *listen, TelemetryRate: *telRate, LinkTimeout: *linkTimeout}
	if *russian {
		cal := servosilawire.RussianCalibration()
		cfg.Calibration = &cal
	}
	sim, err := servosilasim.New(cfg)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "servosila-sim listening on %s\n", sim.Addr())
	done := make(chan error, 1)
	go func() { done <- sim.Run(ctx) }()
	if *every > 0 {
		t := time.NewTicker(*every)
		defer t.Stop()
		for {
			select {
			case err := <-done:
				return err
			case <-t.C:
				s := sim.State()
				fmt.Fprintf(out, "link %-5v x %+.3f m  y %+.3f m  yaw %+.3f rad  v %+.3f m/s  w %+.3f rad/s  waist %+.3f shoulder %+.3f elbow %+.3f neck %+.3f rad  packets %d\n",
					s.LinkUp, s.Pose.X, s.Pose.Y, s.Pose.Yaw, s.Linear, s.Angular,
					s.Joints[servosilawire.Waist], s.Joints[servosilawire.Shoulder], s.Joints[servosilawire.Elbow], s.Joints[servosilawire.Neck], s.Packets)
			}
		}
	}
	return <-done
}
