package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"strconv"
	"strings"
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

func init() {
	register(command{
		name:    "soak",
		summary: "run the Servosila and Furbot stacks against their simulators through an impaired link for a long time; fail on growth or missed ticks",
		run:     runSoak,
	})
}

// soakOptions are the flags of telebridge soak.
type soakOptions struct {
	duration, every  time.Duration
	seed             uint64
	link             impair.Impairment
	blackout         time.Duration // length of each switched blackout
	blackoutEvery    time.Duration // 0: none
	maxMissed        float64       // bound on missed control ticks / ticks
	maxGap           time.Duration // bound on the longest interval between two furbot control frames
	maxHeapGrowth    float64       // bound on live heap growth [bytes]
	maxGoroutineGrow int           // bound on goroutine growth
}

func runSoak(ctx context.Context, args []string, io stdio) error {
	fs := newFlagSet("soak", io)
	var o soakOptions
	fs.DurationVar(&o.duration, "duration", time.Minute, "how long to run")
	fs.DurationVar(&o.every, "every", time.Minute, "report interval")
	fs.Uint64Var(&o.seed, "seed", 1, "seed of the link impairment")
	fs.Float64Var(&o.link.Loss, "loss", 0.05, "independent loss, each direction [0, 1]")
	fs.DurationVar(&o.link.Jitter, "jitter", 10*time.Millisecond, "uniform delay jitter, each direction")
	fs.DurationVar(&o.link.Delay, "delay", 2*time.Millisecond, "fixed delay, each direction")
	fs.Float64Var(&o.link.Duplicate, "dup", 0.01, "duplicate probability, each direction")
	fs.Float64Var(&o.link.Reorder, "reorder", 0.01, "reorder probability, each direction")
	fs.DurationVar(&o.blackout, "blackout", 2*time.Second, "length of each blackout (both directions, both machines)")
	fs.DurationVar(&o.blackoutEvery, "blackout-every", 0, "interval between blackouts (0: none)")
	fs.Float64Var(&o.maxMissed, "max-missed", 0.05, "fail when missed control ticks exceed this share of the ticks")
	fs.DurationVar(&o.maxGap, "max-gap", 200*time.Millisecond, "fail when two furbot control frames are further apart than this (the vehicle brakes after 250 ms)")
	fs.Float64Var(&o.maxHeapGrowth, "max-heap-growth", 4<<20, "fail when the live heap of the last third of the samples exceeds that of the first third by more than this [bytes]")
	fs.IntVar(&o.maxGoroutineGrow, "max-goroutine-growth", 2, "fail when the goroutine count at the end exceeds the first sample by more than this")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		return fmt.Errorf("%w: unexpected argument %q", errUsage, fs.Arg(0))
	}
	if o.duration <= 0 || o.every <= 0 || o.every > o.duration {
		return fmt.Errorf("%w: need 0 < --every <= --duration", errUsage)
	}
	if err := o.link.Validate(); err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	return soak(ctx, o, io.out)
}

// soakSample is one report line.
type soakSample struct {
	at         time.Duration
	rss, heap  uint64 // [bytes]; heap is the live heap after a GC
	goroutines int
	furbotTick uint64        // furbot control frames sent
	furbotMiss uint64        // furbot loop periods missed
	furbotGap  time.Duration // longest interval between two furbot control ticks so far
	servoSent  uint64        // servosila packets sent
	servoMiss  uint64        // servosila packets behind the schedule
}

// soakRig is the two stacks, each through its own proxy.
type soakRig struct {
	fsim   *furbotsim.Sim
	fproxy *impair.Proxy
	bridge *furbot.Bridge
	ssim   *servosilasim.Sim
	sproxy *impair.Proxy
	drv    *servosila.Driver
	maxGap atomic.Int64 // longest interval between two bridge ticks [ns]
}

func soak(ctx context.Context, o soakOptions, out io.Writer) error {
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

	var r soakRig
	var err error
	if r.fsim, err = furbotsim.New(furbotsim.Config{Params: furbotsim.Params{StartupTime: 0.5}}); err != nil {
		return err
	}
	if r.fproxy, err = impair.New(impair.Config{Upstream: r.fsim.Addr(), Seed: o.seed, Up: o.link, Down: o.link}); err != nil {
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
	if r.sproxy, err = impair.New(impair.Config{Upstream: r.ssim.Addr(), Seed: o.seed + 1, Up: o.link, Down: o.link}); err != nil {
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
		o.duration, o.every, o.link.Loss, o.link.Delay, o.link.Jitter, o.link.Duplicate, o.link.Reorder, o.seed)
	if o.blackoutEvery > 0 {
		fmt.Fprintf(out, ", blackout %v every %v", o.blackout, o.blackoutEvery)
	}
	fmt.Fprintln(out)
	fmt.Fprintln(out, "  time     rss_MiB heap_MiB gorout | furbot ticks missed max_gap  up_lost/recv  down_lost/recv  stale resync odom_err_m | servosila sent behind up_lost/recv down_lost/recv truth_m")

	var samples []soakSample
	tk := time.NewTicker(o.every)
	defer tk.Stop()
	end := time.NewTimer(o.duration)
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
	return judgeSoak(out, samples, o)
}

// command drives both machines in a repeating pattern and switches the
// blackouts.
func (r *soakRig) command(ctx context.Context, began time.Time, o soakOptions) error {
	tk := time.NewTicker(50 * time.Millisecond)
	defer tk.Stop()
	var nextBlack time.Time
	if o.blackoutEvery > 0 {
		nextBlack = began.Add(o.blackoutEvery)
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
				blackEnd, nextBlack = now.Add(o.blackout), nextBlack.Add(o.blackoutEvery)
			}
			if !blackEnd.IsZero() && now.After(blackEnd) {
				r.blackout(false)
				blackEnd = time.Time{}
			}
		}
	}
}

