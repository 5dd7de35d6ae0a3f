package video

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"
)

// candidate is an encoder under comparison: H.264 through x264 (this
// package's Encoder) and, with the build tag vpx, VP8 through libvpx.
type candidate struct {
	open func(EncoderConfig) (Encoder, error)
	ext  string                              // file type ffmpeg reads the stream as
	wrap func(aus [][]byte, w, h int) []byte // container for the stream file
}

var (
	candMu     sync.Mutex
	candidates = map[string]candidate{}
)

func addCandidate(name string, c candidate) {
	candMu.Lock()
	defer candMu.Unlock()
	candidates[name] = c
}

func candidateNames() []string {
	var n []string
	for k := range candidates {
		n = append(n, k)
	}
	sort.Strings(n)
	return n
}

// cpuTime is the process's user + system CPU time (getrusage): what the
// encoders cost whatever the machine's load.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// encodePaced encodes n pattern frames at 30 Hz in real time (libvpx's
// rate control reads the wall clock) and returns the access units and
// the CPU time spent [s].
func encodePaced(t testing.TB, c candidate, n int, bitrate int) ([][]byte, time.Duration) {
	enc, err := c.open(EncoderConfig{Width: 640, Height: 480, FrameRate: 30, Bitrate: bitrate})
	if err != nil {
		t.Fatal(err)
	}
	defer enc.Close()
	m := newMovingPattern(640, 480)
	var pic I420
	aus := make([][]byte, 0, n)
	period := time.Second / 30
	next := time.Now()
	c0 := cpuTime()
	for k := 0; k < n; k++ {
		time.Sleep(time.Until(next))
		next = next.Add(period)
		m.frame(&pic, k)
		au, _, err := enc.Encode(&pic, false)
		if err != nil {
			t.Fatal(err)
		}
		aus = append(aus, au)
	}
	return aus, cpuTime() - c0
}

var ssimAll = regexp.MustCompile(`SSIM Y:([0-9.]+).* All:([0-9.]+)`)

// ssim runs ffmpeg's ssim filter: the encoded stream against the raw
// source frames; it returns the luma and the all-planes mean.
func ssim(t testing.TB, src, enc string, format string) (y, all float64) {
	args := []string{"-hide_banner", "-nostats", "-f", "rawvideo", "-pix_fmt", "yuv420p", "-s", "640x480", "-r", "30", "-i", src}
	if format != "" {
		args = append(args, "-f", format)
	}
	args = append(args, "-i", enc, "-lavfi", "[1:v]settb=1/30,setpts=N[e];[0:v]settb=1/30,setpts=N[s];[e][s]ssim", "-fps_mode", "passthrough", "-f", "null", "-")
	out, err := exec.Command("ffmpeg", args...).CombinedOutput()
	m := ssimAll.FindSubmatch(out)
	if err != nil || m == nil {
		t.Fatalf("ffmpeg ssim: %v\n%s", err, out)
	}
	y, _ = strconv.ParseFloat(string(m[1]), 64)
	all, _ = strconv.ParseFloat(string(m[2]), 64)
	return y, all
}

// ffmpegCPU runs ffmpeg with args and returns its user + system CPU time.
func ffmpegCPU(t testing.TB, args ...string) time.Duration {
	cmd := exec.Command("ffmpeg", append([]string{"-hide_banner", "-nostats", "-loglevel", "error", "-y"}, args...)...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("ffmpeg %v: %v\n%s", args, err, out)
	}
	return cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
}

