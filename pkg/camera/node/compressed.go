package node

import (
	"sync/atomic"

	"github.com/telebridge/telebridge/pkg/camera"
	"github.com/telebridge/telebridge/pkg/camera/compress"
)

// Wants is what a camera's consumers ask of the next frame: the raw
// image, its JPEG, an RTP stream. The ROS layer fills it from the
// subscription counts; the capture goroutine reads it per frame.
type Wants struct {
	Raw        int  // subscribers of image_raw
	Compressed int  // subscribers of image_raw/compressed
	Info       int  // subscribers of camera_info
	RTP        bool // the camera streams over RTP (Output.RTP)
}

// Images is the image-side demand to hand to camera.Camera.SetSubscribers:
// the subscribers of both image topics, plus one for a running RTP stream,
// which keeps the camera capturing while the node runs.
func (w Wants) Images() int {
	n := max(w.Raw, 0) + max(w.Compressed, 0)
	if w.RTP {
		n++
	}
	return n
}

// Compressor makes the image_raw/compressed message of one camera: the
// JPEG of a raw frame (pkg/camera/compress), or a MJPG/JPEG frame as it
// is. Call Compress only while image_raw/compressed has a subscriber:
// encoding is the expensive part of a frame. Compress and Release belong
// to the capture goroutine; SetQuality may be called from any goroutine.
type Compressor struct {
	// Msg is the message to publish after Compress: Data is borrowed
	// (the frame's buffer, or the encoder's), valid until Release.
	Msg camera.CompressedImage

	enc     *compress.Encoder
	quality atomic.Int64 // wanted quality; applied by the next Compress
}

// NewCompressor returns a compressor at JPEG quality q
// (compress.MinQuality..MaxQuality).
func NewCompressor(q int) (*Compressor, error) {
	enc, err := compress.New(q)
	if err != nil {
		return nil, err
	}
	c := &Compressor{enc: enc}
	c.quality.Store(int64(q))
	return c, nil
}

// SetQuality changes the JPEG quality from the next frame on; out of range
// is compress.ErrBadQuality and changes nothing.
func (c *Compressor) SetQuality(q int) error {
	if err := compress.CheckQuality(q); err != nil {
		return err
	}
	c.quality.Store(int64(q))
	return nil
}

// Quality returns the JPEG quality the next frame is encoded at.
func (c *Compressor) Quality() int { return int(c.quality.Load()) }

// Compress fills Msg from f: header, format "jpeg", and the JPEG bytes.
// A malformed frame is an error (compress.ErrBadFrame,
// ErrUnknownEncoding) and leaves Msg without data.
func (c *Compressor) Compress(f *camera.Frame) error {
	if q := int(c.quality.Load()); q != c.enc.Quality() {
		_ = c.enc.SetQuality(q) // checked by SetQuality
	}
	jpg, err := c.enc.Encode(f)
	c.Msg = camera.CompressedImage{Header: f.Header, Format: compress.FormatJPEG, Data: jpg}
	return err
}

// Release drops Msg's reference to the frame's or the encoder's bytes;
// call it before the frame callback returns.
func (c *Compressor) Release() { c.Msg.Data = nil }
