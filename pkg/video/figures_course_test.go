package video

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"
	"time"

	"github.com/telebridge/telebridge/pkg/camera/wire"
	"github.com/telebridge/telebridge/pkg/render"
	"github.com/telebridge/telebridge/pkg/trainworld"
)

// courseClip renders the front camera of the Servosila driving through
// the training world's course: 10 s at 30 Hz, 640x480, YUYV as the
// console's world cameras deliver it, converted to I420 by the project's
// Converter. The robot drives 0.4 m/s straight through the gate for 3 s,
// turns right at the same mean speed (tracks 0.55 and 0.25 m/s) for 3 s,
// so the camera pans past the staircase towards the door's wall, and
// drives straight on for the rest; the world is stepped in lock-step, so
// the clip is the same on every run. It returns the frames and the
// conversion's CPU time per frame.
func courseClip(t *testing.T, n int) ([]I420, time.Duration) {
	t.Helper()
	w, err := trainworld.New(trainworld.Config{World: "course"})
	if err != nil {
		t.Fatalf("course world: %v", err)
	}
	defer w.Close()
	r, err := render.New()
	if err != nil {
		t.Fatalf("renderer: %v", err)
	}
	defer r.Close()
	if err := w.AttachRenderer(r); err != nil {
		t.Fatal(err)
	}
	const width, height = 640, 480
	cam, err := w.NewCamera("front_left_camera_link", render.FromFOV(width, height, math.Pi/2))
	if err != nil {
		t.Fatal(err)
	}
	defer cam.Close()
	p := &trainworld.Plant{W: w}
	yuyv := make([]byte, width*height*2)
	frames := make([]I420, n)
	var conv Converter
	var pic I420
	var convCPU time.Duration
	stepped := 0 // [ms] of simulated time
	for k := 0; k < n; k++ {
		left, right := 0.4, 0.4
		if k >= 3*n/10 && k < 6*n/10 {
			left, right = 0.55, 0.25
		}
		if err := p.Drive(left, right, new([6]float64)); err != nil {
			t.Fatal(err)
		}
		due := (k + 1) * 1000 / 30
		if err := w.Step(due - stepped); err != nil {
			t.Fatal(err)
		}
		stepped = due
		if err := cam.Render(yuyv, wire.FmtYUYV); err != nil {
			t.Fatal(err)
		}
		// Converted into one reused picture, as the stream does (the
		// time is the conversion's, not a new picture's allocation),
		// then kept.
		c0 := cpuTime()
		f := Frame{Encoding: "yuv422_yuy2", Width: width, Height: height, Step: width * 2, Data: yuyv}
		if err := conv.Convert(&f, &pic); err != nil {
			t.Fatal(err)
		}
		convCPU += cpuTime() - c0
		frames[k] = I420{Width: pic.Width, Height: pic.Height, Y: bytes.Clone(pic.Y), U: bytes.Clone(pic.U), V: bytes.Clone(pic.V)}
	}
	s, err := w.Robot()
	if err != nil {
		t.Fatal(err)
	}
	moved := math.Hypot(s.Base.Pos[0]-w.Start().Translation.X, s.Base.Pos[1]-w.Start().Translation.Y)
	t.Logf("clip: %d frames; the robot drove %.2f m, ending at x %.2f y %.2f m", n, moved, s.Base.Pos[0], s.Base.Pos[1])
	if moved < 2 {
		t.Fatalf("the robot drove %.2f m in the clip: want at least 2 m (a moving camera)", moved)
	}
	// A camera that moves changes the picture: mean absolute luma
	// difference between the first and last frames.
	diff := 0
	for i, v := range frames[0].Y {
		diff += abs(int(v) - int(frames[n-1].Y[i]))
	}
	if d := float64(diff) / float64(len(frames[0].Y)); d < 5 {
		t.Fatalf("first and last frames differ by %.1f code values on average: want a moving picture", d)
	}
	return frames, convCPU / time.Duration(n)
}

// noisy returns copies of frames with seeded Gaussian luma noise of
// standard deviation sigma [8-bit code values], clamped to 0..255: a
// camera sensor's noise, which a renderer has none of. (YUYV to I420
// copies luma, so noise added here is the same as noise on the camera's
// YUYV bytes.)
func noisy(frames []I420, sigma float64, seed uint64) []I420 {
	rng := rand.New(rand.NewPCG(seed, 1))
	out := make([]I420, len(frames))
	for k := range frames {
		f := frames[k]
		y := make([]byte, len(f.Y))
		for i, v := range f.Y {
			n := float64(v) + rng.NormFloat64()*sigma
			y[i] = byte(min(max(math.Round(n), 0), 255))
		}
		out[k] = f
		out[k].Y = y
	}
	return out
}

// encodeFramesPaced encodes frames at fps in real time and returns the
// access units and the CPU time spent.
func encodeFramesPaced(t *testing.T, c candidate, frames []I420, fps, bitrate int) ([][]byte, time.Duration) {
	t.Helper()
	enc, err := c.open(EncoderConfig{Width: 640, Height: 480, FrameRate: float64(fps), Bitrate: bitrate})
	if err != nil {
		t.Fatal(err)
	}
	defer enc.Close()
	aus := make([][]byte, 0, len(frames))
	period := time.Second / time.Duration(fps)
	next := time.Now()
	c0 := cpuTime()
	for k := range frames {
		time.Sleep(time.Until(next))
		next = next.Add(period)
		au, _, err := enc.Encode(&frames[k], false)
		if err != nil {
			t.Fatal(err)
		}
		aus = append(aus, au)
	}
	return aus, cpuTime() - c0
}

