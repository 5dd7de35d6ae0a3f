package camera

import (
	"cmp"
	"fmt"
	"strings"

	"github.com/telebridge/telebridge/pkg/camera/wire"
)

// Config is the configuration of one camera: the parameters of the
// camera_publisher node for that camera. The zero value of every field but
// Name means "default"; New and Normalize fill the defaults and validate.
type Config struct {
	// Name names the camera; its topics live under it ("front/image_raw").
	// Required: a ROS name token, letter first, then letters, digits, '_'.
	Name string
	// Device is the V4L2 device node. Default "/dev/video0".
	// "pattern:<label>" selects the synthetic test source instead (see
	// PatternPrefix): no device, generated frames, for tests only.
	Device string
	// Width and Height are the requested image size [px]; the driver may
	// pick the nearest size it supports (Device.Negotiated tells). Default
	// 640 x 480.
	Width, Height int
	// FrameRate is the requested frame rate [Hz]; the driver may pick the
	// nearest rate it supports. Default 30.
	FrameRate float64
	// PixelFormat is the V4L2 pixel format, by name ("YUYV", "UYVY",
	// "GREY", "GRBG", "MJPG", ...; see wire.Formats). Default "YUYV".
	PixelFormat string
	// Encoding overrides the ROS encoding derived from PixelFormat; only
	// layout-preserving overrides are accepted (see wire.ResolveEncoding).
	// Default "" (derived).
	Encoding string
	// FrameID is the frame_id stamped on images and camera info. Default
	// "<Name>_optical_frame".
	FrameID string
	// CameraInfoURL locates the calibration YAML: "file:///abs/path.yaml"
	// or "package://pkg/path.yaml". Default "" (uncalibrated: camera info
	// with only the size).
	CameraInfoURL string
	// BufferCount is the number of mmap'ed driver buffers requested [1];
	// the driver may grant more. Range 2..32, default 4.
	BufferCount int
	// Controls are V4L2 control values to apply after opening, by control
	// name in parameter form ("exposure_absolute", "gain"; see
	// wire.ControlParamName). Default none.
	Controls map[string]int64
	// Draw, when set, makes the camera a synthetic source whose pictures
	// Draw paints (a rendered camera of the training world, e.g. Device
	// "world:front", any non-empty label): it runs like the test pattern
	// (frames at FrameRate while someone subscribes, none otherwise) and
	// calls Draw on the camera's goroutine for each frame it delivers.
	// Uncompressed formats only.
	Draw DrawFunc
}

// DrawFunc paints one picture into buf: height rows of step bytes of
// format f (top row first). An error is a lost device (closed and
// reopened after a backoff).
type DrawFunc func(buf []byte, f wire.Format, step, height uint32) error

// Defaults of Config.
const (
	DefaultDevice      = "/dev/video0"
	DefaultWidth       = 640
	DefaultHeight      = 480
	DefaultFrameRate   = 30.0
	DefaultPixelFormat = "YUYV"
	DefaultBufferCount = 4
)

// Ranges of the numeric parameters (inclusive), shared by Normalize and the
// parameter table.
const (
	MaxSize        = 16384 // largest width or height [px]
	MinFrameRate   = 0.1   // [Hz]
	MaxFrameRate   = 1000  // [Hz]
	MinBufferCount = 2
	MaxBufferCount = 32
)

// OpticalFrame is the optical frame of camera name when its FrameID is
// not set: "<name>_optical_frame".
func OpticalFrame(name string) string { return name + "_optical_frame" }

// Normalize returns c with defaults filled in, or an error wrapping
// ErrBadParam, ErrUnsupportedFormat or ErrBadEncoding naming the first bad
// field.
func (c Config) Normalize() (Config, error) {
	if !ValidName(c.Name) {
		return c, fmt.Errorf("camera: name %q: want a letter then letters, digits or '_': %w", c.Name, ErrBadParam)
	}
	c.Device = cmp.Or(c.Device, DefaultDevice)
	c.Width = cmp.Or(c.Width, DefaultWidth)
	c.Height = cmp.Or(c.Height, DefaultHeight)
	c.FrameRate = cmp.Or(c.FrameRate, DefaultFrameRate)
	c.PixelFormat = cmp.Or(c.PixelFormat, DefaultPixelFormat)
	c.FrameID = cmp.Or(c.FrameID, OpticalFrame(c.Name))
	c.BufferCount = cmp.Or(c.BufferCount, DefaultBufferCount)
	if err := CheckDevice(c.Device); err != nil && c.Draw == nil {
		return c, fmt.Errorf("camera %s: %w", c.Name, err)
	}
	checks := []struct {
		name     string
		v        float64
		min, max float64
	}{
		{ParamWidth, float64(c.Width), 1, MaxSize},
		{ParamHeight, float64(c.Height), 1, MaxSize},
		{ParamFrameRate, c.FrameRate, MinFrameRate, MaxFrameRate},
		{ParamBufferCount, float64(c.BufferCount), MinBufferCount, MaxBufferCount},
	}
	for _, k := range checks {
		if !(k.v >= k.min && k.v <= k.max) { // also refuses NaN
			return c, fmt.Errorf("camera %s: %s = %v: want %v..%v: %w", c.Name, k.name, k.v, k.min, k.max, ErrBadParam)
		}
	}
	f, err := wire.ParsePixelFormat(c.PixelFormat)
	if err != nil {
		return c, fmt.Errorf("camera %s: %w", c.Name, err)
	}
	c.PixelFormat = f.Name
	if _, err := wire.ResolveEncoding(f, c.Encoding); err != nil {
		return c, fmt.Errorf("camera %s: %w", c.Name, err)
	}
	if c.CameraInfoURL != "" {
		if _, err := ParseInfoURL(c.CameraInfoURL); err != nil {
			return c, fmt.Errorf("camera %s: %w", c.Name, err)
		}
	}
	for name := range c.Controls {
		if !ValidName(name) {
			return c, fmt.Errorf("camera %s: control %q: %w", c.Name, name, ErrBadParam)
		}
	}
	return c, nil
}

// CheckDevice checks a device string: an absolute path, or the test
// source (PatternPrefix); errors wrap ErrBadParam.
func CheckDevice(d string) error {
	if !strings.HasPrefix(d, "/") && !IsPattern(d) {
		return fmt.Errorf("device %q: want an absolute path (or %s<label>, the test source): %w", d, PatternPrefix, ErrBadParam)
	}
	return nil
}

// ValidName reports whether s is a name token of the node (a camera name,
// a control's parameter form): a letter first, then letters, digits or
// '_'.
func ValidName(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z':
		case i > 0 && (r >= '0' && r <= '9' || r == '_'):
		default:
			return false
		}
	}
	return true
}

// Parameter names, relative to the camera ("front_left.width").
const (
	ParamDevice        = "device"
	ParamWidth         = "width"
	ParamHeight        = "height"
	ParamFrameRate     = "frame_rate"
	ParamPixelFormat   = "pixel_format"
	ParamEncoding      = "encoding"
	ParamFrameID       = "frame_id"
	ParamCameraInfoURL = "camera_info_url"
	ParamBufferCount   = "buffer_count"
)
