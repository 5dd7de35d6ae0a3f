package furbot

import (
	"context"
	"time"

	"github.com/telebridge/telebridge/pkg/rate"
)

// Lockstep drives a periodic step function on request instead of from a
// timer: the goroutine in Run owns the step's state, and Step asks it for
// one period and waits. It is the Manual mode of Bridge and of the
// simulator, so that closed-loop tests run period by period over real
// sockets, independent of how loaded the machine is. Create it with
// NewLockstep.
type Lockstep struct {
	req chan chan error
}

// NewLockstep returns a Lockstep ready for Run and Step.
func NewLockstep() Lockstep { return Lockstep{req: make(chan chan error)} }

// Run calls step once per Step request, with a Tick stamped clock(), until
// ctx ends; it returns ctx.Err().
func (l Lockstep) Run(ctx context.Context, clock func() time.Time, step func(rate.Tick) error) error {
	for seq := uint64(0); ; seq++ {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case done := <-l.req:
			now := clock()
			done <- step(rate.Tick{Seq: seq, Deadline: now, Now: now})
		}
	}
}

// Step requests one period from Run and returns the step's error. It may
// be called from any goroutine, one call at a time.
func (l Lockstep) Step(ctx context.Context) error {
	done := make(chan error, 1)
	select {
	case <-ctx.Done():
		return ctx.Err()
	case l.req <- done:
	}
	select {
	case <-ctx.Done():
		return ctx.Err()
	case err := <-done:
		return err
	}
}
