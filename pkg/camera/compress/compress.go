package compress

import (
	"errors"
	"fmt"
	"image"
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
	// converts (see Encodings).
	ErrUnknownEncoding = errors.New("unknown encoding")
	// ErrBadFrame: the frame's size, step and data length disagree, or a
	// compressed frame does not start with a JPEG start-of-image marker.
	ErrBadFrame = errors.New("bad frame")
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
	ycc  *image.YCbCr
	gray *image.Gray
	rgba *image.RGBA
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
	p, err := check(f)
	if err != nil {
		return nil, err
	}
	if p.kind == kindJPEG {
		return f.Data, nil
	}
	img := e.convert(p, f)
	e.out.b = e.out.b[:0]
	if err := jpeg.Encode(&e.out, img, &e.opts); err != nil {
		// image/jpeg fails only on sizes beyond 65535 px, which check
		// refuses; reported all the same.
		return nil, fmt.Errorf("compress: %s %dx%d: %w", f.Encoding, f.Width, f.Height, err)
	}
	return e.out.b, nil
}

// convert fills the reused picture of p's kind from f (checked).
func (e *Encoder) convert(p *pixFormat, f *camera.Frame) image.Image {
	w, h, step := int(f.Width), int(f.Height), int(f.Step)
	switch p.kind {
	case kindYUYV, kindUYVY:
		if e.ycc == nil || e.ycc.Rect.Dx() != w || e.ycc.Rect.Dy() != h {
			e.ycc = image.NewYCbCr(image.Rect(0, 0, w, h), image.YCbCrSubsampleRatio422)
		}
		if p.kind == kindYUYV {
			mjpeg.CopyYUV422(e.ycc, f.Data, step, 0, 1, 3)
		} else {
			mjpeg.CopyYUV422(e.ycc, f.Data, step, 1, 0, 2)
		}
		return e.ycc
	case kindMono8, kindMono16:
		if e.gray == nil || e.gray.Rect.Dx() != w || e.gray.Rect.Dy() != h {
			e.gray = image.NewGray(image.Rect(0, 0, w, h))
		}
		off := 0
		if p.kind == kindMono16 && f.IsBigEndian == 0 {
			off = 1 // the high byte of a little-endian sample
		}
		grey(e.gray, f.Data, step, p.bpp, off)
		return e.gray
	default: // RGB, BGR, Bayer
		if e.rgba == nil || e.rgba.Rect.Dx() != w || e.rgba.Rect.Dy() != h {
			e.rgba = image.NewRGBA(image.Rect(0, 0, w, h))
		}
		switch p.kind {
		case kindRGB:
			packedRGB(e.rgba, f.Data, step, 0, 2)
		case kindBGR:
			packedRGB(e.rgba, f.Data, step, 2, 0)
		default:
			bayerCells(e.rgba, f.Data, step, p.r, p.b)
		}
		return e.rgba
	}
}

// jpegBuf is the reused output that image/jpeg writes into directly (it
// has Flush and WriteByte, so jpeg.Encode adds no bufio.Writer).
type jpegBuf struct{ b []byte }

func (j *jpegBuf) Write(p []byte) (int, error) { j.b = append(j.b, p...); return len(p), nil }
func (j *jpegBuf) WriteByte(c byte) error      { j.b = append(j.b, c); return nil }
func (j *jpegBuf) Flush() error                { return nil }
