//go:build linux && cgo

package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/telebridge/telebridge/pkg/camera"
	"github.com/telebridge/telebridge/pkg/camera/wire"
)

func init() {
	register(command{
		name:    "camera",
		summary: "V4L2 cameras without ROS: list devices and formats, capture frames to files",
		run:     runCamera,
	})
}

func runCamera(ctx context.Context, args []string, io stdio) error {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		fmt.Fprintln(io.err, `usage:
  telebridge camera list [--device /dev/videoN]
      devices, their formats (* = published without conversion), sizes and
      frame rates; with --device also its controls
  telebridge camera capture --device /dev/videoN -n N --out DIR [flags]
      capture N frames into DIR (one file per frame, native format) and print
      the achieved frame rate, dropped and corrupted counts and whether the
      timestamps increase`)
		if len(args) == 0 {
			return fmt.Errorf("%w: missing subcommand", errUsage)
		}
		return nil
	}
	switch args[0] {
	case "list":
		return cameraList(args[1:], io)
	case "capture":
		return cameraCapture(ctx, args[1:], io)
	}
	return fmt.Errorf("%w: unknown camera subcommand %q (list, capture)", errUsage, args[0])
}

func cameraList(args []string, io stdio) error {
	fs := newFlagSet("camera list", io)
	device := fs.String("device", "", "describe only this device, with its controls")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	var infos []wire.DeviceInfo
	if *device != "" {
		if _, err := os.Stat(*device); err != nil {
			return fmt.Errorf("%s: %w: %w", *device, camera.ErrNoDevice, err)
		}
		infos = []wire.DeviceInfo{wire.DescribeDevice(*device)}
	} else {
		var err error
		if infos, err = wire.ListDevices(); err != nil {
			return err
		}
		if len(infos) == 0 {
			return fmt.Errorf("no V4L2 devices (no /dev/video* on this machine): %w", camera.ErrNoDevice)
		}
	}
	for _, d := range infos {
		fmt.Fprintf(io.out, "%s: %s (driver %s)", d.Path, d.Card, d.Driver)
		if !d.Capture {
			fmt.Fprintln(io.out, " - not a streaming capture device")
			continue
		}
		fmt.Fprintln(io.out)
		for _, f := range d.Formats {
			mark := " "
			if f.Publishable {
				mark = "*"
			}
			fmt.Fprintf(io.out, "  %s %-4s %s\n", mark, f.FourCC, f.Description)
			if f.Stepwise != "" {
				fmt.Fprintf(io.out, "      sizes %s\n", f.Stepwise)
			}
			for _, s := range f.Sizes {
				rates := make([]string, len(s.Rates))
				for i, r := range s.Rates {
					rates[i] = strconv.FormatFloat(r, 'g', 4, 64)
				}
				fmt.Fprintf(io.out, "      %dx%d @ %s fps\n", s.Width, s.Height, strings.Join(rates, ", "))
			}
		}
	}
	if *device != "" && infos[0].Capture {
		dev, err := camera.Open(camera.Config{Name: "list", Device: *device})
		if err != nil {
			return err
		}
		defer dev.Close()
		cs, err := dev.Controls()
		if err != nil {
			return err
		}
		fmt.Fprintln(io.out, "  controls (parameter name = value [min..max] type):")
		for _, c := range cs {
			val := "-"
			if c.Readable {
				val = strconv.FormatInt(c.Value, 10)
			}
			fmt.Fprintf(io.out, "    %s = %s [%d..%d] %s (%q)\n", c.Param, val, c.Min, c.Max, c.Type, c.Name)
		}
	}
	return nil
}

// controlFlags collects repeated --set name=value flags.
type controlFlags map[string]int64

func (c controlFlags) String() string { return fmt.Sprint(map[string]int64(c)) }

func (c controlFlags) Set(s string) error {
	name, v, ok := strings.Cut(s, "=")
	n, err := strconv.ParseInt(v, 10, 64)
	if !ok || err != nil {
		return fmt.Errorf("want name=integer, got %q", s)
	}
	c[name] = n
	return nil
}

