//go:build linux && cgo

package wire

import (
	"fmt"
	"path/filepath"
	"sort"

	"github.com/vladimirvivien/go4vl/v4l2"
	"golang.org/x/sys/unix"
)

// DeviceInfo describes a V4L2 device node: identity and what it offers.
type DeviceInfo struct {
	Path    string       // e.g. "/dev/video0"
	Driver  string       // the kernel driver's name (VIDIOC_QUERYCAP)
	Card    string       // the device's name (VIDIOC_QUERYCAP)
	Capture bool         // single-planar video capture with streaming I/O
	Formats []FormatInfo // the pixel formats offered for capture
}

// FormatInfo is one pixel format a device offers.
type FormatInfo struct {
	FourCC      FourCC // the pixel format
	Description string // the driver's description of it
	// Publishable is true when the package publishes this format without
	// conversion (see LookupFormat).
	Publishable bool
	Sizes       []SizeInfo // the discrete frame sizes offered
	// Stepwise is set instead of Sizes for devices with a continuous or
	// stepwise size range: "min..max/step".
	Stepwise string
}

// SizeInfo is one discrete frame size with the frame rates it offers.
type SizeInfo struct {
	Width, Height uint32    // [px]
	Rates         []float64 // [Hz], discrete intervals only
}

// ListDevices describes every /dev/video* node (sorted by path). A node
// that cannot be opened or queried is listed with what is known and its
// error folded into Card.
func ListDevices() ([]DeviceInfo, error) {
	paths, err := filepath.Glob("/dev/video*")
	if err != nil {
		return nil, fmt.Errorf("camera: list devices: %w", err)
	}
	sort.Strings(paths)
	out := make([]DeviceInfo, 0, len(paths))
	for _, p := range paths {
		out = append(out, DescribeDevice(p))
	}
	return out, nil
}

// DescribeDevice opens path briefly and describes it (see ListDevices).
func DescribeDevice(path string) DeviceInfo {
	info := DeviceInfo{Path: path}
	fd, err := OpenNode(path)
	if err != nil {
		info.Card = "(" + err.Error() + ")"
		return info
	}
	defer unix.Close(fd)
	capab, err := v4l2.GetCapability(uintptr(fd))
	if err != nil {
		info.Card = "(query capabilities: " + err.Error() + ")"
		return info
	}
	info.Driver, info.Card = capab.Driver, capab.Card
	info.Capture = capab.IsVideoCaptureSupported() && capab.IsStreamingSupported()
	if !info.Capture {
		return info
	}
	descs, _ := v4l2.GetAllFormatDescriptions(uintptr(fd))
	for _, d := range descs {
		fi := FormatInfo{FourCC: FourCC(d.PixelFormat), Description: d.Description}
		_, fi.Publishable = LookupFormat(fi.FourCC)
		sizes, _ := v4l2.GetFormatFrameSizes(uintptr(fd), d.PixelFormat)
		for _, s := range sizes {
			if s.Type != v4l2.FrameSizeTypeDiscrete {
				fi.Stepwise = fmt.Sprintf("%dx%d..%dx%d/%dx%d", s.Size.MinWidth, s.Size.MinHeight,
					s.Size.MaxWidth, s.Size.MaxHeight, s.Size.StepWidth, s.Size.StepHeight)
				break
			}
			si := SizeInfo{Width: s.Size.MinWidth, Height: s.Size.MinHeight}
			for i := uint32(0); i < 64; i++ {
				iv, err := v4l2.GetFormatFrameInterval(uintptr(fd), i, d.PixelFormat, si.Width, si.Height)
				if err != nil || iv.Type != v4l2.FrameIntervalTypeDiscrete {
					break
				}
				if f := iv.Interval.Min; f.Numerator != 0 {
					si.Rates = append(si.Rates, float64(f.Denominator)/float64(f.Numerator))
				}
			}
			fi.Sizes = append(fi.Sizes, si)
		}
		info.Formats = append(info.Formats, fi)
	}
	return info
}
