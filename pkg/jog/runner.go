package jog

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/telebridge/telebridge/pkg/rate"
)

// Runner drives a Controller in real time: every 1/update_rate it reads
// the joints from a JointSource, steps the controller with the wall clock
// and writes the target to an Output. It serialises the writes of the loop
// and of Stop.
type Runner struct {
	ctrl *Controller
	src  JointSource
	out  Output

	mu     sync.Mutex // serialises out writes
	q      []float64
	stats  RunnerStats
	moving bool         // the controller was not idle after the last tick
	onEnd  func(Status) // called when a motion has come to rest
}

// RunnerStats counts what the loop saw.
type RunnerStats struct {
	Ticks, Missed  uint64 // loop iterations, and periods skipped by overruns
	SourceErrors   uint64 // failed joint reads
	StepErrors     uint64 // motions ended by an error
	OutputErrors   uint64 // failed writes
	Written, Holds uint64 // targets written, and hold targets among them
}

// NewRunner returns a runner; it does nothing until Run.
func NewRunner(ctrl *Controller, src JointSource, out Output) (*Runner, error) {
	if ctrl == nil || src == nil || out == nil {
		return nil, errors.New("jog: new runner: nil controller, source or output")
	}
	if _, ok := out.(RelativeOutput); ctrl.cfg.Relative && !ok {
		return nil, fmt.Errorf("jog: new runner: the controller sends relative commands (Config.Relative): %w", ErrRelativeOutput)
	}
	return &Runner{ctrl: ctrl, src: src, out: out, q: make([]float64, ctrl.chain.DOF())}, nil
}

// OnMotionEnd sets f to be called, from the loop, each time a motion has
// come to rest, with the controller's status (its Reason says why the
// motion ended: "goal reached", "heartbeat timeout", a stop...). Set it
// before Run; f must not block.
func (r *Runner) OnMotionEnd(f func(Status)) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.onEnd = f
}

// Run loops until ctx is cancelled, then stops the motion, writes the
// hold target and returns ctx.Err(). It owns its goroutine.
func (r *Runner) Run(ctx context.Context) error {
	err := rate.Run(ctx, r.ctrl.Period(), func(t rate.Tick) error {
		r.tick(t.Now, t.Deadline, t.Missed)
		return nil
	})
	if _, herr := r.Stop(time.Now()); herr != nil {
		return errors.Join(err, herr)
	}
	return err
}

// tick runs one cycle at now. The target's Stamp is the tick's deadline:
// the profile advances one period a tick, so its points, due one and two
// periods after the deadline, keep the loop's schedule even when a tick
// wakes late.
func (r *Runner) tick(now, deadline time.Time, missed uint64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.stats.Ticks++
	r.stats.Missed += missed
	if at, err := r.src.JointPositions(r.q); err != nil {
		r.stats.SourceErrors++
	} else if err := r.ctrl.UpdateJointState(r.q, at); err != nil {
		r.stats.SourceErrors++
	}
	t, ok, err := r.ctrl.Step(now)
	if err != nil {
		r.stats.StepErrors++
	}
	if ok {
		t.Stamp = deadline
		r.write(t)
	}
	r.noteRest()
}

// noteRest calls the motion-end hook when the controller has just come to
// rest. Without a hook the status is not read.
func (r *Runner) noteRest() {
	if r.onEnd == nil {
		return
	}
	st := r.ctrl.Status()
	idle := st.Mode == Idle
	if r.moving && idle {
		r.onEnd(st)
	}
	r.moving = !idle
}

// write sends a target. If the output refuses it (an e-stop latched, a
// dead link), the motion is aborted: nothing more is sent until the next
// start, which begins from the measured joints, so the arm never gets the
// rest of a motion it did not follow.
func (r *Runner) write(t JointTarget) {
	if err := Write(r.out, t); err != nil {
		r.stats.OutputErrors++
		r.ctrl.Abort(fmt.Sprintf("output refused a target: %v", err))
		return
	}
	r.stats.Written++
	if t.Hold {
		r.stats.Holds++
	}
}

// Stop stops the motion and writes the hold target at once (the stop
// service): it reads the joints first so that the hold is the freshest
// measured position. It reports whether a hold was written.
func (r *Runner) Stop(now time.Time) (bool, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if at, err := r.src.JointPositions(r.q); err == nil {
		_ = r.ctrl.UpdateJointState(r.q, at) // on error the last state is held
	}
	t, ok := r.ctrl.Stop(now)
	if !ok {
		return false, nil
	}
	if err := Write(r.out, t); err != nil {
		r.stats.OutputErrors++
		return false, fmt.Errorf("jog: stop: write hold: %w", err)
	}
	r.stats.Written++
	r.stats.Holds++
	return true, nil
}

// Stats returns the loop counters.
func (r *Runner) Stats() RunnerStats {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.stats
}