func cameraCapture(ctx context.Context, args []string, io stdio) error {
	fs := newFlagSet("camera capture", io)
	device := fs.String("device", "", "V4L2 device node (required)")
	n := fs.Int("n", 30, "frames to capture")
	out := fs.String("out", "", "directory for the frame files (required; created)")
	width := fs.Int("width", camera.DefaultWidth, "image width [px]")
	height := fs.Int("height", camera.DefaultHeight, "image height [px]")
	rate := fs.Float64("fps", camera.DefaultFrameRate, "frame rate [Hz]")
	format := fs.String("format", camera.DefaultPixelFormat, "pixel format (YUYV, UYVY, GREY, GRBG, MJPG, ...)")
	buffers := fs.Int("buffers", camera.DefaultBufferCount, "mmap'ed driver buffers")
	timeout := fs.Duration("timeout", 2*time.Second, "give up when no frame arrives for this long")
	controls := controlFlags{}
	fs.Var(controls, "set", "set a control before capturing, name=value (repeatable)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *device == "" || *out == "" || *n <= 0 {
		return fmt.Errorf("%w: --device, --out and -n > 0 are required", errUsage)
	}
	if _, err := os.Stat(*device); err != nil {
		return fmt.Errorf("%s: %w: %w", *device, camera.ErrNoDevice, err)
	}
	dev, err := camera.Open(camera.Config{Name: "capture", Device: *device, Width: *width, Height: *height,
		FrameRate: *rate, PixelFormat: *format, BufferCount: *buffers, Controls: controls})
	if err != nil {
		return err
	}
	defer dev.Close()
	neg := dev.Negotiated()
	fmt.Fprintf(io.out, "%s (%s): %s -> %s, %dx%d, %.3g fps set by the driver, %d buffers\n",
		*device, neg.Card, neg.Format.Name, neg.Encoding, neg.Width, neg.Height, neg.FrameRate, neg.Buffers)
	if err := os.MkdirAll(*out, 0o755); err != nil {
		return fmt.Errorf("capture: %w", err)
	}
	ext := "." + neg.Encoding
	if neg.Format.Compressed {
		ext = ".jpg"
	}

	var stamps []time.Time
	var writeErr error
	consume := func(f *camera.Frame) {
		stamps = append(stamps, f.Header.Stamp)
		name := filepath.Join(*out, fmt.Sprintf("frame_%06d_%dx%d%s", f.Sequence, f.Width, f.Height, ext))
		// Written straight from the mmap'ed buffer: the file is the one copy.
		if err := os.WriteFile(name, f.Data, 0o644); err != nil && writeErr == nil {
			writeErr = err
		}
	}
	if err := dev.Start(); err != nil {
		return err
	}
	start := time.Now()
	for len(stamps) < *n {
		if ctx.Err() != nil {
			break
		}
		if _, err := dev.Next(*timeout, consume); err != nil {
			return fmt.Errorf("capture after %d frames: %w", len(stamps), err)
		}
		if writeErr != nil {
			return fmt.Errorf("capture: write frame: %w", writeErr)
		}
	}
	wall := time.Since(start)
	if err := dev.Stop(); err != nil {
		return err
	}
	st := dev.Stats()
	fmt.Fprint(io.out, captureSummary(stamps, wall, st))
	fmt.Fprintf(io.out, "wrote %d files to %s\n", len(stamps), *out)
	if len(stamps) < *n {
		return errors.New("capture: interrupted")
	}
	return nil
}

// captureSummary reports frame rate, counters and timestamp monotonicity.
func captureSummary(stamps []time.Time, wall time.Duration, st camera.Stats) string {
	var b strings.Builder
	fmt.Fprintf(&b, "frames %d, dropped %d, corrupted %d\n", st.Frames, st.Dropped, st.Corrupted)
	if len(stamps) < 2 {
		return b.String()
	}
	deltas := make([]time.Duration, 0, len(stamps)-1)
	monotonic := true
	for i := 1; i < len(stamps); i++ {
		d := stamps[i].Sub(stamps[i-1])
		if d <= 0 {
			monotonic = false
		}
		deltas = append(deltas, d)
	}
	sort.Slice(deltas, func(i, j int) bool { return deltas[i] < deltas[j] })
	span := stamps[len(stamps)-1].Sub(stamps[0])
	fmt.Fprintf(&b, "achieved %.2f fps (buffer timestamps), %.2f fps (wall clock)\n",
		float64(len(stamps)-1)/span.Seconds(), float64(len(stamps))/wall.Seconds())
	fmt.Fprintf(&b, "timestamps strictly increasing: %v; delta min %v median %v max %v\n",
		monotonic, deltas[0], deltas[len(deltas)/2], deltas[len(deltas)-1])
	return b.String()
}
