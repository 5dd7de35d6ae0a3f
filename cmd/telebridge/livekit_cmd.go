//go:build linux && cgo

package main

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"sync"

	"github.com/telebridge/telebridge/pkg/camera"
	"github.com/telebridge/telebridge/pkg/video"
)

func init() {
	register(command{
		name:    "livekit",
		summary: "publish cameras into a LiveKit room (an SFU for viewers beyond the robot's uplink), without the console",
		run:     runLiveKitCmd,
	})
}

func runLiveKitCmd(ctx context.Context, args []string, io stdio) error {
	fs := newFlagSet("livekit", io)
	var cams stringsFlag
	fs.Var(&cams, "camera", "camera: a V4L2 device path or pattern:NAME (repeatable; default pattern:front)")
	bitrate := fs.Int("bitrate", video.DefaultBitrate, "H.264 bitrate of each camera [bit/s]")
	width := fs.Int("width", camera.DefaultWidth, "image width [px]")
	height := fs.Int("height", camera.DefaultHeight, "image height [px]")
	fps := fs.Float64("fps", camera.DefaultFrameRate, "frame rate [Hz]")
	format := fs.String("format", camera.DefaultPixelFormat, "V4L2 pixel format (YUYV, MJPG, GREY, ...)")
	var lk livekitFlags
	lk.register(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	switch {
	case fs.NArg() != 0:
		return fmt.Errorf("%w: unexpected argument %q", errUsage, fs.Arg(0))
	case !lk.enabled():
		return fmt.Errorf("%w: --livekit-url is required", errUsage)
	case *bitrate < 10_000 || *bitrate > 100_000_000:
		return fmt.Errorf("%w: --bitrate %d: want 10000..100000000 bit/s", errUsage, *bitrate)
	case !(*fps >= camera.MinFrameRate && *fps <= camera.MaxFrameRate):
		return fmt.Errorf("%w: --fps %v: want %v..%v Hz", errUsage, *fps, camera.MinFrameRate, camera.MaxFrameRate)
	}
	if len(cams) == 0 {
		cams = stringsFlag{"pattern:front"}
	}
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	defer func() { cancel(); wg.Wait() }() // the cameras stop before return
	byName := map[string]*video.Camera{}
	var names []string
	for i, dev := range cams {
		if !camera.IsPattern(dev) {
			if _, err := os.Stat(dev); err != nil {
				return fmt.Errorf("camera %s: %w: %w", dev, camera.ErrNoDevice, err)
			}
		}
		name := livekitCameraName(i, dev)
		if byName[name] != nil {
			return fmt.Errorf("%w: camera %s named %q twice", errUsage, dev, name)
		}
		cam, err := video.OpenCamera(video.CameraConfig{Name: name, Device: dev, Width: *width, Height: *height,
			FrameRate: *fps, PixelFormat: *format, Stream: video.Config{Bitrate: *bitrate,
				MinBitrate: min(*bitrate, video.DefaultMinBitrate), MaxBitrate: max(*bitrate, video.DefaultMaxBitrate),
				FrameCode: camera.IsPattern(dev)}})
		if err != nil {
			return err
		}
		byName[name] = cam
		names = append(names, name)
		wg.Add(1)
		go func() { defer wg.Done(); _ = cam.Run(ctx) }()
	}
	log := slog.New(slog.NewTextHandler(io.err, &slog.HandlerOptions{Level: slog.LevelInfo}))
	pub, err := lk.publisher(names, func(n string) (video.Source, error) { return byName[n], nil }, log)
	if err != nil {
		return err
	}
	fmt.Fprintf(io.err, "telebridge livekit: publishing %s into %s (Ctrl-C stops)\n", strings.Join(names, ", "), lk.url)
	err = pub.Run(ctx)
	st := pub.Stats()
	fmt.Fprintf(io.err, "telebridge livekit: %d connects, %d resumes, %d failures\n", st.Connects, st.Resumes, st.Failures)
	for _, c := range st.Cameras {
		fmt.Fprintf(io.err, "  %s as %s: %d access units (%d keyframes), %d bytes\n", c.Name, c.Track, c.AccessUnits, c.Keyframes, c.Bytes)
	}
	return err
}

// livekitCameraName names camera i after its pattern label when that is a
// valid name, else "camera<i>".
func livekitCameraName(i int, dev string) string {
	if camera.IsPattern(dev) {
		label := strings.TrimPrefix(dev, camera.PatternPrefix)
		if _, err := (camera.Config{Name: label, Device: dev}).Normalize(); err == nil {
			return label
		}
	}
	return fmt.Sprintf("camera%d", i)
}
