//go:build linux && cgo

package wire

import (
	"fmt"
	"math"
	"os"

	"github.com/vladimirvivien/go4vl/v4l2"
	"golang.org/x/sys/unix"
)

// OpenNode opens a device node read-write and non-blocking (the capture
// loop polls). Errors wrap ErrNoDevice.
func OpenNode(path string) (int, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return -1, fmt.Errorf("camera: %s: %w: %w", path, ErrNoDevice, err)
	}
	if fi.Mode()&os.ModeCharDevice == 0 {
		return -1, fmt.Errorf("camera: %s: not a character device: %w", path, ErrNoDevice)
	}
	for {
		fd, err := unix.Open(path, unix.O_RDWR|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return -1, fmt.Errorf("camera: open %s: %w: %w", path, ErrNoDevice, err)
		}
		return fd, nil
	}
}

// Caps is what VIDIOC_QUERYCAP tells of a device.
type Caps struct {
	Driver string // driver name
	Card   string // device name
	// Capture is true for a single-planar video capture device with
	// streaming I/O, the only kind pkg/camera drives.
	Capture bool
}

// QueryCaps asks the device for its identity and capabilities
// (VIDIOC_QUERYCAP).
func QueryCaps(fd int) (Caps, error) {
	c, err := v4l2.GetCapability(uintptr(fd))
	if err != nil {
		return Caps{}, err
	}
	return Caps{Driver: c.Driver, Card: c.Card, Capture: c.IsVideoCaptureSupported() && c.IsStreamingSupported()}, nil
}

// PixFormat is the capture format a driver set (VIDIOC_G_FMT).
type PixFormat struct {
	FourCC        FourCC // the pixel format
	Width, Height uint32 // [px]
	BytesPerLine  uint32 // row length the driver uses [bytes]; may be 0 or padded
}

// SetFormat asks for pixel format f at width x height [px], progressive
// (VIDIOC_S_FMT). The driver may choose another; GetFormat tells.
func SetFormat(fd int, f FourCC, width, height uint32) error {
	return v4l2.SetPixFormat(uintptr(fd), v4l2.PixFormat{
		Width: width, Height: height, PixelFormat: uint32(f), Field: v4l2.FieldNone,
	})
}

// GetFormat reads the capture format the driver set (VIDIOC_G_FMT).
func GetFormat(fd int) (PixFormat, error) {
	pf, err := v4l2.GetPixFormat(uintptr(fd))
	if err != nil {
		return PixFormat{}, err
	}
	return PixFormat{FourCC: FourCC(pf.PixelFormat), Width: pf.Width, Height: pf.Height, BytesPerLine: pf.BytesPerLine}, nil
}

// SetFrameRate asks for rate [Hz] as the frame interval 1000/(rate*1000)
// when the driver supports setting it (VIDIOC_S_PARM), then returns the
// rate the driver set, read back with VIDIOC_G_PARM (go4vl's GetFrameRate
// would echo the request); 0 when the driver does not say.
func SetFrameRate(fd int, rate float64) (float64, error) {
	sp, err := v4l2.GetStreamParam(uintptr(fd), v4l2.BufTypeVideoCapture)
	if err != nil {
		return 0, fmt.Errorf("get stream parameters: %w", err)
	}
	if sp.Capture.Capability&v4l2.StreamParamTimePerFrame != 0 {
		sp.Capture.TimePerFrame = v4l2.Fract{Numerator: 1000, Denominator: uint32(math.Round(rate * 1000))}
		if err := v4l2.SetStreamParam(uintptr(fd), v4l2.BufTypeVideoCapture, sp); err != nil {
			return 0, fmt.Errorf("set frame rate %g Hz: %w", rate, err)
		}
		if sp, err = v4l2.GetStreamParam(uintptr(fd), v4l2.BufTypeVideoCapture); err != nil {
			return 0, fmt.Errorf("get stream parameters: %w", err)
		}
	}
	if tpf := sp.Capture.TimePerFrame; tpf.Numerator != 0 {
		return float64(tpf.Denominator) / float64(tpf.Numerator), nil
	}
	return 0, nil
}
