package soak

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/telebridge/telebridge/pkg/furbot"
	furbotcontrol "github.com/telebridge/telebridge/pkg/furbot/control"
	furbotsim "github.com/telebridge/telebridge/pkg/furbot/sim"
	"github.com/telebridge/telebridge/pkg/impair"
	"github.com/telebridge/telebridge/pkg/servosila"
	servosilasim "github.com/telebridge/telebridge/pkg/servosila/sim"
)

// Options are a soak's duration, link and bounds.
type Options struct {
	// Duration is how long the soak runs, Every the report interval
	// (0 < Every <= Duration).
	Duration, Every time.Duration
	// Seed seeds the link impairment (the Servosila's link takes Seed+1).
	Seed uint64
	// Link is the impairment of each direction of both machines' links.
	Link impair.Impairment
	// Blackout is the length of each blackout (both directions, both
	// machines), BlackoutEvery the interval between them (0: none).
	Blackout, BlackoutEvery time.Duration
	// MaxMissed bounds the missed Furbot control ticks and the Servosila
	// packets behind schedule, each as a share of its own [0, 1].
	MaxMissed float64
	// MaxGap bounds the longest interval between two Furbot control
	// frames (the vehicle brakes after 250 ms).
	MaxGap time.Duration
	// MaxHeapGrowth bounds the live heap growth from the first third of
	// the samples to the last [bytes].
	MaxHeapGrowth float64
	// MaxGoroutineGrowth bounds the goroutine count at the end over the
	// first sample.
	MaxGoroutineGrowth int
}

// Check returns an error unless o's duration, interval and link are
// usable.
func (o Options) Check() error {
	if o.Duration <= 0 || o.Every <= 0 || o.Every > o.Duration {
		return fmt.Errorf("soak: need 0 < every (--every, %v) <= duration (--duration, %v)", o.Every, o.Duration)
	}
	if err := o.Link.Validate(); err != nil {
		return fmt.Errorf("soak: %w", err)
	}
	return nil
}

// sample is one report line.
type sample struct {
	at         time.Duration
	rss, heap  uint64 // [bytes]; heap is the live heap after a GC
	goroutines int
	furbotTick uint64        // furbot control frames sent
	furbotMiss uint64        // furbot loop periods missed
	furbotGap  time.Duration // longest interval between two furbot control ticks so far
	servoSent  uint64        // servosila packets sent
	servoMiss  uint64        // servosila packets behind the schedule
}

// rig is the two stacks, each through its own proxy.
type rig struct {
	fsim   *furbotsim.Sim
	fproxy *impair.Proxy
	bridge *furbot.Bridge
	ssim   *servosilasim.Sim
	sproxy *impair.Proxy
	drv    *servosila.Driver
	maxGap atomic.Int64 // longest interval between two bridge ticks [ns]
}

// Run runs the Servosila and Furbot stacks (driver and bridge) against
// their simulators, each through an impairment proxy, for o.Duration,
// driving both in a repeating pattern; it writes a report line to out
// every o.Every and judges the samples at the end: an error when the
// live heap or the goroutine count grew, or control ticks were missed,
// beyond o's bounds (or when a part of the rig failed). All sockets are
// on loopback.
func Run(ctx context.Context, o Options, out io.Writer) error {
	if err := o.Check(); err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	// Simulators and proxies outlive the drivers, so that they see the
	// drivers' stop packets.
	simCtx, simCancel := context.WithCancel(context.WithoutCancel(ctx))
	var simWG sync.WaitGroup
	defer func() { cancel(); wg.Wait(); simCancel(); simWG.Wait() }()
	start := func(wg *sync.WaitGroup, ctx context.Context, name string, f func(context.Context) error) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := f(ctx); err != nil {
				errs <- fmt.Errorf("%s: %w", name, err)
			}
		}()
	}

	var r rig
	var err error
	if r.fsim, err = furbotsim.New(furbotsim.Config{Params: furbotsim.Params{StartupTime: 0.5}}); err != nil {
		return err
	}
	if r.fproxy, err = impair.New(impair.Config{Upstream: r.fsim.Addr(), Seed: o.Seed, Up: o.Link, Down: o.Link}); err != nil {
		return err
	}
	var prev time.Time
	onSnap := func(s *furbot.Snapshot) { // loop goroutine: prev is its own
		if !prev.IsZero() {
			if gap := int64(s.Stamp.Sub(prev)); gap > r.maxGap.Load() {
				r.maxGap.Store(gap)
			}
		}
		prev = s.Stamp
	}
	if r.bridge, err = furbot.NewBridge(furbot.BridgeConfig{Listen: "127.0.0.1:0", Vehicle: r.fproxy.Addr(), OnSnapshot: onSnap}); err != nil {
		return err
	}
	if r.ssim, err = servosilasim.New(servosilasim.Config{}); err != nil {
		return err
	}
	if r.sproxy, err = impair.New(impair.Config{Upstream: r.ssim.Addr(), Seed: o.Seed + 1, Up: o.Link, Down: o.Link}); err != nil {
		return err
	}
	if r.drv, err = servosila.New(servosila.Config{Robot: r.sproxy.Addr().String(), Local: "127.0.0.1:0"}); err != nil {
		return err
	}
	start(&simWG, simCtx, "furbot simulator", r.fsim.Run)
	start(&simWG, simCtx, "furbot link", r.fproxy.Run)
	start(&simWG, simCtx, "servosila simulator", r.ssim.Run)
	start(&simWG, simCtx, "servosila link", r.sproxy.Run)
	began := time.Now()
	start(&wg, ctx, "furbot bridge", r.bridge.Run)
	start(&wg, ctx, "servosila driver", r.drv.Run)
	start(&wg, ctx, "commands", func(ctx context.Context) error { return r.command(ctx, began, o) })

	fmt.Fprintf(out, "soak: %v, report every %v, link each way: loss %.3g, delay %v + jitter %v, dup %.3g, reorder %.3g, seed %d",
		o.Duration, o.Every, o.Link.Loss, o.Link.Delay, o.Link.Jitter, o.Link.Duplicate, o.Link.Reorder, o.Seed)
	if o.BlackoutEvery > 0 {
		fmt.Fprintf(out, ", blackout %v every %v", o.Blackout, o.BlackoutEvery)
	}
	fmt.Fprintln(out)
	fmt.Fprintln(out, "  time     rss_MiB heap_MiB gorout | furbot ticks missed max_gap  up_lost/recv  down_lost/recv  stale resync odom_err_m | servosila sent behind up_lost/recv down_lost/recv truth_m")

	var samples []sample
	tk := time.NewTicker(o.Every)
	defer tk.Stop()
	end := time.NewTimer(o.Duration)
	defer end.Stop()
	var runErr error
