// Package wire is the camera's wire: for a camera that is the kernel's
// V4L2 interface. It holds the binding to <linux/videodev2.h> and nothing
// else: the layouts of struct v4l2_buffer and v4l2_requestbuffers with
// the streaming ioctls on them (QueryBuffer, QueueBuffer, DequeueBuffer,
// StreamOn, StreamOff, RequestBufs) and the mmap of driver buffers
// (MapBuffer); opening a device node (OpenNode) and negotiating format,
// size and frame rate (QueryCaps, SetFormat, GetFormat, SetFrameRate);
// listing and setting controls (QueryControls, ControlValue,
// SetControlValue; Control, with its parameter form ControlParamName);
// enumerating devices, formats, sizes and rates (ListDevices,
// DescribeDevice); the pixel format table, V4L2 fourcc -> byte layout
// and the ROS encoding it carries without conversion (FourCC, Format,
// LookupFormat, ParsePixelFormat, ResolveEncoding, ImageSize); and the
// check of a dequeued buffer's flags and size (Classify).
//
// No clock, no goroutine, no state: every function takes a file
// descriptor and returns what the kernel said. The per-frame ioctls return
// the kernel's errno as it is (unix.Errno; IsDeviceLost tells a lost
// device) and allocate nothing. Sizes are in pixels [px] and bytes
// [bytes], frame rates in [Hz].
//
// The ioctl files are built for linux && cgo (go4vl's v4l2 package reads
// the kernel headers through cgo; abi_cgo.go takes the hand-written
// layouts' numbers from the header and TestABIMatchesHeader compares).
// The pixel format table and Classify are pure Go and build everywhere.
// pkg/camera drives a device with this package; pkg/camera/node reads
// nothing from it but Control.
package wire