func mod(x, m float64) float64 { return x - m*float64(int(x/m)) }

func (r *soakRig) blackout(on bool) {
	for _, p := range []*impair.Proxy{r.fproxy, r.sproxy} {
		p.SetBlackout(impair.Up, on)
		p.SetBlackout(impair.Down, on)
	}
}

func (r *soakRig) sample(at time.Duration) soakSample {
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
	return soakSample{at: at, rss: rss(), heap: ms.HeapAlloc, goroutines: runtime.NumGoroutine(),
		furbotTick: fb.ControlSent, furbotMiss: fb.MissedTicks, furbotGap: time.Duration(r.maxGap.Load()),
		servoSent: st.Sent, servoMiss: behind}
}

func (r *soakRig) print(out io.Writer, s soakSample) {
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

// judgeSoak applies the growth and missed-tick bounds to the samples.
// Growth: the mean live heap of the last third of the samples against the
// first third (the first sample is warm-up and left out when there are
// enough), and the goroutine count of the last sample against the first.
func judgeSoak(out io.Writer, samples []soakSample, o soakOptions) error {
	if len(samples) < 3 {
		return fmt.Errorf("soak: only %d samples, need 3 (raise --duration or lower --every)", len(samples))
	}
	s := samples
	if len(s) >= 6 {
		s = s[1:]
	}
	third := len(s) / 3
	mean := func(xs []soakSample) float64 {
		var sum float64
		for _, x := range xs {
			sum += float64(x.heap)
		}
		return sum / float64(len(xs))
	}
	first, last := mean(s[:third]), mean(s[len(s)-third:])
	g0, g1 := s[0].goroutines, s[len(s)-1].goroutines
	end := samples[len(samples)-1]
	missed := float64(end.furbotMiss) / float64(max(end.furbotTick, 1))
	behind := float64(end.servoMiss) / float64(max(end.servoSent, 1))
	fmt.Fprintf(out, "soak: live heap %.2f MiB (first third) -> %.2f MiB (last third), growth %+.0f B (bound %.0f B); goroutines %d -> %d (bound +%d); furbot missed %d of %d ticks (%.4f %%), longest control interval %v (bound %v), servosila %d packets behind of %d (%.4f %%) (bound %.2f %%)\n",
		first/(1<<20), last/(1<<20), last-first, o.maxHeapGrowth, g0, g1, o.maxGoroutineGrow,
		end.furbotMiss, end.furbotTick, 100*missed, end.furbotGap.Round(time.Millisecond), o.maxGap, end.servoMiss, end.servoSent, 100*behind, 100*o.maxMissed)
	var fails []string
	if last-first > o.maxHeapGrowth {
		fails = append(fails, fmt.Sprintf("live heap grew by %.0f B", last-first))
	}
	if g1-g0 > o.maxGoroutineGrow {
		fails = append(fails, fmt.Sprintf("goroutines grew from %d to %d", g0, g1))
	}
	if missed > o.maxMissed {
		fails = append(fails, fmt.Sprintf("furbot missed %.4f %% of its control ticks", 100*missed))
	}
	if end.furbotGap > o.maxGap {
		fails = append(fails, fmt.Sprintf("two furbot control frames were %v apart", end.furbotGap.Round(time.Millisecond)))
	}
	if behind > o.maxMissed {
		fails = append(fails, fmt.Sprintf("servosila fell %.4f %% behind its send schedule", 100*behind))
	}
	if len(fails) > 0 {
		return fmt.Errorf("soak failed: %s", strings.Join(fails, "; "))
	}
	fmt.Fprintln(out, "soak: ok")
	return nil
}

// rss returns the resident set size of this process [bytes], 0 where
// /proc is not available.
func rss() uint64 {
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0
	}
	f := strings.Fields(string(b))
	if len(f) < 2 {
		return 0
	}
	pages, err := strconv.ParseUint(f[1], 10, 64)
	if err != nil {
		return 0
	}
	return pages * uint64(os.Getpagesize())
}
