//go:build linux && cgo

package wire

import (
	"unsafe"

	"golang.org/x/sys/unix"
)

// The streaming ioctls (REQBUFS, QUERYBUF, QBUF, DQBUF, STREAMON,
// STREAMOFF) are issued here rather than through go4vl, for three reasons:
//   - go4vl's streaming helpers need its whole Device interface (channels,
//     Start/Stop) that pkg/camera does not use;
//   - go4vl passes the address of a stack variable as a uintptr through
//     ordinary functions before the syscall, which the unsafe.Pointer rules
//     do not allow (the stack may move); here the conversion happens in the
//     unix.Syscall call expression itself;
//   - go4vl maps ENODEV, EIO and others to one "system error" and drops the
//     errno, and wraps every error with fmt.Errorf (allocating); the
//     per-frame path needs the errno to tell device loss from EAGAIN and
//     must not allocate.
// The layouts (buffer.go) are those of <linux/videodev2.h> on 64-bit
// Linux; abi_cgo.go takes the same numbers from the header and a test
// compares.

func iowr(nr, size uintptr) uintptr { return 3<<30 | size<<16 | 'V'<<8 | nr }
func iow(nr, size uintptr) uintptr  { return 1<<30 | size<<16 | 'V'<<8 | nr }

var (
	vidiocREQBUFS   = iowr(8, unsafe.Sizeof(RequestBuffers{}))
	vidiocQUERYBUF  = iowr(9, unsafe.Sizeof(Buffer{}))
	vidiocQBUF      = iowr(15, unsafe.Sizeof(Buffer{}))
	vidiocDQBUF     = iowr(17, unsafe.Sizeof(Buffer{}))
	vidiocSTREAMON  = iow(18, unsafe.Sizeof(int32(0)))
	vidiocSTREAMOFF = iow(19, unsafe.Sizeof(int32(0)))
)

// QueryBuffer asks for the offset and length of buffer b.Index
// (VIDIOC_QUERYBUF). Like every ioctl here it retries on EINTR, returns the
// kernel's errno as it is (unix.Errno, not wrapped) and allocates nothing.
func QueryBuffer(fd int, b *Buffer) error { return ioctlBuffer(fd, vidiocQUERYBUF, b) }

// QueueBuffer hands buffer b.Index to the driver to fill (VIDIOC_QBUF).
func QueueBuffer(fd int, b *Buffer) error { return ioctlBuffer(fd, vidiocQBUF, b) }

// DequeueBuffer takes the next filled buffer from the driver into b
// (VIDIOC_DQBUF); EAGAIN when none is ready on a non-blocking descriptor.
func DequeueBuffer(fd int, b *Buffer) error { return ioctlBuffer(fd, vidiocDQBUF, b) }

// StreamOn starts video capture (VIDIOC_STREAMON).
func StreamOn(fd int) error { return ioctlStream(fd, vidiocSTREAMON) }

// StreamOff stops video capture (VIDIOC_STREAMOFF), which also takes every
// queued buffer back from the driver.
func StreamOff(fd int) error { return ioctlStream(fd, vidiocSTREAMOFF) }

// ioctlBuffer issues a v4l2_buffer ioctl, retrying on EINTR.
func ioctlBuffer(fd int, req uintptr, b *Buffer) error {
	for {
		_, _, e := unix.Syscall(unix.SYS_IOCTL, uintptr(fd), req, uintptr(unsafe.Pointer(b)))
		if e != unix.EINTR {
			return errnoErr(e)
		}
	}
}

// RequestBufs asks the driver for r.Count buffers (VIDIOC_REQBUFS); the
// driver writes the count it granted back into r. Count 0 frees them.
func RequestBufs(fd int, r *RequestBuffers) error {
	for {
		_, _, e := unix.Syscall(unix.SYS_IOCTL, uintptr(fd), vidiocREQBUFS, uintptr(unsafe.Pointer(r)))
		if e != unix.EINTR {
			return errnoErr(e)
		}
	}
}

func ioctlStream(fd int, req uintptr) error {
	t := int32(BufTypeVideoCapture)
	for {
		_, _, e := unix.Syscall(unix.SYS_IOCTL, uintptr(fd), req, uintptr(unsafe.Pointer(&t)))
		if e != unix.EINTR {
			return errnoErr(e)
		}
	}
}

// errnoErr returns nil for 0 and the Errno itself otherwise (Errno values
// are not allocated when converted to error).
func errnoErr(e unix.Errno) error {
	if e == 0 {
		return nil
	}
	return e
}

// IsDeviceLost reports whether err means the device is gone or broken and
// must be reopened.
func IsDeviceLost(err error) bool {
	switch err {
	case unix.ENODEV, unix.ENXIO, unix.EIO, unix.EBADF, unix.ESHUTDOWN, unix.EPIPE:
		return true
	}
	return false
}

// MapBuffer maps the driver buffer that QueryBuffer described in b into
// memory (read-write, shared with the driver). Release it with UnmapBuffer.
func MapBuffer(fd int, b *Buffer) ([]byte, error) {
	return unix.Mmap(fd, int64(uint32(b.Offset)), int(b.Length), unix.PROT_READ|unix.PROT_WRITE, unix.MAP_SHARED)
}

// UnmapBuffer releases a buffer MapBuffer mapped.
func UnmapBuffer(m []byte) error { return unix.Munmap(m) }
