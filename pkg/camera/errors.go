package camera

import (
	"errors"

	"github.com/telebridge/telebridge/pkg/camera/wire"
)

// Sentinel errors callers branch on; returned errors wrap them with context
// (and, for device errors, the kernel's errno).
var (
	// ErrBadParam: a parameter is out of range or malformed.
	ErrBadParam = errors.New("bad parameter")
	// ErrDeviceLost: the device went away while open (ENODEV, EIO, POLLERR):
	// close it and open it again.
	ErrDeviceLost = errors.New("device lost")
	// ErrTimeout: no frame arrived within the wait.
	ErrTimeout = errors.New("timed out waiting for a frame")
	// ErrNotStreaming: Next was called while the stream is off.
	ErrNotStreaming = errors.New("not streaming")
	// ErrClosed: the device or camera was closed.
	ErrClosed = errors.New("closed")
	// ErrNoControl: the device has no control of that name or id.
	ErrNoControl = errors.New("no such control")

	// ErrUnsupportedFormat, ErrBadEncoding and ErrNoDevice are the V4L2
	// layer's (package wire), which the runtime's errors wrap too.
	ErrUnsupportedFormat = wire.ErrUnsupportedFormat
	ErrBadEncoding       = wire.ErrBadEncoding
	ErrNoDevice          = wire.ErrNoDevice
)