// TestEncoderFigures is the encoder comparison of docs/video.md (set
// VIDEO_FIGURES=1; VIDEO_FIGURES_RUNS repeats it, default 3): for each
// candidate, 300 frames of 640x480 at 30 Hz and 1 Mbit/s, paced in real
// time: CPU per frame, achieved bitrate, SSIM against the source (ffmpeg);
// then ffmpeg's libx264 (ultrafast, zerolatency) on the same frames, and
// four x264 streams at once.
func TestEncoderFigures(t *testing.T) {
	if os.Getenv("VIDEO_FIGURES") == "" {
		t.Skip("figures run: set VIDEO_FIGURES=1 (takes about a minute per run; needs ffmpeg)")
	}
	if _, err := exec.LookPath("ffmpeg"); err != nil {
		t.Fatal("ffmpeg not found: apt-get install ffmpeg")
	}
	runs, _ := strconv.Atoi(os.Getenv("VIDEO_FIGURES_RUNS"))
	runs = max(runs, 1)
	const n, bitrate = 300, 1_000_000
	dir := os.Getenv("VIDEO_FIGURES_DIR") // keeps the files when set
	if dir == "" {
		dir = t.TempDir()
	}
	src := filepath.Join(dir, "src.yuv")
	var raw bytes.Buffer
	m := newMovingPattern(640, 480)
	var pic I420
	for k := 0; k < n; k++ {
		m.frame(&pic, k)
		raw.Write(pic.Y)
		raw.Write(pic.U)
		raw.Write(pic.V)
	}
	if err := os.WriteFile(src, raw.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("machine shared with other work; load at start: %s", loadavg())
	for run := 1; run <= runs; run++ {
		for _, name := range candidateNames() {
			c := candidates[name]
			aus, cpu := encodePaced(t, c, n, bitrate)
			size := 0
			for _, a := range aus {
				size += len(a)
			}
			file := filepath.Join(dir, name+"."+c.ext)
			if err := os.WriteFile(file, c.wrap(aus, 640, 480), 0o644); err != nil {
				t.Fatal(err)
			}
			y, all := ssim(t, src, file, c.ext)
			t.Logf("run %d %-6s cpu %.2f ms/frame (%.1f %% of one core per 30 Hz stream)  %.0f kbit/s  SSIM Y %.4f all %.4f",
				run, name, ms(cpu)/n, 100*cpu.Seconds()/(n/30.0), float64(size)*8/(n/30.0)/1000, y, all)
		}
		if c, ok := candidates["h264"]; ok {
			enc, err := c.open(EncoderConfig{Width: 640, Height: 480, FrameRate: 30, Bitrate: bitrate})
			if err != nil {
				t.Fatal(err)
			}
			c0 := cpuTime()
			for k := 0; k < n; k++ {
				m.frame(&pic, k)
			}
			gen := cpuTime() - c0
			c0 = cpuTime()
			for k := 0; k < n; k++ {
				m.frame(&pic, k)
				if _, _, err := enc.Encode(&pic, false); err != nil {
					t.Fatal(err)
				}
			}
			cpu := cpuTime() - c0
			enc.Close()
			t.Logf("run %d h264 unpaced (as fast as it goes, like ffmpeg below): cpu %.2f ms/frame (making the frame: %.2f ms/frame; difference %.2f)",
				run, ms(cpu)/n, ms(gen)/n, ms(cpu-gen)/n)
		}
		ffOut := filepath.Join(dir, "ffmpeg.h264")
		in := []string{"-f", "rawvideo", "-pix_fmt", "yuv420p", "-s", "640x480", "-r", "30", "-i", src}
		base := ffmpegCPU(t, append(in, "-f", "null", "-")...)
		ff := ffmpegCPU(t, append(in, "-c:v", "libx264", "-preset", "ultrafast", "-tune", "zerolatency", "-b:v", "1M", "-f", "h264", ffOut)...)
		ffPaced := ffmpegCPU(t, append([]string{"-re"}, append(in, "-c:v", "libx264", "-preset", "ultrafast", "-tune", "zerolatency", "-b:v", "1M", "-f", "h264", ffOut)...)...)
		t.Logf("run %d ffmpeg libx264 ultrafast zerolatency, paced at 30 Hz (-re, like the encoders above): cpu %.2f ms/frame", run, ms(ffPaced)/n)
		st, _ := os.Stat(ffOut)
		y, all := ssim(t, src, ffOut, "h264")
		t.Logf("run %d ffmpeg libx264 ultrafast zerolatency: cpu %.2f ms/frame (ffmpeg reading the frames alone: %.2f ms/frame; difference %.2f)  %.0f kbit/s  SSIM Y %.4f all %.4f",
			run, ms(ff)/n, ms(base)/n, ms(ff-base)/n, float64(st.Size())*8/(n/30.0)/1000, y, all)
		if _, ok := candidates["h264"]; ok {
			var wg sync.WaitGroup
			c0, w0 := cpuTime(), time.Now()
			for i := 0; i < 4; i++ {
				wg.Add(1)
				go func() { defer wg.Done(); encodePaced(t, candidates["h264"], n, bitrate) }()
			}
			wg.Wait()
			cpu, wall := cpuTime()-c0, time.Since(w0)
			t.Logf("run %d four x264 streams at once: %.1f %% of one core (cpu %.2f s over %.2f s)", run, 100*cpu.Seconds()/wall.Seconds(), cpu.Seconds(), wall.Seconds())
		}
		t.Logf("load after run %d: %s", run, loadavg())
	}
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

func loadavg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	return fmt.Sprintf("%s (2 cores)", bytes.TrimSpace(b))
}
