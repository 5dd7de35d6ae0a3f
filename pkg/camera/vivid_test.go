//go:build vivid && linux && cgo

// Tests against a real V4L2 driver: the kernel's vivid test driver at
// /dev/video0, run inside qemu by scripts/check.d/camera.sh through
// ../shared/tools/run-vivid.sh. Build: go test -c -tags vivid with static
// linking (see the script). They print their measurements with t.Logf;
// run with -test.v to see them.

package camera

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/telebridge/telebridge/internal/testkit/runtest"
	"github.com/telebridge/telebridge/pkg/camera/control"
	"github.com/telebridge/telebridge/pkg/camera/wire"
)

const vividDevice = "/dev/video0"

func requireVivid(t testing.TB) {
	t.Helper()
	if _, err := os.Stat(vividDevice); err != nil {
		t.Fatalf("vivid tests need %s (run them through scripts/check.d/camera.sh): %v", vividDevice, err)
	}
}

// cpuTime returns the process's user+system CPU time.
func cpuTime(t testing.TB) time.Duration {
	var ru unix.Rusage
	if err := unix.Getrusage(unix.RUSAGE_SELF, &ru); err != nil {
		t.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func TestVividCapture(t *testing.T) {
	requireVivid(t)
	cases := []struct {
		format        string
		width, height int
		rate          float64
	}{
		{"YUYV", 640, 480, 30},
		{"UYVY", 640, 480, 30},
		{"GRBG", 640, 480, 30}, // Bayer, as the Servosila stereo cameras
		{"GREY", 640, 480, 30},
		{"YUYV", 640, 360, 30},
	}
	const frames = 40
	for _, tc := range cases {
		t.Run(fmt.Sprintf("%s_%dx%d", tc.format, tc.width, tc.height), func(t *testing.T) {
			dev, err := Open(Config{Name: "vivid", Device: vividDevice, Width: tc.width, Height: tc.height,
				FrameRate: tc.rate, PixelFormat: tc.format})
			if err != nil {
				t.Fatal(err)
			}
			defer dev.Close()
			neg := dev.Negotiated()
			f, _ := wire.ParsePixelFormat(tc.format)
			if neg.Width != uint32(tc.width) || neg.Height != uint32(tc.height) || neg.Format.FourCC != f.FourCC {
				t.Fatalf("negotiated %+v, asked %s %dx%d", neg, tc.format, tc.width, tc.height)
			}
			if neg.FrameRate <= 0 {
				t.Fatalf("driver reported no frame rate: %+v", neg)
			}
			t.Logf("negotiated: %s (%s) %dx%d step %d size %d, %.3f fps, %d buffers, driver %s",
				neg.Format.Name, neg.Encoding, neg.Width, neg.Height, neg.Step, neg.ImageSize, neg.FrameRate, neg.Buffers, neg.Driver)

			var img Image
			img.Data = make([]byte, neg.ImageSize) // preallocated message buffer
			stamps := make([]time.Time, 0, frames)
			leads := make([]time.Duration, 0, frames)
			seqs := make([]uint32, 0, frames)
			notMapped := 0
			consume := func(fr *Frame) {
				// Zero copies before publish: the consumer sees the mmap'ed memory.
				if unsafe.SliceData(fr.Data) != unsafe.SliceData(dev.bufs[fr.Index]) {
					notMapped++
				}
				if uint32(len(fr.Data)) != neg.ImageSize || fr.Encoding != neg.Encoding || fr.Step != neg.Step {
					t.Errorf("frame %d: len %d encoding %s step %d", fr.Sequence, len(fr.Data), fr.Encoding, fr.Step)
				}
				leads = append(leads, time.Until(fr.Header.Stamp))
				stamps = append(stamps, fr.Header.Stamp)
				seqs = append(seqs, fr.Sequence)
				fr.CopyTo(&img) // the one copy, into the message
			}
			if err := dev.Start(); err != nil {
				t.Fatal(err)
			}
			cpu0, wall0 := cpuTime(t), time.Now()
			for len(stamps) < frames {
				v, err := dev.Next(2*time.Second, consume)
				if err != nil {
					t.Fatalf("after %d frames: %v", len(stamps), err)
				}
				if v != wire.Good {
					t.Errorf("buffer classified %v", v)
				}
			}
			cpu, wall := cpuTime(t)-cpu0, time.Since(wall0)
			// Allocation check on the real path: dequeue, deliver, copy, queue.
			allocs := testing.AllocsPerRun(10, func() {
				if _, err := dev.Next(2*time.Second, func(fr *Frame) { fr.CopyTo(&img) }); err != nil {
					t.Fatal(err)
				}
			})
			if err := dev.Stop(); err != nil {
				t.Fatal(err)
			}
			st := dev.Stats()

			period := time.Duration(float64(time.Second) / neg.FrameRate)
			var deltas []time.Duration
			for i := 1; i < len(stamps); i++ {
				d := stamps[i].Sub(stamps[i-1])
				if d <= 0 {
					t.Errorf("timestamp %d not after %d: delta %v", i, i-1, d)
				}
				if seqs[i] != seqs[i-1]+1 {
					continue // a dropped frame: the gap is legitimately longer
				}
				deltas = append(deltas, d)
			}
			sorted := append([]time.Duration(nil), deltas...)
			sort.Slice(sorted, func(i, j int) bool { return sorted[i] < sorted[j] })
			span := stamps[len(stamps)-1].Sub(stamps[0])
			fpsStamps := float64(len(stamps)-1) / span.Seconds()
			fpsWall := float64(len(stamps)) / wall.Seconds()
			maxLead := slicesMax(leads)
			t.Logf("achieved: %.2f fps by buffer timestamps, %.2f fps by wall clock (%d frames); driver says %.2f",
				fpsStamps, fpsWall, len(stamps), neg.FrameRate)
			t.Logf("timestamp deltas: min %v median %v max %v (period %v); stamp - dequeue time: max %v",
				sorted[0], sorted[len(sorted)/2], sorted[len(sorted)-1], period, maxLead)
			t.Logf("stats: frames %d corrupted %d dropped %d copies %d timeouts %d; consumer saw non-mmap memory %d times",
				st.Frames, st.Corrupted, st.Dropped, st.Copies, st.Timeouts, notMapped)
			t.Logf("CPU while streaming: %v over %v wall = %.2f%% of one core, %v per frame; allocs per frame %.0f",
				cpu, wall.Round(time.Millisecond), 100*cpu.Seconds()/wall.Seconds(), cpu/time.Duration(frames), allocs)

			if notMapped != 0 {
				t.Errorf("consumer got a copy instead of the mmap'ed buffer %d times", notMapped)
			}
			if st.Copies != st.Frames {
				t.Errorf("copies %d != frames %d: want exactly one copy (into the message) per frame", st.Copies, st.Frames)
			}
			if st.Corrupted != 0 {
				t.Errorf("corrupted = %d, want 0", st.Corrupted)
			}
			if allocs != 0 {
				t.Errorf("capture-to-publish path allocates %.0f times per frame, want 0", allocs)
			}
			// The qemu guest is emulated (TCG) on a shared machine: when the
			// host is busy, vivid's generator thread is starved and drops
			// frames (counted), which lowers the delivered rate without any
			// fault of ours. The driver's own frame clock (sequence numbers
			// over timestamps) must match the rate it set; the delivered rate
			// must not collapse, and its shortfall must be explained by
			// counted drops.
			seqRate := float64(seqs[len(seqs)-1]-seqs[0]) / span.Seconds()
			t.Logf("driver frame clock: %.2f frames/s by sequence numbers", seqRate)
			if math.Abs(seqRate-neg.FrameRate) > 0.05*neg.FrameRate {
				t.Errorf("sequence numbers advance at %.2f/s, driver set %.2f fps", seqRate, neg.FrameRate)
			}
			if fpsStamps < 0.5*neg.FrameRate || fpsStamps > 1.05*neg.FrameRate {
				t.Errorf("achieved %.2f fps by timestamps, driver set %.2f", fpsStamps, neg.FrameRate)
			}
			if fpsStamps < 0.95*neg.FrameRate && st.Dropped == 0 {
				t.Errorf("achieved %.2f fps of %.2f with no dropped frame counted", fpsStamps, neg.FrameRate)
			}
			if med := sorted[len(sorted)/2]; absDur(med-period) > 2*time.Millisecond {
				t.Errorf("median timestamp delta %v, period %v", med, period)
			}
			if maxLead > 2*period {
				t.Errorf("a timestamp lies %v after its dequeue, more than two periods: wrong clock?", maxLead)
			}
			if minLead := -slicesMax(negate(leads)); minLead < -time.Second {
				t.Errorf("a timestamp lies %v before its dequeue: stale or wrong clock", -minLead)
			}
		})
	}
}

func absDur(d time.Duration) time.Duration {
	if d < 0 {
		return -d
	}
	return d
}

func slicesMax(ds []time.Duration) time.Duration {
	m := time.Duration(math.MinInt64)
	for _, d := range ds {
		m = max(m, d)
	}
	return m
}

func negate(ds []time.Duration) []time.Duration {
	out := make([]time.Duration, len(ds))
	for i, d := range ds {
		out[i] = -d
	}
	return out
}

// TestVividDemand runs a Camera and drives it with subscriber counts: no
// frames and no CPU without subscribers, frames with one, none again after
// the last leaves, and frames again when one comes back.
func TestVividDemand(t *testing.T) {
	requireVivid(t)
	var mu sync.Mutex
	var img Image
	cam, err := New(Config{Name: "front", Device: vividDevice, PixelFormat: "YUYV"}, func(f *Frame) {
		mu.Lock()
		f.CopyTo(&img)
		mu.Unlock()
	})
	if err != nil {
		t.Fatal(err)
	}
	defer runCamera(t, cam)()
	waitFor(t, "device open", func() bool { _, open := cam.Negotiated(); return open })

	idle := func(phase string) {
		t.Helper()
		runtime.GC() // do not bill the collector's work for earlier tests to the idle second
		before, cpu0, wall0 := cam.Stats(), cpuTime(t), time.Now()
		time.Sleep(time.Second)
		after, cpu, wall := cam.Stats(), cpuTime(t)-cpu0, time.Since(wall0)
		t.Logf("%s: %v CPU over %v with no subscriber (%.2f%%), frames %d -> %d",
			phase, cpu, wall.Round(time.Millisecond), 100*cpu.Seconds()/wall.Seconds(), before.Frames, after.Frames)
		if after.Frames != before.Frames {
			t.Errorf("%s: %d frames dequeued with no subscriber", phase, after.Frames-before.Frames)
		}
		// Generous bound for a TCG-emulated guest; the measured figure is logged.
		if cpu > 50*time.Millisecond {
			t.Errorf("%s: %v CPU in 1 s with no subscriber, want ~0", phase, cpu)
		}
	}

	idle("before any subscriber")
	if st := cam.Stats(); st.Starts != 0 || st.Frames != 0 {
		t.Fatalf("streamed before any subscriber: %+v", st)
	}

	cam.SetSubscribers(1, 0)
	waitFor(t, "20 frames", func() bool { return cam.Stats().Frames >= 20 })
	cpu0, wall0, f0 := cpuTime(t), time.Now(), cam.Stats().Frames
	time.Sleep(time.Second)
	cpu, wall, f1 := cpuTime(t)-cpu0, time.Since(wall0), cam.Stats().Frames
	t.Logf("streaming with one subscriber: %d frames in %v, %.2f%% CPU", f1-f0, wall.Round(time.Millisecond), 100*cpu.Seconds()/wall.Seconds())

	cam.SetSubscribers(0, 0)
	waitFor(t, "stream off", func() bool { return cam.Stats().Stops == 1 })
	idle("after the last subscriber left")

	cam.SetSubscribers(0, 1) // a camera_info subscriber alone also streams
	n := cam.Stats().Frames
	waitFor(t, "frames again", func() bool { return cam.Stats().Frames >= n+10 })
	// Off again before the counts are compared: while streaming, a frame
	// is counted before the subscriber copies it, so a snapshot can fall
	// between the two (Frames 56, Copies 55 in one CI run).
	cam.SetSubscribers(0, 0)
	waitFor(t, "stream off again", func() bool { return cam.Stats().Stops == 2 })
	st := cam.Stats()
	t.Logf("stats: %+v", st)
	if st.Starts != 2 || st.Corrupted != 0 || st.Copies != st.Frames {
		t.Errorf("stats %+v: want 2 starts, 0 corrupted, one copy per frame", st)
	}
}

// waitFor waits for cond for up to 10 s.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	runtest.WaitFor(t, 10*time.Second, what, cond)
}

func TestVividControls(t *testing.T) {
	requireVivid(t)
	dev, err := Open(Config{Name: "vivid", Device: vividDevice, Controls: map[string]int64{"contrast": 100}})
	if err != nil {
		t.Fatal(err)
	}
	defer dev.Close()
	cs, err := dev.Controls()
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, c := range cs {
		if c.Settable() && c.Readable {
			names = append(names, fmt.Sprintf("%s=%d[%d..%d]", c.Param, c.Value, c.Min, c.Max))
		}
	}
	t.Logf("%d controls, settable and readable: %v", len(cs), names)
	if got, err := dev.Control("contrast"); err != nil || got != 100 {
		t.Errorf("contrast applied from Config = %d, %v; want 100", got, err)
	}
	b, err := dev.Control("brightness")
	if err != nil {
		t.Fatal(err)
	}
	got, err := dev.SetControl("brightness", b+10)
	if err != nil || got != b+10 {
		t.Errorf("set brightness %d: read back %d, %v", b+10, got, err)
	}
	if _, err := dev.SetControl("brightness", 1<<20); err == nil {
		t.Error("out-of-range brightness accepted")
	}
	if _, err := dev.SetControl("no_such_control", 1); err == nil {
		t.Error("unknown control accepted")
	}
}

func TestVividList(t *testing.T) {
	requireVivid(t)
	infos, err := wire.ListDevices()
	if err != nil {
		t.Fatal(err)
	}
	var found bool
	for _, d := range infos {
		if d.Path != vividDevice {
			continue
		}
		found = true
		var yuyv *wire.FormatInfo
		for i, f := range d.Formats {
			t.Logf("%s %s: %s (%s) publishable=%v sizes=%d", d.Path, d.Driver, f.FourCC, f.Description, f.Publishable, len(f.Sizes))
			if f.FourCC == wire.FmtYUYV {
				yuyv = &d.Formats[i]
			}
		}
		if yuyv == nil {
			t.Fatal("vivid lists no YUYV")
		}
		for _, s := range yuyv.Sizes {
			t.Logf("YUYV %dx%d: %v fps", s.Width, s.Height, s.Rates)
		}
		if len(yuyv.Sizes) == 0 || len(yuyv.Sizes[0].Rates) == 0 {
			t.Errorf("YUYV sizes %+v: want discrete sizes with rates", yuyv.Sizes)
		}
	}
	if !found {
		t.Fatalf("%s not listed: %+v", vividDevice, infos)
	}
}

// TestVividDroppedFrames uses vivid's "Percentage of Dropped Buffers"
// control: the driver skips that share of frames (their sequence numbers
// are consumed, no buffer is returned), and the device must count the gaps.
func TestVividDroppedFrames(t *testing.T) {
	requireVivid(t)
	dev, err := Open(Config{Name: "drops", Device: vividDevice, Width: 320, Height: 180, FrameRate: 60,
		Controls: map[string]int64{"percentage_of_dropped_buffers": 20}})
	if err != nil {
		t.Fatal(err)
	}
	defer dev.Close()
	if err := dev.Start(); err != nil {
		t.Fatal(err)
	}
	var first, last uint32
	seen := map[uint32]bool{}
	const frames = 100
	for i := 0; i < frames; i++ {
		if _, err := dev.Next(2*time.Second, func(f *Frame) {
			if i == 0 {
				first = f.Sequence
			}
			last = f.Sequence
			seen[f.Sequence] = true
		}); err != nil {
			t.Fatalf("frame %d: %v", i, err)
		}
	}
	st := dev.Stats()
	share := float64(st.Dropped) / float64(st.Dropped+st.Frames)
	t.Logf("20%% drop injection: %d frames delivered, %d dropped (%.1f%%), sequence %d..%d", st.Frames, st.Dropped, 100*share, first, last)
	// Every number in the span is either delivered or counted as dropped.
	// (Under load vivid, which derives sequence numbers from time, can hand
	// out a number twice: hence distinct numbers, not frames.)
	if span := uint64(last-first) + 1; span != uint64(len(seen))+st.Dropped {
		t.Errorf("sequence span %d != %d distinct delivered + %d dropped", span, len(seen), st.Dropped)
	}
	// At least the injected share; more when the emulated guest starves
	// vivid's generator (the exact accounting is the span check above).
	if share < 0.1 || st.Corrupted != 0 {
		t.Errorf("dropped share %.2f, corrupted %d: want >= 0.1 (0.2 injected) and 0", share, st.Corrupted)
	}
}

// openFDs counts the process's open file descriptors that lead to a
// device (/dev/...): the camera's. Pipes and epoll descriptors that the Go
// runtime opens on first use are not counted.
func openFDs(t testing.TB) int {
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range ents {
		target, err := os.Readlink("/proc/self/fd/" + e.Name())
		if err == nil && strings.HasPrefix(target, "/dev/") {
			n++
		}
	}
	return n
}

// TestVividErrorFlag uses vivid's "Inject V4L2_BUF_FLAG_ERROR" button: the
// next buffer comes back with the error flag and must be skipped and
// counted, and the stream must go on.
func TestVividErrorFlag(t *testing.T) {
	requireVivid(t)
	dev, err := Open(Config{Name: "vivid", Device: vividDevice, Width: 320, Height: 180, FrameRate: 60})
	if err != nil {
		t.Fatal(err)
	}
	defer dev.Close()
	if err := dev.Start(); err != nil {
		t.Fatal(err)
	}
	verdicts := map[wire.Verdict]int{}
	delivered := 0
	const presses = 3
	for i := 0; i < 60; i++ {
		if i%15 == 5 && i < 5+15*presses {
			if err := dev.PressButton("inject_v4l2_buf_flag_error"); err != nil {
				t.Fatal(err)
			}
		}
		v, err := dev.Next(2*time.Second, func(f *Frame) { delivered++ })
		if err != nil {
			t.Fatal(err)
		}
		verdicts[v]++
	}
	st := dev.Stats()
	t.Logf("3 injected error buffers in 60: verdicts %v, delivered %d, stats corrupted %d frames %d", verdicts, delivered, st.Corrupted, st.Frames)
	if verdicts[wire.ErrorFlag] != presses || st.Corrupted != presses || uint64(delivered) != st.Frames || delivered != 60-presses {
		t.Errorf("want %d error-flag buffers skipped and counted, the rest delivered", presses)
	}
}

// TestVividOpenFailuresCloseEverything opens with settings the driver
// refuses and checks that no file descriptor is left behind.
func TestVividOpenFailuresCloseEverything(t *testing.T) {
	requireVivid(t)
	before := openFDs(t)
	for i := 0; i < 10; i++ {
		// vivid offers no MJPG: the driver substitutes another format after open.
		if _, err := Open(Config{Name: "v", Device: vividDevice, PixelFormat: "MJPG"}); err == nil {
			t.Fatal("MJPG accepted by vivid")
		}
		// An unknown control fails after the format is set.
		if _, err := Open(Config{Name: "v", Device: vividDevice, Controls: map[string]int64{"no_such": 1}}); err == nil {
			t.Fatal("unknown control accepted")
		}
		dev, err := Open(Config{Name: "v", Device: vividDevice})
		if err != nil {
			t.Fatal(err)
		}
		if err := dev.Start(); err != nil {
			t.Fatal(err)
		}
		if err := dev.Close(); err != nil {
			t.Fatal(err)
		}
		if err := dev.Close(); err != nil { // idempotent
			t.Fatal(err)
		}
	}
	if after := openFDs(t); after != before {
		t.Errorf("open descriptors %d -> %d after 30 opens", before, after)
	}
}

// TestVividFatalErrorReopen uses vivid's "Inject Fatal Streaming Error":
// the queue goes into the error state and dequeueing fails (EIO); Camera
// must close the device, reopen it and stream again.
func TestVividFatalErrorReopen(t *testing.T) {
	requireVivid(t)
	frames := 0
	cam, err := New(Config{Name: "fatal", Device: vividDevice, Width: 320, Height: 180, FrameRate: 60},
		func(f *Frame) { frames++ })
	if err != nil {
		t.Fatal(err)
	}
	stop := runCamera(t, cam)
	cam.SetSubscribers(1, 0)
	waitFor(t, "10 frames", func() bool { return cam.Stats().Frames >= 10 })
	pressButton(t, "inject_fatal_streaming_error")
	waitFor(t, "a reopen and 10 more frames", func() bool {
		st := cam.Stats()
		return st.Reopens >= 1 && st.Starts >= 2 && st.Frames >= 20
	})
	stop()
	st := cam.Stats()
	t.Logf("fatal streaming error: %+v", st)
	if uint64(frames) != st.Frames || st.Dropped > 100 {
		t.Errorf("consumer saw %d frames, stats %+v", frames, st)
	}
}

// TestVividDisconnect unplugs the camera: vivid's "Disconnect" button
// unregisters the device node as a USB unplug does, so every ioctl fails
// with ENODEV and poll reports POLLERR/POLLHUP; vivid registers it again
// once the last open handle is closed, as a replug. Camera must see the
// loss (no hang), close everything (which is what lets vivid come back),
// reopen and stream again, without leaking a descriptor.
func TestVividDisconnect(t *testing.T) {
	requireVivid(t)
	cam, err := New(Config{Name: "unplugged", Device: vividDevice, Width: 320, Height: 180, FrameRate: 60}, func(*Frame) {})
	if err != nil {
		t.Fatal(err)
	}
	cam.backoff = control.Backoff{Min: 20 * time.Millisecond, Max: 200 * time.Millisecond}
	fds := openFDs(t)
	stop := runCamera(t, cam)
	cam.SetSubscribers(1, 0)
	waitFor(t, "10 frames", func() bool { return cam.Stats().Frames >= 10 })

	pressButton(t, "disconnect")
	n := cam.Stats().Frames
	waitFor(t, "a reopen and frames from the replugged device", func() bool {
		st := cam.Stats()
		return st.Reopens >= 1 && st.Frames >= n+10
	})
	stop()
	st := cam.Stats()
	t.Logf("unplug and replug: %+v", st)
	if st.Reopens != 1 || st.Starts != 2 || cam.Err() != nil {
		t.Errorf("stats %+v err %v: want one reopen, two starts, no error", st, cam.Err())
	}
	if after := openFDs(t); after != fds {
		t.Errorf("open descriptors %d -> %d across unplug and replug", fds, after)
	}
}

// BenchmarkVividPublish measures the capture-to-publish path on the real
// driver, 640x480 YUYV: dequeue, hand over the mmap'ed buffer, one copy
// into a preallocated message, queue again ("native"), side by side with
// the same plus a YUYV -> RGB8 conversion into an intermediate image
// ("convert_rgb", what an OpenCV-based publisher does). Wall time per frame
// is the frame period; the cost is the process CPU time per frame
// (cpu-ns/frame, from getrusage). Run with -test.benchtime=Nx.
func BenchmarkVividPublish(b *testing.B) {
	requireVivid(b)
	for _, convert := range []bool{false, true} {
		name := "native"
		if convert {
			name = "convert_rgb"
		}
		b.Run(name, func(b *testing.B) {
			dev, err := Open(Config{Name: "bench", Device: vividDevice, PixelFormat: "YUYV"})
			if err != nil {
				b.Fatal(err)
			}
			defer dev.Close()
			neg := dev.Negotiated()
			mat := make([]byte, neg.Width*neg.Height*3)
			var img Image
			img.Data = make([]byte, len(mat))
			consume := func(f *Frame) { f.CopyTo(&img) }
			if convert {
				consume = func(f *Frame) {
					yuyvToRGB(mat, f.Data)
					rgb := Frame{Header: f.Header, Height: f.Height, Width: f.Width, Encoding: "rgb8", Step: f.Width * 3, Data: mat}
					rgb.CopyTo(&img)
				}
			}
			if err := dev.Start(); err != nil {
				b.Fatal(err)
			}
			for i := 0; i < 3; i++ { // let the stream settle
				if _, err := dev.Next(2*time.Second, consume); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportAllocs()
			b.ResetTimer()
			cpu0 := cpuTime(b)
			for i := 0; i < b.N; i++ {
				if _, err := dev.Next(2*time.Second, consume); err != nil {
					b.Fatal(err)
				}
			}
			cpu := cpuTime(b) - cpu0
			b.StopTimer()
			b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/frame")
			b.ReportMetric(100*cpu.Seconds()/b.Elapsed().Seconds(), "%core")
		})
	}
}

// runCamera runs cam.Run in a goroutine; the returned function cancels it
// and fails the test if Run returns an error.
func runCamera(t *testing.T, cam *Camera) (stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- cam.Run(ctx) }()
	return func() {
		cancel()
		if err := <-done; err != nil {
			t.Error(err)
		}
	}
}

// pressButton presses a vivid button control through a second handle to
// the device, closed at once (vivid reconnects a disconnected device when
// its last handle closes).
func pressButton(t *testing.T, name string) {
	t.Helper()
	fd, err := wire.OpenNode(vividDevice)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(fd)
	probe := &Device{cfg: Config{Device: vividDevice}, fd: fd}
	if err := probe.PressButton(name); err != nil {
		t.Fatal(err)
	}
}

// frameBound is how long TestVividTimeoutAndStates waits for a 1 fps frame
// before it fails.
const frameBound = 10 * time.Second

// TestVividTimeoutAndStates: at 1 fps a short wait times out (counted), a
// long one gets the frame; Next refuses to run with the stream off or the
// device closed.
func TestVividTimeoutAndStates(t *testing.T) {
	requireVivid(t)
	dev, err := Open(Config{Name: "slow", Device: vividDevice, Width: 320, Height: 180, FrameRate: 1})
	if err != nil {
		t.Fatal(err)
	}
	// A failure must not leave the device open for the next test (it
	// did once: every later test got EBUSY). Close is idempotent.
	t.Cleanup(func() { _ = dev.Close() })
	if neg := dev.Negotiated(); neg.FrameRate != 1 {
		t.Errorf("frame rate set %v, want 1", neg.FrameRate)
	}
	if _, err := dev.Next(time.Second, func(*Frame) {}); !errors.Is(err, ErrNotStreaming) {
		t.Errorf("Next before Start: %v", err)
	}
	if err := dev.Start(); err != nil {
		t.Fatal(err)
	}
	// vivid fills the first buffer right after STREAMON; the next one comes
	// a second later. The waits for a frame are failure bounds only (in the
	// emulated guest the first frame once took over 3 s); what is asserted
	// is the short wait's timeout below.
	if _, err := dev.Next(frameBound, func(*Frame) {}); err != nil {
		t.Fatal(err)
	}
	t0 := time.Now()
	if _, err := dev.Next(50*time.Millisecond, func(*Frame) { t.Error("frame within 50 ms at 1 fps") }); !errors.Is(err, ErrTimeout) {
		t.Errorf("short wait: %v", err)
	}
	if waited := time.Since(t0); waited < 40*time.Millisecond || waited > 500*time.Millisecond {
		t.Errorf("short wait took %v", waited)
	}
	got := 0
	if v, err := dev.Next(frameBound, func(*Frame) { got++ }); err != nil || v != wire.Good || got != 1 {
		t.Errorf("long wait: %v %v, %d frames", v, err, got)
	}
	if st := dev.Stats(); st.Timeouts != 1 || st.Frames != 2 {
		t.Errorf("stats %+v", st)
	}
	if err := dev.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := dev.Next(time.Second, func(*Frame) {}); !errors.Is(err, ErrClosed) {
		t.Errorf("Next after Close: %v", err)
	}
	if err := dev.Start(); !errors.Is(err, ErrClosed) {
		t.Errorf("Start after Close: %v", err)
	}
}

// TestVividStallRestart: a Camera whose frames stop coming for longer than
// its wait restarts the stream. Simulated with a 1 fps stream and a wait
// shortened to 300 ms: after the first frame (immediate after STREAMON)
// each wait times out, and each restart yields a frame again.
func TestVividStallRestart(t *testing.T) {
	requireVivid(t)
	cam, err := New(Config{Name: "stall", Device: vividDevice, Width: 320, Height: 180, FrameRate: 1}, func(*Frame) {})
	if err != nil {
		t.Fatal(err)
	}
	cam.frameT = 300 * time.Millisecond
	stop := runCamera(t, cam)
	cam.SetSubscribers(1, 0)
	// Wait for everything asserted below: in an emulated guest the fourth
	// start can come before the third frame.
	waitFor(t, "three restarts, each with a timeout, a stop and a frame", func() bool {
		st := cam.Stats()
		return st.Starts >= 4 && st.Timeouts >= 3 && st.Stops >= 3 && st.Frames >= 3
	})
	stop()
	st := cam.Stats()
	t.Logf("stalls: %+v", st)
	if st.Timeouts < 3 || st.Frames < 3 || st.Stops < 3 || st.Reopens != 0 {
		t.Errorf("stats %+v: want a timeout, a stop and a frame per restart, no reopen", st)
	}
}

// TestVividLiveControl: Camera.SetControl while streaming reaches the
// driver (read back through a second handle), a refused change is
// reported by ControlErr, frames keep coming, and ProbeControls (what the
// node declares as parameters) lists the device's controls.
func TestVividLiveControl(t *testing.T) {
	requireVivid(t)
	ctls, err := ProbeControls(Config{Name: "live", Device: vividDevice})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, c := range ctls {
		found = found || c.Param == "brightness" && c.Settable()
	}
	if !found {
		t.Fatalf("probe lists no settable brightness: %d controls", len(ctls))
	}
	cam, err := New(Config{Name: "live", Device: vividDevice, Width: 320, Height: 180, FrameRate: 30}, func(*Frame) {})
	if err != nil {
		t.Fatal(err)
	}
	stop := runCamera(t, cam)
	defer stop()
	cam.SetSubscribers(1, 0)
	waitFor(t, "frames", func() bool { return cam.Stats().Frames >= 3 })
	brightness := func() int64 {
		fd, err := wire.OpenNode(vividDevice)
		if err != nil {
			t.Fatal(err)
		}
		defer unix.Close(fd)
		v, err := (&Device{cfg: Config{Device: vividDevice}, fd: fd}).Control("brightness")
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	before := brightness()
	cam.SetControl("brightness", 200)
	waitFor(t, "brightness 200 in the driver", func() bool { return brightness() == 200 })
	cam.SetControl("no_such_control", 1)
	waitFor(t, "the refused control reported", func() bool { return errors.Is(cam.ControlErr(), ErrNoControl) })
	n := cam.Stats().Frames
	waitFor(t, "frames after the changes", func() bool { return cam.Stats().Frames >= n+3 })
	t.Logf("brightness %d -> 200 live while streaming; refused change: %v", before, cam.ControlErr())
}
