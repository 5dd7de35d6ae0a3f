package wire

import "errors"

// Sentinel errors of the V4L2 layer; returned errors wrap them with
// context (and, for device errors, the kernel's errno).
var (
	// ErrUnsupportedFormat: the pixel format is not one the package
	// publishes without conversion, or the device does not offer it.
	ErrUnsupportedFormat = errors.New("unsupported pixel format")
	// ErrBadEncoding: the encoding parameter does not match the pixel
	// format's byte layout.
	ErrBadEncoding = errors.New("encoding does not match pixel format")
	// ErrNoDevice: the device node does not exist or is not a V4L2 video
	// capture device with streaming I/O.
	ErrNoDevice = errors.New("no V4L2 capture device")
)
