package trainworld

import (
	"context"
	"fmt"
	"time"
)

// Stats are the world loop's figures.
type Stats struct {
	// SimTime is the simulated time [s]; Steps the physics steps (1 ms).
	SimTime float64
	Steps   uint64
	// Wall is the wall-clock time Run has run [s].
	Wall float64
	// RTF is the real-time factor over the last second of Run (simulated
	// time / wall time): 1 when the machine keeps up. Below 1 the loop
	// has dropped behind and runs slower than real time instead of
	// trying to catch up (which would spiral: each catch-up batch taking
	// longer than the time it covers).
	RTF float64
	// Dropped is the wall-clock time [s] the loop gave up simulating
	// because it was behind by more than MaxBatch.
	Dropped float64
	// StepCPU is the mean wall time of one physics step with its mirror
	// [s]; Busy the fraction of wall time spent stepping (the loop's
	// share of a core).
	StepCPU, Busy float64
}

// MaxBatch is the most simulated time one wake-up of Run catches up
// (20 steps of 1 ms): a loop further behind drops the rest, so a slow
// machine runs the world slower than real time rather than freezing.
const MaxBatch = 20 * time.Millisecond

// tick is how often Run wakes up to step (5 steps of 1 ms).
const tick = 5 * time.Millisecond

type loopStats struct {
	wall, dropped, busy float64
	rtf                 float64
	busySteps           uint64
}

// Step advances the world by n fixed steps of 1 ms (lock-step mode: the
// caller is the clock) and mirrors the bodies' poses.
func (w *World) Step(n int) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.stepLocked(n)
}

func (w *World) stepLocked(n int) error {
	if w.closed {
		return fmt.Errorf("trainworld: step: world closed")
	}
	if err := w.phys.Step(n); err != nil {
		return fmt.Errorf("trainworld: %w", err)
	}
	return w.mirror()
}

// mirror copies the dynamic bodies' poses into the ray-casting scene and
// the rendered scene. Called with w.mu held.
func (w *World) mirror() error {
	for i := range w.dynamic {
		d := &w.dynamic[i]
		p, err := d.body.Pose()
		if err != nil {
			return fmt.Errorf("trainworld: body %q: %w", d.body.Name(), err)
		}
		d.pose = toGeom(p)
		if err := w.ray.SetPose(d.index, d.pose); err != nil {
			return fmt.Errorf("trainworld: ray scene: %w", err)
		}
	}
	if w.view != nil {
		return w.view.mirror(w)
	}
	return nil
}

// Run steps the world in real time until ctx ends (then it returns nil):
// every 5 ms it runs the steps due since the start, at most MaxBatch of
// them; the rest is dropped and the world runs slower than real time
// (Stats.RTF, Stats.Dropped). A step error ends Run with it.
func (w *World) Run(ctx context.Context) error {
	t := time.NewTicker(tick)
	defer t.Stop()
	start := time.Now()
	var done time.Duration // simulated time Run has stepped
	var dropped time.Duration
	winStart, winSim := start, done
	for {
		select {
		case <-ctx.Done():
			return nil
		case now := <-t.C:
			due := now.Sub(start) - dropped - done
			if due > MaxBatch {
				dropped += due - MaxBatch
				due = MaxBatch
			}
			n := int(due / time.Millisecond)
			if n <= 0 {
				continue
			}
			t0 := time.Now()
			w.mu.Lock()
			err := w.stepLocked(n)
			t1 := time.Now()
			done += time.Duration(n) * time.Millisecond
			s := &w.stats
			s.busy += t1.Sub(t0).Seconds()
			s.busySteps += uint64(n)
			s.wall = t1.Sub(start).Seconds()
			s.dropped = dropped.Seconds()
			if win := t1.Sub(winStart); win >= time.Second {
				s.rtf = (done - winSim).Seconds() / win.Seconds()
				winStart, winSim = t1, done
			}
			w.mu.Unlock()
			if err != nil {
				return err
			}
		}
	}
}

// Stats returns the loop's figures.
func (w *World) Stats() Stats {
	w.mu.Lock()
	defer w.mu.Unlock()
	s := w.stats
	out := Stats{SimTime: w.phys.Time().Seconds(), Steps: w.phys.Steps(), Wall: s.wall, RTF: s.rtf, Dropped: s.dropped}
	if s.busySteps > 0 {
		out.StepCPU = s.busy / float64(s.busySteps)
	}
	if s.wall > 0 {
		out.Busy = s.busy / s.wall
	}
	return out
}
