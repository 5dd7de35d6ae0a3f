//go:build linux && cgo

package wire

import (
	"testing"
	"unsafe"
)

func TestABIMatchesHeader(t *testing.T) {
	var b Buffer
	ours := map[string]uintptr{
		"sizeof v4l2_buffer":                unsafe.Sizeof(b),
		"sizeof v4l2_requestbuffers":        unsafe.Sizeof(RequestBuffers{}),
		"offsetof timestamp":                unsafe.Offsetof(b.Sec),
		"offsetof sequence":                 unsafe.Offsetof(b.Sequence),
		"offsetof m":                        unsafe.Offsetof(b.Offset),
		"offsetof length":                   unsafe.Offsetof(b.Length),
		"VIDIOC_REQBUFS":                    vidiocREQBUFS,
		"VIDIOC_QUERYBUF":                   vidiocQUERYBUF,
		"VIDIOC_QBUF":                       vidiocQBUF,
		"VIDIOC_DQBUF":                      vidiocDQBUF,
		"VIDIOC_STREAMON":                   vidiocSTREAMON,
		"VIDIOC_STREAMOFF":                  vidiocSTREAMOFF,
		"V4L2_BUF_FLAG_ERROR":               BufFlagError,
		"V4L2_BUF_FLAG_TIMESTAMP_MASK":      BufFlagTimestampMask,
		"V4L2_BUF_FLAG_TIMESTAMP_MONOTONIC": BufFlagTimestampMonotonic,
		"V4L2_CTRL_TYPE_INTEGER":            ctrlTypeInteger,
		"V4L2_CTRL_TYPE_BOOLEAN":            ctrlTypeBoolean,
		"V4L2_CTRL_TYPE_MENU":               ctrlTypeMenu,
		"V4L2_CTRL_TYPE_BUTTON":             ctrlTypeButton,
		"V4L2_CTRL_TYPE_INTEGER64":          ctrlTypeInteger64,
		"V4L2_CTRL_TYPE_CTRL_CLASS":         ctrlTypeClass,
		"V4L2_CTRL_TYPE_STRING":             ctrlTypeString,
		"V4L2_CTRL_TYPE_BITMASK":            ctrlTypeBitmask,
		"V4L2_CTRL_TYPE_INTEGER_MENU":       ctrlTypeIntegerMenu,
	}
	kernel := abiFromHeader()
	if len(kernel) != len(ours) {
		t.Fatalf("compared %d names, header gave %d", len(ours), len(kernel))
	}
	for name, want := range kernel {
		if got := ours[name]; got != want {
			t.Errorf("%s = %#x, <linux/videodev2.h> says %#x", name, got, want)
		}
	}
}
