//go:build linux && cgo

package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/telebridge/telebridge/pkg/camera"
	"github.com/telebridge/telebridge/pkg/video"
	"github.com/telebridge/telebridge/pkg/video/rtph264"
)

func init() {
	register(command{
		name:    "rtp",
		summary: "send a camera as H.264 over plain RTP (unicast or multicast) and write the SDP for ffplay, VLC, GStreamer",
		run:     runRTP,
	})
}

func runRTP(ctx context.Context, args []string, io stdio) error {
	fs := newFlagSet("rtp", io)
	dev := fs.String("camera", "pattern:front", "camera: a V4L2 device path or pattern:NAME (the test pattern)")
	to := fs.String("to", "", "destination HOST:PORT, unicast or multicast (required; an even port: RTCP would use the next)")
	sdpFile := fs.String("sdp", "", "write the SDP to this file (default: print it on standard output)")
	bitrate := fs.Int("bitrate", video.DefaultBitrate, "H.264 bitrate [bit/s]")
	width := fs.Int("width", camera.DefaultWidth, "image width [px] (even, 16..8192)")
	height := fs.Int("height", camera.DefaultHeight, "image height [px] (even, 16..8192)")
	fps := fs.Float64("fps", camera.DefaultFrameRate, "frame rate [Hz] (0.1..1000)")
	format := fs.String("format", camera.DefaultPixelFormat, "V4L2 pixel format (YUYV, MJPG, GREY, ...)")
	ttl := fs.Int("ttl", rtph264.DefaultTTL, "multicast hop limit")
	mtu := fs.Int("mtu", rtph264.DefaultMTU, "largest RTP packet [bytes]")
	code := fs.Bool("frame-code", false, "stamp capture time and frame number into each picture (latency probe; always on for pattern cameras)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		return fmt.Errorf("%w: unexpected argument %q", errUsage, fs.Arg(0))
	}
	if *to == "" {
		return fmt.Errorf("%w: --to HOST:PORT is required", errUsage)
	}
	if *bitrate < 10_000 || *bitrate > 100_000_000 {
		return fmt.Errorf("%w: --bitrate %d: want 10000..100000000 bit/s", errUsage, *bitrate)
	}
	if !(*fps >= camera.MinFrameRate && *fps <= camera.MaxFrameRate) {
		return fmt.Errorf("%w: --fps %v: want %v..%v Hz", errUsage, *fps, camera.MinFrameRate, camera.MaxFrameRate)
	}
	if *width < video.MinSize || *height < video.MinSize || *width > video.MaxSize || *height > video.MaxSize || *width%2 != 0 || *height%2 != 0 {
		return fmt.Errorf("%w: --width %d --height %d: H.264 4:2:0 needs even sizes within %d..%d px", errUsage, *width, *height, video.MinSize, video.MaxSize)
	}
	if !camera.IsPattern(*dev) {
		if _, err := os.Stat(*dev); err != nil {
			return fmt.Errorf("camera %s: %w: %w", *dev, camera.ErrNoDevice, err)
		}
	}
	snd, err := rtph264.Dial(rtph264.Config{Dest: *to, TTL: *ttl, MTU: *mtu})
	if err != nil {
		return err
	}
	defer snd.Close()
	name := rtpCameraName(*dev)
	cam, err := video.OpenCamera(video.CameraConfig{Name: name, Device: *dev, Width: *width, Height: *height,
		FrameRate: *fps, PixelFormat: *format, Stream: video.Config{Bitrate: *bitrate,
			MinBitrate: min(*bitrate, video.DefaultMinBitrate), MaxBitrate: max(*bitrate, video.DefaultMaxBitrate),
			FrameCode: *code || camera.IsPattern(*dev)}})
	if err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	var camErr error
	wg.Add(1)
	go func() { defer wg.Done(); camErr = cam.Run(ctx); cancel() }()
	defer func() { cancel(); wg.Wait() }() // the camera's goroutine ends only once told to
	v, err := cam.Subscribe(64)
	if err != nil {
		return err
	}
	defer v.Close()
	fmt.Fprintf(io.err, "telebridge rtp: %s -> %s, H.264 %d bit/s; waiting for the first keyframe (Ctrl-C stops)\n", *dev, snd.Dest(), *bitrate)
	wg.Add(1)
	go func() { defer wg.Done(); reportProblems(ctx, cam, io) }()
	var sdpErr error
	written := false
	onKey := func(au video.AccessUnit) {
		if written {
			return
		}
		written = true
		d := snd.Description(name, *fps)
		if sdpErr = d.ParseKeyframe(au.Data); sdpErr != nil {
			cancel()
			return
		}
		b, err := d.Marshal()
		if err != nil {
			sdpErr = err
			cancel()
			return
		}
		if *sdpFile == "" {
			_, sdpErr = io.out.Write(b)
		} else if sdpErr = os.WriteFile(*sdpFile, b, 0o644); sdpErr == nil {
			fmt.Fprintf(io.err, "telebridge rtp: SDP in %s; open it with\n  ffplay -protocol_whitelist file,udp,rtp -fflags nobuffer %s\n", *sdpFile, *sdpFile)
		}
		if sdpErr != nil {
			cancel()
		}
	}
	err = snd.Run(ctx, v, onKey)
	v.Close()
	cancel()
	wg.Wait()
	st := snd.Stats()
	fmt.Fprintf(io.err, "telebridge rtp: sent %d access units (%d keyframes), %d packets, %d bytes; %d write errors\n",
		st.AccessUnits, st.Keyframes, st.Packets, st.Bytes, st.WriteErrors)
	switch {
	case sdpErr != nil:
		return fmt.Errorf("sdp: %w", sdpErr)
	case errors.Is(err, rtph264.ErrStopped) && camErr != nil:
		return fmt.Errorf("camera %s: %w", *dev, camErr)
	case errors.Is(err, rtph264.ErrStopped):
		if e := cam.Stats().LastErr; e != "" {
			return fmt.Errorf("video stopped: %s", e)
		}
		return err
	case err != nil:
		return err
	}
	return camErr
}

// rtpCameraName names the camera after a pattern's label when that is a
// valid name (as the console does), else "camera".
func rtpCameraName(dev string) string {
	if camera.IsPattern(dev) {
		label := strings.TrimPrefix(dev, camera.PatternPrefix)
		if _, err := (camera.Config{Name: label, Device: dev}).Normalize(); err == nil {
			return label
		}
	}
	return "camera"
}

// reportProblems prints the camera's and the stream's errors when they
// change (a device that is missing or lost, frames that do not convert),
// once a second, until ctx ends: the command keeps running, as the camera
// reopens a lost device.
func reportProblems(ctx context.Context, cam *video.Camera, io stdio) {
	t := time.NewTicker(time.Second)
	defer t.Stop()
	var lastCam, lastStream string
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		if err := cam.CameraErr(); err != nil && err.Error() != lastCam {
			lastCam = err.Error()
			fmt.Fprintf(io.err, "telebridge rtp: camera: %s\n", lastCam)
		}
		if e := cam.Stats().LastErr; e != "" && e != lastStream {
			lastStream = e
			fmt.Fprintf(io.err, "telebridge rtp: video: %s\n", e)
		}
	}
}
