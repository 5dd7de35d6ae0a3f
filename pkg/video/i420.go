package video

import (
	"errors"
	"fmt"
	"time"
)

// I420 is one planar YUV 4:2:0 picture (BT.601 limited range, the layout
// H.264 encoders take): a full-size luma plane and two chroma planes of
// half the width and height. Width and Height are even.
//
// Ownership: an I420 belongs to whoever made it; converters write into a
// caller's I420 and reuse its planes when they are large enough.
type I420 struct {
	Width, Height int    // [px], even
	Y             []byte // Width*Height bytes, row stride Width
	U, V          []byte // (Width/2)*(Height/2) bytes each, row stride Width/2
	// Capture is the capture time of the camera frame (wall clock).
	Capture time.Time
}

// ErrBadSize: a width or height that is zero, odd, or too large.
var ErrBadSize = errors.New("bad picture size")

// MaxSize is the largest width or height accepted [px].
const MaxSize = 8192

// MinSize is the smallest camera width or height OpenCamera accepts [px]
// (one H.264 macroblock).
const MinSize = 16

// Resize makes p a width x height picture, reusing its planes when their
// capacity suffices (no allocation once warmed up at that size).
func (p *I420) Resize(width, height int) error {
	if width <= 0 || height <= 0 || width%2 != 0 || height%2 != 0 || width > MaxSize || height > MaxSize {
		return fmt.Errorf("video: %dx%d: want even sizes 2..%d: %w", width, height, MaxSize, ErrBadSize)
	}
	p.Width, p.Height = width, height
	p.Y = grow(p.Y, width*height)
	p.U = grow(p.U, width*height/4)
	p.V = grow(p.V, width*height/4)
	return nil
}

// CopyFrom copies q into p (same size afterwards), reusing p's planes.
func (p *I420) CopyFrom(q *I420) {
	_ = p.Resize(q.Width, q.Height)
	copy(p.Y, q.Y)
	copy(p.U, q.U)
	copy(p.V, q.V)
	p.Capture = q.Capture
}

// Bytes is the size of the three planes [bytes].
func (p *I420) Bytes() int { return p.Width * p.Height * 3 / 2 }

func grow(b []byte, n int) []byte {
	if cap(b) < n {
		return make([]byte, n)
	}
	return b[:n]
}