// TestEncoderFiguresCourse is the encoder comparison of docs/video.md on
// the training world's rendered front camera (set VIDEO_FIGURES=1; needs
// ODE, EGL and ffmpeg): the clip of courseClip, clean and with sensor-like
// luma noise (sigma 3), at 30 Hz and at 15 Hz (every other frame, the
// console's camera rate), 1 Mbit/s: for each candidate, CPU per frame
// paced in real time, achieved bitrate, SSIM against the source (ffmpeg's
// ssim filter); then ffmpeg's libx264 (ultrafast, zerolatency) on the same
// raw frames, paced with -re.
func TestEncoderFiguresCourse(t *testing.T) {
	if os.Getenv("VIDEO_FIGURES") == "" {
		t.Skip("figures run: set VIDEO_FIGURES=1 (takes a few minutes; needs ODE, EGL and ffmpeg)")
	}
	if _, err := exec.LookPath("ffmpeg"); err != nil {
		t.Fatal("ffmpeg not found: apt-get install ffmpeg")
	}
	const bitrate = 1_000_000
	dir := os.Getenv("VIDEO_FIGURES_DIR") // keeps the files when set
	if dir == "" {
		dir = t.TempDir()
	}
	t.Logf("machine shared with other work; load at start: %s", loadavg())
	clean, conv := courseClip(t, 300)
	libyuv := "libyuv"
	if err := LibyuvUnavailable(); err != nil {
		libyuv = "Go code (libyuv not loaded)"
	}
	t.Logf("YUYV to I420 conversion (%s): cpu %.2f ms/frame", libyuv, ms(conv))
	variants := []struct {
		name   string
		frames []I420
	}{{"clean", clean}, {"noisy", noisy(clean, 3, 29)}}
	for _, v := range variants {
		for _, fps := range []int{30, 15} {
			frames := v.frames
			if fps == 15 {
				frames = make([]I420, 0, len(v.frames)/2)
				for k := 0; k < len(v.frames); k += 2 {
					frames = append(frames, v.frames[k])
				}
			}
			n := len(frames)
			secs := float64(n) / float64(fps)
			label := fmt.Sprintf("%s %d Hz", v.name, fps)
			src := filepath.Join(dir, fmt.Sprintf("course-%s-%d.yuv", v.name, fps))
			var raw bytes.Buffer
			for k := range frames {
				raw.Write(frames[k].Y)
				raw.Write(frames[k].U)
				raw.Write(frames[k].V)
			}
			if err := os.WriteFile(src, raw.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			raw = bytes.Buffer{}
			for _, name := range candidateNames() {
				c := candidates[name]
				runtime.GC() // the clip's garbage is collected before, not in, the measured window
				aus, cpu := encodeFramesPaced(t, c, frames, fps, bitrate)
				size := 0
				for _, a := range aus {
					size += len(a)
				}
				file := filepath.Join(dir, fmt.Sprintf("course-%s-%d.%s", v.name, fps, c.ext))
				if err := os.WriteFile(file, c.wrap(aus, 640, 480), 0o644); err != nil {
					t.Fatal(err)
				}
				y, all := ssim(t, src, file, c.ext)
				t.Logf("%s %-6s cpu %.2f ms/frame paced (%.1f %% of one core)  %.0f kbit/s  SSIM Y %.6f all %.6f%s",
					label, name, ms(cpu)/float64(n), 100*cpu.Seconds()/secs, float64(size)*8/secs/1000, y, all, againstClean(t, v.name, fps, dir, file, c.ext))
			}
			ffOut := filepath.Join(dir, fmt.Sprintf("course-%s-%d-ffmpeg.h264", v.name, fps))
			in := []string{"-f", "rawvideo", "-pix_fmt", "yuv420p", "-s", "640x480", "-r", strconv.Itoa(fps), "-i", src}
			x264 := []string{"-c:v", "libx264", "-preset", "ultrafast", "-tune", "zerolatency", "-b:v", "1M", "-f", "h264", ffOut}
			base := ffmpegCPU(t, append([]string{"-re"}, append(in, "-f", "null", "-")...)...)
			ffPaced := ffmpegCPU(t, append([]string{"-re"}, append(in, x264...)...)...)
			st, err := os.Stat(ffOut)
			if err != nil {
				t.Fatal(err)
			}
			y, all := ssim(t, src, ffOut, "h264")
			t.Logf("%s ffmpeg libx264 ultrafast zerolatency: cpu %.2f ms/frame paced (-re; ffmpeg reading the frames alone %.2f, difference %.2f)  %.0f kbit/s  SSIM Y %.6f all %.6f%s",
				label, ms(ffPaced)/float64(n), ms(base)/float64(n), ms(ffPaced-base)/float64(n), float64(st.Size())*8/secs/1000, y, all,
				againstClean(t, v.name, fps, dir, ffOut, "h264"))
		}
	}
	t.Logf("load at the end: %s", loadavg())
}

// againstClean is, for the noisy variant, the encoded stream's SSIM
// against the clean source (the scene without the noise): how much of
// the scene the stream keeps when the noise eats the bits.
func againstClean(t *testing.T, variant string, fps int, dir, file, format string) string {
	if variant == "clean" {
		return ""
	}
	y, all := ssim(t, filepath.Join(dir, fmt.Sprintf("course-clean-%d.yuv", fps)), file, format)
	return fmt.Sprintf("  (against the clean frames: SSIM Y %.6f all %.6f)", y, all)
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}
