package direct_test

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"runtime/trace"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/telebridge/telebridge/internal/testkit/rtcpage"
	"github.com/telebridge/telebridge/pkg/console"
	"github.com/telebridge/telebridge/pkg/console/direct"
	"github.com/telebridge/telebridge/pkg/mjpeg"
	"github.com/telebridge/telebridge/pkg/video"
)

// Environment of the viewers' helper process (TestViewersHelper).
const (
	envViewersURL = "TELEBRIDGE_VIEWERS_URL"
	envViewersN   = "TELEBRIDGE_VIEWERS_N"
)

// TestViewersHelper is not a test: TestViewersCPU runs the test binary
// again with it to hold N WebRTC viewers of camera front in a process of
// their own (so that their receiving costs nothing in the console's).
func TestViewersHelper(t *testing.T) {
	url := os.Getenv(envViewersURL)
	if url == "" {
		t.Skip("helper process of TestViewersCPU")
	}
	n, err := strconv.Atoi(os.Getenv(envViewersN))
	if err != nil {
		t.Fatal(err)
	}
	for range n {
		p, err := rtcpage.Dial(context.Background(), url)
		if err != nil {
			t.Fatal(err)
		}
		defer p.Close()
		p.Want("front")
	}
	time.Sleep(time.Hour) // until the parent kills it
}

// cpuTime returns the process's user and system CPU time.
func cpuTime(t *testing.T) (user, sys time.Duration) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		t.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano()), time.Duration(ru.Stime.Nano())
}

