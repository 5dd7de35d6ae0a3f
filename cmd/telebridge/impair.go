package main

import (
	"context"
	"fmt"
	"net/netip"
	"time"

	"github.com/telebridge/telebridge/pkg/impair"
)

func init() {
	register(command{
		name:    "impair",
		summary: "a UDP impairment proxy between a driver and a robot or simulator (loss, bursts, jitter, duplicates, reordering, corruption, blackouts)",
		run:     runImpair,
	})
}

// runImpair runs pkg/impair as a standalone proxy, with the same
// impairment in both directions, printing the counters every --every.
func runImpair(ctx context.Context, args []string, io stdio) error {
	fs := newFlagSet("impair", io)
	listen := fs.String("listen", "127.0.0.1:0", "address the driver sends to (in place of the robot's)")
	upstream := fs.String("upstream", "", "the robot's or simulator's address HOST:PORT (required)")
	seed := fs.Uint64("seed", 1, "seed of the decisions")
	every := fs.Duration("every", 5*time.Second, "counter report interval")
	var im impair.Impairment
	var burstP, burstR float64
	var blackAt, blackFor time.Duration
	fs.Float64Var(&im.Loss, "loss", 0, "independent loss [0, 1]")
	fs.Float64Var(&burstP, "burst-p", 0, "Gilbert-Elliott good->bad probability per packet (0: no burst loss)")
	fs.Float64Var(&burstR, "burst-r", 0.3, "Gilbert-Elliott bad->good probability per packet (mean burst 1/r)")
	fs.DurationVar(&im.Delay, "delay", 0, "fixed delay")
	fs.DurationVar(&im.Jitter, "jitter", 0, "uniform extra delay in [0, jitter)")
	fs.Float64Var(&im.Duplicate, "dup", 0, "duplicate probability")
	fs.Float64Var(&im.Reorder, "reorder", 0, "probability of holding a packet back by --reorder-delay")
	fs.DurationVar(&im.ReorderDelay, "reorder-delay", 20*time.Millisecond, "hold-back of a reordered packet")
	fs.Float64Var(&im.Truncate, "truncate", 0, "truncation probability")
	fs.Float64Var(&im.BitFlip, "flip", 0, "probability of a bit flip")
	fs.DurationVar(&blackAt, "blackout-at", 0, "start of a blackout of both directions, after the start")
	fs.DurationVar(&blackFor, "blackout", 0, "length of that blackout (0: none)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	up, err := netip.ParseAddrPort(*upstream)
	if err != nil {
		return fmt.Errorf("%w: --upstream: %v", errUsage, err)
	}
	if *every <= 0 {
		return fmt.Errorf("%w: --every must be positive", errUsage)
	}
	if burstP > 0 {
		im.Burst = &impair.GilbertElliott{P: burstP, R: burstR, LossBad: 1}
	}
	if blackFor > 0 {
		im.Blackouts = []impair.Window{{From: blackAt, To: blackAt + blackFor}}
	}
	if err := im.Validate(); err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	p, err := impair.New(impair.Config{Listen: *listen, Upstream: up, Seed: *seed, Up: im, Down: im})
	if err != nil {
		return err
	}
	fmt.Fprintf(io.out, "impair: send to %v instead of %v (the robot sees %v); seed %d\n", p.Addr(), up, p.UpstreamAddr(), *seed)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- p.Run(ctx) }()
	tk := time.NewTicker(*every)
	defer tk.Stop()
	for {
		select {
		case err := <-done:
			return err
		case <-ctx.Done():
			return <-done
		case <-tk.C:
			for _, d := range []impair.Direction{impair.Up, impair.Down} {
				s := p.Stats(d)
				fmt.Fprintf(io.out, "  %-4s received %d sent %d lost %d (random %d burst %d blackout %d) dup %d reordered %d truncated %d corrupted %d\n",
					d, s.Received, s.Sent, s.Lost(), s.LostRandom, s.LostBurst, s.Blackout, s.Duplicated, s.Reordered, s.Truncated, s.Corrupted)
			}
		}
	}
}
