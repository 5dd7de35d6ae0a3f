package camera

import (
	"sync/atomic"
	"time"
)

// Header is the std_msgs/Header of a message: the capture time and the
// coordinate frame.
type Header struct {
	Stamp   time.Time // capture time, wall clock (see control.ClockOffset)
	FrameID string    // the optical frame, e.g. "camera_optical_frame"
}

// Frame is one captured frame, shaped like sensor_msgs/Image (and
// sensor_msgs/CompressedImage when Compressed).
//
// Ownership: a Frame passed to a FrameFunc, and its Data, are lent for the
// duration of the call. Data is the driver's memory-mapped buffer; it is
// queued back to the driver when the call returns and the driver then
// overwrites it. Copy what you keep (CopyTo, CopyToCompressed).
type Frame struct {
	Header      Header // capture time and optical frame
	Height      uint32 // [px]
	Width       uint32 // [px]
	Encoding    string // ROS encoding, e.g. "yuv422_yuy2"; "jpeg" when Compressed
	IsBigEndian uint8  // always 0: V4L2 multi-byte formats used here are little-endian
	Step        uint32 // row length [bytes]; 0 when Compressed
	Data        []byte // the image bytes (borrowed, see above)

	// Compressed is true for MJPG/JPEG: publish as CompressedImage.
	Compressed bool
	// Sequence is the driver's frame counter (v4l2_buffer.sequence); a gap
	// means frames the driver dropped.
	Sequence uint32
	// Index is the driver buffer index the data lives in.
	Index int

	copies *atomic.Uint64 // the owning device's copy counter; may be nil
}

// FrameFunc consumes a frame. It runs on the capture goroutine and must
// return before the buffer can be reused; see Frame for what it may keep.
type FrameFunc func(*Frame)

// Image is an owned sensor_msgs/Image: the message a publisher fills and
// sends. Reuse one Image per camera so that CopyTo does not allocate.
type Image struct {
	Header      Header // capture time and optical frame
	Height      uint32 // [px]
	Width       uint32 // [px]
	Encoding    string // ROS encoding, e.g. "yuv422_yuy2"
	IsBigEndian uint8  // always 0 (little-endian)
	Step        uint32 // row length [bytes]
	Data        []byte // the image bytes, owned
}

// CompressedImage is an owned sensor_msgs/CompressedImage.
type CompressedImage struct {
	Header Header // capture time and optical frame
	Format string // "jpeg"
	Data   []byte // the JPEG bytes, owned
}

// CopyTo copies f into img, reusing img.Data when its capacity suffices.
// This is the one copy of the image bytes between the driver and the
// publisher; it is counted in Stats.Copies of the device the frame came
// from.
func (f *Frame) CopyTo(img *Image) {
	img.Header = f.Header
	img.Height, img.Width = f.Height, f.Width
	img.Encoding = f.Encoding
	img.IsBigEndian = f.IsBigEndian
	img.Step = f.Step
	img.Data = copyInto(img.Data, f.Data)
	if f.copies != nil {
		f.copies.Add(1)
	}
}

// CopyToCompressed copies a compressed f into c, reusing c.Data when its
// capacity suffices; counted like CopyTo.
func (f *Frame) CopyToCompressed(c *CompressedImage) {
	c.Header = f.Header
	c.Format = f.Encoding
	c.Data = copyInto(c.Data, f.Data)
	if f.copies != nil {
		f.copies.Add(1)
	}
}

func copyInto(dst, src []byte) []byte {
	if cap(dst) < len(src) {
		dst = make([]byte, len(src))
	}
	dst = dst[:len(src)]
	copy(dst, src)
	return dst
}
