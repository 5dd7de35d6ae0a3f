// Package rate runs a step function at a fixed period.
//
// Each deadline is scheduled from the previous deadline, not from when the
// step finished, so a loop at 100 Hz does 100 steps a second however long
// each step takes (as long as it takes less than a period). When a step
// overruns, the deadlines it missed are skipped, not replayed in a burst,
// and the next Tick reports how many were missed.
package rate

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// Tick describes one iteration of a loop run by Run.
type Tick struct {
	// Seq counts ticks from 0.
	Seq uint64
	// Deadline is when this tick was due (wall clock with monotonic reading).
	Deadline time.Time
	// Now is when the loop woke for this tick; Now.Sub(Deadline) is the
	// scheduling latency (jitter).
	Now time.Time
	// Missed is the number of periods skipped since the previous tick
	// because a step overran.
	Missed uint64
}

// Late returns how long after its deadline the tick started [s].
func (t Tick) Late() time.Duration { return t.Now.Sub(t.Deadline) }

// ErrPeriod is returned for a non-positive period.
var ErrPeriod = errors.New("rate: period must be positive")

// Run calls step once per period until ctx is cancelled or step returns an
// error. The first tick is due one period after Run starts. Run returns
// ctx.Err() after cancellation, or step's error wrapped. It allocates
// nothing per tick and is meant to own its goroutine.
func Run(ctx context.Context, period time.Duration, step func(Tick) error) error {
	if period <= 0 {
		return ErrPeriod
	}
	timer := time.NewTimer(period)
	defer timer.Stop()
	next := time.Now().Add(period)
	var seq, missed uint64
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-timer.C:
		}
		// Both may be ready; select picks at random, and a cancelled
		// context must never see another step.
		if err := ctx.Err(); err != nil {
			return err
		}
		now := time.Now()
		if err := step(Tick{Seq: seq, Deadline: next, Now: now, Missed: missed}); err != nil {
			return fmt.Errorf("rate: step %d: %w", seq, err)
		}
		seq++
		next = next.Add(period)
		missed = 0
		if after := time.Now(); !after.Before(next) {
			// Overran: skip to the first deadline still in the future.
			skip := uint64(after.Sub(next)/period) + 1
			next = next.Add(time.Duration(skip) * period)
			missed = skip
		}
		timer.Reset(time.Until(next))
	}
}

// Hz converts a frequency [Hz] to a period. It returns ErrPeriod for a
// frequency that is not positive and finite.
func Hz(f float64) (time.Duration, error) {
	if !(f > 0) || f > 1e9 {
		return 0, fmt.Errorf("%w: frequency %g Hz", ErrPeriod, f)
	}
	return time.Duration(float64(time.Second) / f), nil
}
