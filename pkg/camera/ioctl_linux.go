//go:build linux && cgo

package camera

import (
	"unsafe"

	"golang.org/x/sys/unix"
)

// The streaming ioctls (REQBUFS, QUERYBUF, QBUF, DQBUF, STREAMON,
// STREAMOFF) are issued here rather than through go4vl, for three reasons:
//   - go4vl's streaming helpers need its whole Device interface (channels,
//     Start/Stop) that this package does not use;
//   - go4vl passes the address of a stack variable as a uintptr through
//     ordinary functions before the syscall, which the unsafe.Pointer rules
//     do not allow (the stack may move); here the conversion happens in the
//     unix.Syscall call expression itself;
//   - go4vl maps ENODEV, EIO and others to one "system error" and drops the
//     errno, and wraps every error with fmt.Errorf (allocating); the
//     per-frame path needs the errno to tell device loss from EAGAIN and
//     must not allocate.
// The layouts below are those of <linux/videodev2.h> on 64-bit Linux;
// abi_cgo.go takes the same numbers from the header and a test compares.

// v4l2Buffer is struct v4l2_buffer (88 bytes on 64-bit Linux).
type v4l2Buffer struct {
	Index     uint32
	Type      uint32
	BytesUsed uint32
	Flags     uint32
	Field     uint32
	_         uint32
	Sec       int64 // timestamp.tv_sec
	Usec      int64 // timestamp.tv_usec
	Timecode  [16]byte
	Sequence  uint32
	Memory    uint32
	Offset    uint64 // union m: mem_offset for MMAP (low 32 bits)
	Length    uint32
	_         uint32 // reserved2
	_         uint32 // request_fd / reserved
	_         uint32
}

// v4l2RequestBuffers is struct v4l2_requestbuffers (20 bytes).
type v4l2RequestBuffers struct {
	Count        uint32
	Type         uint32
	Memory       uint32
	Capabilities uint32
	Flags        uint32 // flags (u8) + reserved[3]
}

const (
	bufTypeVideoCapture = 1 // V4L2_BUF_TYPE_VIDEO_CAPTURE
	memoryMMAP          = 1 // V4L2_MEMORY_MMAP

	// Timestamp flags of v4l2_buffer.flags.
	bufFlagTimestampMask      = 0x0000e000
	bufFlagTimestampMonotonic = 0x00002000
)

func iowr(nr, size uintptr) uintptr { return 3<<30 | size<<16 | 'V'<<8 | nr }
func iow(nr, size uintptr) uintptr  { return 1<<30 | size<<16 | 'V'<<8 | nr }

var (
	vidiocREQBUFS   = iowr(8, unsafe.Sizeof(v4l2RequestBuffers{}))
	vidiocQUERYBUF  = iowr(9, unsafe.Sizeof(v4l2Buffer{}))
	vidiocQBUF      = iowr(15, unsafe.Sizeof(v4l2Buffer{}))
	vidiocDQBUF     = iowr(17, unsafe.Sizeof(v4l2Buffer{}))
	vidiocSTREAMON  = iow(18, unsafe.Sizeof(int32(0)))
	vidiocSTREAMOFF = iow(19, unsafe.Sizeof(int32(0)))
)

// ioctlBuffer issues a v4l2_buffer ioctl, retrying on EINTR.
func ioctlBuffer(fd int, req uintptr, b *v4l2Buffer) error {
	for {
		_, _, e := unix.Syscall(unix.SYS_IOCTL, uintptr(fd), req, uintptr(unsafe.Pointer(b)))
		if e != unix.EINTR {
			return errnoErr(e)
		}
	}
}

func ioctlReqBufs(fd int, r *v4l2RequestBuffers) error {
	for {
		_, _, e := unix.Syscall(unix.SYS_IOCTL, uintptr(fd), vidiocREQBUFS, uintptr(unsafe.Pointer(r)))
		if e != unix.EINTR {
			return errnoErr(e)
		}
	}
}

func ioctlStream(fd int, req uintptr) error {
	t := int32(bufTypeVideoCapture)
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

// isDeviceLost reports whether err means the device is gone or broken and
// must be reopened.
func isDeviceLost(err error) bool {
	switch err {
	case unix.ENODEV, unix.ENXIO, unix.EIO, unix.EBADF, unix.ESHUTDOWN, unix.EPIPE:
		return true
	}
	return false
}