// TestViewersCPU measures, without asserting, the console's CPU (its
// whole process: camera, encoder, WebRTC sending) with one and with ten
// WebRTC viewers of one 640x480@30 pattern camera, alternating twice;
// the viewers run in a helper process. Set CONSOLE_FIGURES=1;
// CONSOLE_FIGURES_PROFILE=DIR also writes a CPU profile of each
// measurement window to DIR (viewers-N-RUN.prof), and
// CONSOLE_FIGURES_WINDOW=S makes each window S seconds (default 6),
// CONSOLE_FIGURES_PAIRS=N measures N pairs (default 2) and
// CONSOLE_FIGURES_TRACE=DIR writes an execution trace of each window
// (viewers-N-RUN.trace: which goroutines wake, and how often).
func TestViewersCPU(t *testing.T) {
	if os.Getenv("CONSOLE_FIGURES") == "" {
		t.Skip("figures: set CONSOLE_FIGURES=1 to measure")
	}
	if !video.H264Available() {
		t.Skipf("%v", video.H264Unavailable())
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// CONSOLE_FIGURES_GRAIN sets the pattern's noise (direct.Config.
	// PatternGrain): a camera's picture that costs the encoder what a real
	// scene does, not a flat pattern that costs it almost nothing.
	grain, _ := strconv.Atoi(os.Getenv("CONSOLE_FIGURES_GRAIN"))
	be, err := direct.Start(ctx, direct.Config{Servosila: "off", Furbot: "off", NoJog: true, Cameras: []string{"pattern:front"},
		CameraWidth: 640, CameraHeight: 480, CameraRate: 30, Stream: mjpeg.Config{Rate: 30}, PatternGrain: grain})
	if err != nil {
		t.Fatal(err)
	}
	defer be.Close()
	pc := loopbackPeer()
	pc.MaxPeers = 12
	// One fixed rate for every session (1 Mbit/s): the encoder costs the
	// same for one viewer and for ten, whatever each estimate ramped to.
	pc.InitialBitrate, pc.MinBitrate, pc.MaxBitrate = 1_000_000, 1_000_000, 1_000_000
	srv, err := console.New(console.Config{Backend: be, Listen: "127.0.0.1:0", WebRTC: pc, RateLimit: 100, Burst: 200})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = srv.Serve(ctx, ln) }()
	url := "ws://" + ln.Addr().String() + "/ws"
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	window := 6 * time.Second
	if w, err := strconv.Atoi(os.Getenv("CONSOLE_FIGURES_WINDOW")); err == nil && w > 0 {
		window = time.Duration(w) * time.Second
	}
	profDir := os.Getenv("CONSOLE_FIGURES_PROFILE")
	traceDir := os.Getenv("CONSOLE_FIGURES_TRACE")
	measure := func(n, run int) (float64, float64, float64) {
		cmd := exec.Command(exe, "-test.run=^TestViewersHelper$", "-test.timeout=10m")
		cmd.Env = append(os.Environ(), envViewersURL+"="+url, envViewersN+"="+strconv.Itoa(n))
		cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
		waitFor(t, 20*time.Second, fmt.Sprintf("%d viewers receiving", n), func() bool {
			st := srv.WebRTCStats()
			if len(st) != n {
				return false
			}
			for _, s := range st {
				if len(s.Cameras) != 1 || s.Cameras[0].PacketsSent < 100 {
					return false
				}
			}
			return true
		})
		time.Sleep(2 * time.Second) // settle: the estimate ramps up
		bytes := func() (b uint64) {
			for _, s := range srv.WebRTCStats() {
				for _, c := range s.Cameras {
					b += c.BytesSent
				}
			}
			return b
		}
		if profDir != "" {
			f := createFile(t, profDir, fmt.Sprintf("viewers-%d-%d.prof", n, run))
			if err := pprof.StartCPUProfile(f); err != nil {
				t.Fatal(err)
			}
		}
		if traceDir != "" {
			f := createFile(t, traceDir, fmt.Sprintf("viewers-%d-%d.trace", n, run))
			if err := trace.Start(f); err != nil {
				t.Fatal(err)
			}
			defer trace.Stop()
		}
		encoded := func() uint64 {
			snap, err := be.Snapshot(ctx)
			if err != nil || len(snap.Cameras) == 0 {
				t.Fatalf("snapshot: %v", err)
			}
			return snap.Cameras[0].VideoEncoded
		}
		e0 := encoded()
		var m0, m1 runtime.MemStats
		runtime.ReadMemStats(&m0)
		u0, s0 := cpuTime(t)
		b0, w0 := bytes(), time.Now()
		time.Sleep(window) // the measurement window
		u1, s1 := cpuTime(t)
		b1, w1 := bytes(), time.Now()
		runtime.ReadMemStats(&m1)
		e1 := encoded()
		if profDir != "" {
			pprof.StopCPUProfile()
		}
		sec := w1.Sub(w0).Seconds()
		t.Logf("%d viewers: %.1f pictures encoded/s, %.0f allocations/s, %.0f kB/s, %d GCs", n, float64(e1-e0)/sec,
			float64(m1.Mallocs-m0.Mallocs)/sec, float64(m1.TotalAlloc-m0.TotalAlloc)/sec/1e3, m1.NumGC-m0.NumGC)
		return 100 * (u1 - u0 + s1 - s0).Seconds() / sec, 100 * (s1 - s0).Seconds() / sec, 8 * float64(b1-b0) / sec / 1e3 / float64(n)
	}
	pairs := 2
	if n, err := strconv.Atoi(os.Getenv("CONSOLE_FIGURES_PAIRS")); err == nil && n > 0 {
		pairs = n
	}
	var ratios []float64
	for run := range pairs {
		one, sys, kb := measure(1, run)
		t.Logf("1 viewer:   console process %.1f %% of one core (system %.1f %%), %.0f kbit/s sent per viewer", one, sys, kb)
		waitFor(t, 20*time.Second, "viewers gone", func() bool { return len(srv.WebRTCStats()) == 0 })
		ten, sys, kb := measure(10, run)
		t.Logf("10 viewers: console process %.1f %% of one core (system %.1f %%), %.0f kbit/s sent per viewer", ten, sys, kb)
		waitFor(t, 20*time.Second, "viewers gone", func() bool { return len(srv.WebRTCStats()) == 0 })
		ratios = append(ratios, ten/one)
	}
	mean := 0.0
	for _, r := range ratios {
		mean += r / float64(len(ratios))
	}
	t.Logf("ten viewers / one viewer: %.2f (pairs), mean %.2f", ratios, mean)
}

// createFile creates dir/name for the test's output, closed when the
// test ends.
func createFile(t *testing.T, dir, name string) *os.File {
	t.Helper()
	f, err := os.Create(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = f.Close() })
	return f
}