loop:
	for {
		select {
		case <-ctx.Done():
			runErr = ctx.Err()
			break loop
		case err := <-errs:
			runErr = err
			break loop
		case <-end.C:
			break loop
		case <-tk.C:
			s := r.sample(time.Since(began))
			samples = append(samples, s)
			r.print(out, s)
		}
	}
	cancel()
	wg.Wait()
	simCancel()
	simWG.Wait()
	select {
	case err := <-errs:
		runErr = errors.Join(runErr, err)
	default:
	}
	if runErr != nil {
		return runErr
	}
	return judge(out, samples, o)
}

// command drives both machines in a repeating pattern and switches the
// blackouts.
func (r *rig) command(ctx context.Context, began time.Time, o Options) error {
	tk := time.NewTicker(50 * time.Millisecond)
	defer tk.Stop()
	var nextBlack time.Time
	if o.BlackoutEvery > 0 {
		nextBlack = began.Add(o.BlackoutEvery)
	}
	var blackEnd time.Time
	for {
		select {
		case <-ctx.Done():
			return nil
		case now := <-tk.C:
			t := now.Sub(began).Seconds()
			// Furbot: 20 s on a wide circle, 5 s stop.
			fc := furbotcontrol.Twist{}
			if p := mod(t, 25); p < 20 {
				fc = furbotcontrol.Twist{V: 1.5, W: 0.1}
			}
			if err := r.bridge.SetCommand(fc); err != nil {
				return err
			}
			// Servosila: 8 s forward, 4 s turn, 3 s stop.
			var lin, ang float64
			switch p := mod(t, 15); {
			case p < 8:
				lin = 0.3
			case p < 12:
				ang = 0.5
			}
			if err := r.drv.SetTwist(lin, ang); err != nil {
				return err
			}
			if !nextBlack.IsZero() && now.After(nextBlack) {
				r.blackout(true)
				blackEnd, nextBlack = now.Add(o.Blackout), nextBlack.Add(o.BlackoutEvery)
			}
			if !blackEnd.IsZero() && now.After(blackEnd) {
				r.blackout(false)
				blackEnd = time.Time{}
			}
		}
	}
}

func mod(x, m float64) float64 { return x - m*float64(int(x/m)) }

func (r *rig) blackout(on bool) {
	for _, p := range []*impair.Proxy{r.fproxy, r.sproxy} {
		p.SetBlackout(impair.Up, on)
		p.SetBlackout(impair.Down, on)
	}
}

func (r *rig) sample(at time.Duration) sample {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	fb := r.bridge.Stats()
	st := r.drv.Status()
	expected := uint64(at.Seconds() * r.drv.Config().SendRate)
	var behind uint64
	if expected > st.Sent+1 { // one packet of slack for the phase of the loop
		behind = expected - st.Sent - 1
	}
	return sample{at: at, rss: rss(), heap: ms.HeapAlloc, goroutines: runtime.NumGoroutine(),
		furbotTick: fb.ControlSent, furbotMiss: fb.MissedTicks, furbotGap: time.Duration(r.maxGap.Load()),
		servoSent: st.Sent, servoMiss: behind}
}

func (r *rig) print(out io.Writer, s sample) {
	const mib = 1 << 20
	fu, fd := r.fproxy.Stats(impair.Up), r.fproxy.Stats(impair.Down)
	su, sd := r.sproxy.Stats(impair.Up), r.sproxy.Stats(impair.Down)
	fb := r.bridge.Stats()
	var odomErr float64
	if snap, ok := r.bridge.Latest(); ok {
		odomErr = snap.Odom.Distance - r.fsim.Truth().Distance
	}
	fmt.Fprintf(out, "  %-8v %7.1f %8.2f %6d | %12d %6d %7.0fms %6d/%-7d %6d/%-7d %6d %6d %+10.3f | %14d %6d %6d/%-6d %6d/%-6d %7.1f\n",
		s.at.Round(time.Second), float64(s.rss)/mib, float64(s.heap)/mib, s.goroutines,
		s.furbotTick, s.furbotMiss, float64(s.furbotGap)/float64(time.Millisecond), fu.Lost(), fu.Received, fd.Lost(), fd.Received, fb.Dropped, fb.Resyncs, odomErr,
		s.servoSent, s.servoMiss, su.Lost(), su.Received, sd.Lost(), sd.Received, r.ssim.State().Distance)
}
