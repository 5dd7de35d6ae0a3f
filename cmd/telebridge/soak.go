package main

// telebridge soak: the flags of the long-run check; the rig, its report
// and its judgement are internal/soak's.

import (
	"context"
	"fmt"
	"time"

	"github.com/telebridge/telebridge/internal/soak"
)

func init() {
	register(command{
		name:    "soak",
		summary: "run the Servosila and Furbot stacks against their simulators through an impaired link for a long time; fail on growth or missed ticks",
		run:     runSoak,
	})
}

func runSoak(ctx context.Context, args []string, io stdio) error {
	fs := newFlagSet("soak", io)
	var o soak.Options
	fs.DurationVar(&o.Duration, "duration", time.Minute, "how long to run")
	fs.DurationVar(&o.Every, "every", time.Minute, "report interval")
	fs.Uint64Var(&o.Seed, "seed", 1, "seed of the link impairment")
	fs.Float64Var(&o.Link.Loss, "loss", 0.05, "independent loss, each direction [0, 1]")
	fs.DurationVar(&o.Link.Jitter, "jitter", 10*time.Millisecond, "uniform delay jitter, each direction")
	fs.DurationVar(&o.Link.Delay, "delay", 2*time.Millisecond, "fixed delay, each direction")
	fs.Float64Var(&o.Link.Duplicate, "dup", 0.01, "duplicate probability, each direction")
	fs.Float64Var(&o.Link.Reorder, "reorder", 0.01, "reorder probability, each direction")
	fs.DurationVar(&o.Blackout, "blackout", 2*time.Second, "length of each blackout (both directions, both machines)")
	fs.DurationVar(&o.BlackoutEvery, "blackout-every", 0, "interval between blackouts (0: none)")
	fs.Float64Var(&o.MaxMissed, "max-missed", 0.05, "fail when missed control ticks exceed this share of the ticks")
	fs.DurationVar(&o.MaxGap, "max-gap", 200*time.Millisecond, "fail when two furbot control frames are further apart than this (the vehicle brakes after 250 ms)")
	fs.Float64Var(&o.MaxHeapGrowth, "max-heap-growth", 4<<20, "fail when the live heap of the last third of the samples exceeds that of the first third by more than this [bytes]")
	fs.IntVar(&o.MaxGoroutineGrowth, "max-goroutine-growth", 2, "fail when the goroutine count at the end exceeds the first sample by more than this")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		return fmt.Errorf("%w: unexpected argument %q", errUsage, fs.Arg(0))
	}
	if err := o.Check(); err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	return soak.Run(ctx, o, io.out)
}
