package camera

import "errors"

// Sentinel errors callers branch on; returned errors wrap them with context
// (and, for device errors, the kernel's errno).
var (
	// ErrUnsupportedFormat: the pixel format is not one the package
	// publishes without conversion, or the device does not offer it.
	ErrUnsupportedFormat = errors.New("unsupported pixel format")
	// ErrBadEncoding: the encoding parameter does not match the pixel
	// format's byte layout.
	ErrBadEncoding = errors.New("encoding does not match pixel format")
	// ErrBadParam: a parameter is out of range or malformed.
	ErrBadParam = errors.New("bad parameter")
	// ErrNoDevice: the device node does not exist or is not a V4L2 video
	// capture device with streaming I/O.
	ErrNoDevice = errors.New("no V4L2 capture device")
	// ErrDeviceLost: the device went away while open (ENODEV, EIO, POLLERR):
	// close it and open it again.
	ErrDeviceLost = errors.New("device lost")
	// ErrTimeout: no frame arrived within the wait.
	ErrTimeout = errors.New("timed out waiting for a frame")
	// ErrNotStreaming: Next was called while the stream is off.
	ErrNotStreaming = errors.New("not streaming")
	// ErrClosed: the device or camera was closed.
	ErrClosed = errors.New("closed")
	// ErrCalibration: a calibration file is malformed or inconsistent.
	ErrCalibration = errors.New("bad calibration")
	// ErrNoControl: the device has no control of that name or id.
	ErrNoControl = errors.New("no such control")
)
