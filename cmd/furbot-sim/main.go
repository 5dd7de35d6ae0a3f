// Command furbot-sim simulates a Furbot vehicle on UDP: it listens for
// control frames (port 18004 by default), steps a vehicle model at 100 Hz
// and sends a status frame every period to the bridge, which is the source
// of the control frames unless --status-to names it. It prints the true
// pose, speed and the latest control frame once a second (--print). Stop it with Ctrl-C.
//
// Usage:
//
//	furbot-sim [--listen :18004] [--status-to HOST:18003] [--startup 1s]
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/netip"
	"os"
	"os/signal"
	"syscall"
	"time"

	furbotsim "github.com/telebridge/telebridge/pkg/furbot/sim"
	furbotwire "github.com/telebridge/telebridge/pkg/furbot/wire"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	if err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(os.Stderr, "furbot-sim:", err)
		}
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string, out, errOut io.Writer) error {
	fs := flag.NewFlagSet("furbot-sim", flag.ContinueOnError)
	fs.SetOutput(errOut)
	listen := fs.String("listen", fmt.Sprintf(":%d", furbotwire.ControlPort), "UDP address for control frames")
	statusTo := fs.String("status-to", "", "send status frames to HOST:PORT (default: the source of the control frames)")
	startup := fs.Duration("startup", time.Second, "time until every subsystem runs")
	every := fs.Duration("print", time.Second, "print the true state this often (0: never)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	cfg := furbotsim.Config{Listen: *listen, Params: furbotsim.Params{StartupTime: startup.Seconds()}}
	if *statusTo != "" {
		ap, err := netip.ParseAddrPort(*statusTo)
		if err != nil {
			return fmt.Errorf("--status-to: %w", err)
		}
		cfg.StatusTo = ap
	}
	sim, err := furbotsim.New(cfg)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "furbot-sim: control frames on %v, 100 Hz\n", sim.Addr())
	done := make(chan error, 1)
	go func() { done <- sim.Run(ctx) }()
	var tick <-chan time.Time
	if *every > 0 {
		tk := time.NewTicker(*every)
		defer tk.Stop()
		tick = tk.C
	}
	for {
		select {
		case err := <-done:
			return err
		case <-tick:
			tr, st := sim.Truth(), sim.Stats()
			fmt.Fprintf(out, "t %7.2f s  x %8.3f m  y %8.3f m  yaw %7.3f rad  v %6.3f m/s  steer %6.3f rad  control frames %d (invalid %d)",
				tr.T, tr.X, tr.Y, tr.Yaw, tr.V, tr.Steer, st.Control.Accepted, st.Control.Malformed)
			if c, at, ok := sim.LastControl(); ok {
				// The latest frame as the vehicle got it: after a bridge
				// stops, its full-brake frames (flags 0, brake 1000).
				fmt.Fprintf(out, "  last control: throttle %d brake %d flags %d seq %d age %.2f s",
					c.Throttle, c.Brake, c.Flags, c.Seq, time.Since(at).Seconds())
			}
			fmt.Fprintln(out)
		}
	}
}
