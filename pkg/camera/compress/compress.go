package compress

import (
	"errors"
	"fmt"
	"image/jpeg"

	"github.com/telebridge/telebridge/pkg/camera"
	"github.com/telebridge/telebridge/pkg/mjpeg"
)

// Quality limits of JPEG (image/jpeg's scale, 1 worst .. 100 best).
const (
	MinQuality = 1
	MaxQuality = 100
	// DefaultQuality is the quality when none is configured: a 640x480
	// camera picture of about 40-80 KB, about 1.5 MB/s at 30 Hz, a
	// twelfth of raw YUYV.
	DefaultQuality = 80
)

// FormatJPEG is the sensor_msgs/CompressedImage format of every Encode
// output.
const FormatJPEG = "jpeg"

// Errors a frame or setting is refused with (wrapped with its details).
var (
	// ErrBadQuality: a quality outside MinQuality..MaxQuality.
	ErrBadQuality = errors.New("jpeg quality out of range")
	// ErrUnknownEncoding: the frame's encoding is not one this package
	// converts (see Encodings); pkg/mjpeg's, whose converter refuses it.
	ErrUnknownEncoding = mjpeg.ErrUnknownEncoding
	// ErrBadFrame: the frame's size, step and data length disagree, or a
	// compressed frame does not start with a JPEG start-of-image marker;
	// pkg/mjpeg's, whose converter refuses it.
	ErrBadFrame = mjpeg.ErrBadFrame
)

// CheckQuality returns an error wrapping ErrBadQuality unless q is in
// MinQuality..MaxQuality.
func CheckQuality(q int) error {
	if q < MinQuality || q > MaxQuality {
		return fmt.Errorf("compress: quality %d: want %d..%d: %w", q, MinQuality, MaxQuality, ErrBadQuality)
	}
	return nil
}

// Encoder converts and JPEG-encodes frames into reused buffers. Not safe
// for concurrent use.
type Encoder struct {
	opts jpeg.Options
	out  jpegBuf
	conv mjpeg.Converter
}

// New returns an encoder at JPEG quality q (MinQuality..MaxQuality,
// else ErrBadQuality).
func New(q int) (*Encoder, error) {
	if err := CheckQuality(q); err != nil {
		return nil, err
	}
	return &Encoder{opts: jpeg.Options{Quality: q}}, nil
}

// Quality returns the encoder's JPEG quality.
func (e *Encoder) Quality() int { return e.opts.Quality }

// SetQuality changes the quality for the following frames; out of range
// is ErrBadQuality and leaves it unchanged.
func (e *Encoder) SetQuality(q int) error {
	if err := CheckQuality(q); err != nil {
		return err
	}
	e.opts.Quality = q
	return nil
}

// Encode returns f as a JPEG of f's size. A compressed frame (MJPG/JPEG)
// is returned as it is: the result is f.Data itself, borrowed like it.
// Otherwise the result is the encoder's own buffer, valid until the next
// Encode: publish or copy it before then.
func (e *Encoder) Encode(f *camera.Frame) ([]byte, error) {
	passed, err := isJPEG(f)
	if err != nil {
		return nil, err
	}
	if passed {
		return f.Data, nil
	}
	img, err := e.convert(f)
	if err != nil {
		return nil, err
	}
	e.out.b = e.out.b[:0]
	if err := jpeg.Encode(&e.out, img, &e.opts); err != nil {
		// image/jpeg fails only on sizes beyond 65535 px, which the
		// converter refuses; reported all the same.
		return nil, fmt.Errorf("compress: %s %dx%d: %w", f.Encoding, f.Width, f.Height, err)
	}
	return e.out.b, nil
}

// jpegBuf is the reused output that image/jpeg writes into directly (it
// has Flush and WriteByte, so jpeg.Encode adds no bufio.Writer).
type jpegBuf struct{ b []byte }

func (j *jpegBuf) Write(p []byte) (int, error) { j.b = append(j.b, p...); return len(p), nil }
func (j *jpegBuf) WriteByte(c byte) error      { j.b = append(j.b, c); return nil }
func (j *jpegBuf) Flush() error                { return nil }
