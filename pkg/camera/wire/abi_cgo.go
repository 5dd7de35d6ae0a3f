//go:build linux && cgo

package wire

/*
#include <stddef.h>
#include <linux/videodev2.h>

enum { offBufTimestamp = offsetof(struct v4l2_buffer, timestamp) };
enum { offBufSequence = offsetof(struct v4l2_buffer, sequence) };
enum { offBufM = offsetof(struct v4l2_buffer, m) };
enum { offBufLength = offsetof(struct v4l2_buffer, length) };
*/
import "C"

// abiFromHeader returns the kernel's own numbers for the hand-written
// layouts and request codes of ioctl_linux.go, for the test that compares
// them.
func abiFromHeader() map[string]uintptr {
	return map[string]uintptr{
		"sizeof v4l2_buffer":                uintptr(C.sizeof_struct_v4l2_buffer),
		"sizeof v4l2_requestbuffers":        uintptr(C.sizeof_struct_v4l2_requestbuffers),
		"offsetof timestamp":                uintptr(C.offBufTimestamp),
		"offsetof sequence":                 uintptr(C.offBufSequence),
		"offsetof m":                        uintptr(C.offBufM),
		"offsetof length":                   uintptr(C.offBufLength),
		"VIDIOC_REQBUFS":                    uintptr(C.VIDIOC_REQBUFS),
		"VIDIOC_QUERYBUF":                   uintptr(C.VIDIOC_QUERYBUF),
		"VIDIOC_QBUF":                       uintptr(C.VIDIOC_QBUF),
		"VIDIOC_DQBUF":                      uintptr(C.VIDIOC_DQBUF),
		"VIDIOC_STREAMON":                   uintptr(C.VIDIOC_STREAMON),
		"VIDIOC_STREAMOFF":                  uintptr(C.VIDIOC_STREAMOFF),
		"V4L2_BUF_FLAG_ERROR":               uintptr(C.V4L2_BUF_FLAG_ERROR),
		"V4L2_BUF_FLAG_TIMESTAMP_MASK":      uintptr(C.V4L2_BUF_FLAG_TIMESTAMP_MASK),
		"V4L2_BUF_FLAG_TIMESTAMP_MONOTONIC": uintptr(C.V4L2_BUF_FLAG_TIMESTAMP_MONOTONIC),
		"V4L2_CTRL_TYPE_INTEGER":            uintptr(C.V4L2_CTRL_TYPE_INTEGER),
		"V4L2_CTRL_TYPE_BOOLEAN":            uintptr(C.V4L2_CTRL_TYPE_BOOLEAN),
		"V4L2_CTRL_TYPE_MENU":               uintptr(C.V4L2_CTRL_TYPE_MENU),
		"V4L2_CTRL_TYPE_BUTTON":             uintptr(C.V4L2_CTRL_TYPE_BUTTON),
		"V4L2_CTRL_TYPE_INTEGER64":          uintptr(C.V4L2_CTRL_TYPE_INTEGER64),
		"V4L2_CTRL_TYPE_CTRL_CLASS":         uintptr(C.V4L2_CTRL_TYPE_CTRL_CLASS),
		"V4L2_CTRL_TYPE_STRING":             uintptr(C.V4L2_CTRL_TYPE_STRING),
		"V4L2_CTRL_TYPE_BITMASK":            uintptr(C.V4L2_CTRL_TYPE_BITMASK),
		"V4L2_CTRL_TYPE_INTEGER_MENU":       uintptr(C.V4L2_CTRL_TYPE_INTEGER_MENU),
	}
}
