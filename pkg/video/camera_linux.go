//go:build linux && cgo

package video

// This file is the package's only use of pkg/camera (its runtime API:
// Config, New, Camera.Run, SetSubscribers, Frame), kept apart so that a
// move of pkg/camera touches one file.

import (
	"context"
	"fmt"

	"github.com/telebridge/telebridge/pkg/camera"
)

// CameraConfig is a camera and the stream encoded from it.
type CameraConfig struct {
	// Name names the camera (a ROS name token: letter first, then letters,
	// digits, '_').
	Name string
	// Device is a V4L2 device path or "pattern:LABEL", pkg/camera's test
	// pattern.
	Device string
	// Width and Height are the requested size [px]; default 640 x 480.
	Width, Height int
	// FrameRate is the requested rate [Hz]; default 30.
	FrameRate float64
	// PixelFormat is the V4L2 format by name (pkg/camera's names: "YUYV",
	// "MJPG", ...); default "YUYV".
	PixelFormat string
	// Stream configures the encoding; its Name, FrameRate and OnViewers
	// are filled from the camera.
	Stream Config
}

// Camera is a camera that streams only while its Stream has viewers.
type Camera struct {
	*Stream
	cam *camera.Camera
}

// OpenCamera checks cfg and makes the camera and its stream; nothing is
// captured until Run runs and someone subscribes.
func OpenCamera(cfg CameraConfig) (*Camera, error) {
	ccfg := camera.Config{Name: cfg.Name, Device: cfg.Device, Width: cfg.Width, Height: cfg.Height,
		FrameRate: cfg.FrameRate, PixelFormat: cfg.PixelFormat}
	ncfg, err := ccfg.Normalize()
	if err != nil {
		return nil, fmt.Errorf("video: %w", err)
	}
	if ncfg.Width < MinSize || ncfg.Height < MinSize || ncfg.Width%2 != 0 || ncfg.Height%2 != 0 || ncfg.Width > MaxSize || ncfg.Height > MaxSize {
		return nil, fmt.Errorf("video: camera %s: %dx%d: want even sizes %d..%d: %w", cfg.Name, ncfg.Width, ncfg.Height, MinSize, MaxSize, ErrBadSize)
	}
	c := &Camera{}
	scfg := cfg.Stream
	scfg.Name, scfg.FrameRate = cfg.Name, ncfg.FrameRate
	user := scfg.OnViewers
	scfg.OnViewers = func(n int) {
		c.cam.SetSubscribers(n, 0)
		if user != nil {
			user(n)
		}
	}
	if c.Stream, err = NewStream(scfg); err != nil {
		return nil, err
	}
	var fr Frame // reused: the camera goroutine is the only caller
	c.cam, err = camera.New(ccfg, func(f *camera.Frame) {
		fr = Frame{Encoding: f.Encoding, Width: int(f.Width), Height: int(f.Height), Step: int(f.Step),
			Data: f.Data, BigEndian: f.IsBigEndian != 0, Capture: f.Header.Stamp}
		c.Feed(&fr)
		fr.Data = nil
	})
	if err != nil {
		_ = c.Stream.Close()
		return nil, fmt.Errorf("video: %w", err)
	}
	return c, nil
}

// Run captures while someone watches until ctx ends, then closes the
// stream. It returns the camera's error, if any.
func (c *Camera) Run(ctx context.Context) error {
	err := c.cam.Run(ctx)
	_ = c.Stream.Close()
	return err
}

// CameraErr is the camera's latest error (device lost, no such device),
// nil while it captures.
func (c *Camera) CameraErr() error { return c.cam.Err() }
