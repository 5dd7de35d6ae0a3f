package render

import (
	"errors"
	"fmt"

	"github.com/telebridge/telebridge/pkg/camera/wire"
)

// FmtRGBA is 8-bit RGBA in byte order R, G, B, A (V4L2's "AB24",
// V4L2_PIX_FMT_RGBA32; ROS encoding "rgba8"): what the renderer reads back,
// delivered without conversion.
const FmtRGBA wire.FourCC = 'A' | 'B'<<8 | '2'<<16 | '4'<<24

// ErrFormat is wrapped when a pixel format cannot be rendered into or a
// buffer is too small for the picture.
var ErrFormat = errors.New("render: pixel format")

// Formats returns the pixel formats Camera.Render delivers: FmtRGBA and
// the uncompressed formats of pkg/camera/wire (YUYV, UYVY, GREY, RGB3,
// BGR3 and the four 8-bit Bayer orders). Y16 and the compressed formats
// (MJPG, JPEG) are not rendered: compress an RGB picture instead.
func Formats() []wire.FourCC {
	return []wire.FourCC{FmtRGBA, wire.FmtYUYV, wire.FmtUYVY, wire.FmtGrey, wire.FmtRGB24, wire.FmtBGR24,
		wire.FmtBGGR8, wire.FmtGBRG8, wire.FmtGRBG8, wire.FmtRGGB8}
}

// BytesPerPixel returns the size of one pixel of f [bytes], or 0 if
// Render does not deliver f.
func BytesPerPixel(f wire.FourCC) int {
	switch f {
	case FmtRGBA:
		return 4
	case wire.FmtRGB24, wire.FmtBGR24:
		return 3
	case wire.FmtYUYV, wire.FmtUYVY:
		return 2
	case wire.FmtGrey, wire.FmtBGGR8, wire.FmtGBRG8, wire.FmtGRBG8, wire.FmtRGGB8:
		return 1
	}
	return 0
}

// FrameSize returns the bytes of one width x height picture [px] of format
// f, rows packed without padding (step = width * bytes per pixel), or an
// error wrapping ErrFormat if Render does not deliver f.
func FrameSize(f wire.FourCC, width, height int) (int, error) {
	b := BytesPerPixel(f)
	if b == 0 {
		return 0, fmt.Errorf("%w %s is not rendered (formats: RGBA, YUYV, UYVY, GREY, RGB3, BGR3, Bayer 8-bit)", ErrFormat, f)
	}
	return b * width * height, nil
}

// BT.601 limited range from 8-bit RGB, integer arithmetic: the same
// coefficients as pkg/video's converter, so a rendered YUYV picture turned
// back into I420 there keeps its colours.
func luma(r, g, b int) uint8 { return uint8((66*r+129*g+25*b+128)>>8 + 16) }

func chroma(r, g, b int) (u, v uint8) {
	return uint8((-38*r-74*g+112*b+128)>>8 + 128), uint8((112*r-94*g-18*b+128)>>8 + 128)
}

// convert writes the RGBA picture src (width x height, top row first) into
// dst as format f. dst holds FrameSize bytes; f is one of Formats other
// than FmtRGBA. It allocates nothing.
func convert(dst, src []byte, f wire.FourCC, width, height int) {
	n := width * height
	switch f {
	case wire.FmtRGB24, wire.FmtBGR24:
		ri, bi := 0, 2
		if f == wire.FmtBGR24 {
			ri, bi = 2, 0
		}
		for k := range n {
			s := (*[4]byte)(src[4*k:])
			q := (*[3]byte)(dst[3*k:])
			q[ri], q[1], q[bi] = s[0], s[1], s[2]
		}
	case wire.FmtGrey:
		d := dst[:n]
		for i := range d {
			s := (*[4]byte)(src[4*i:])
			d[i] = luma(int(s[0]), int(s[1]), int(s[2]))
		}
	case wire.FmtYUYV, wire.FmtUYVY:
		y0, u0, y1, v0 := 0, 1, 2, 3
		if f == wire.FmtUYVY {
			y0, u0, y1, v0 = 1, 0, 3, 2
		}
		for k := range n / 2 { // array pointers: one bounds check per pair
			s := (*[8]byte)(src[8*k:])
			q := (*[4]byte)(dst[4*k:])
			r0, g0, b0 := int(s[0]), int(s[1]), int(s[2])
			r1, g1, b1 := int(s[4]), int(s[5]), int(s[6])
			u, v := chroma((r0+r1+1)>>1, (g0+g1+1)>>1, (b0+b1+1)>>1)
			q[y0], q[u0], q[y1], q[v0] = luma(r0, g0, b0), u, luma(r1, g1, b1), v
		}
	case wire.FmtBGGR8, wire.FmtGBRG8, wire.FmtGRBG8, wire.FmtRGGB8:
		// cell[k]: the RGBA channel sampled at 2x2 cell position k (0 top
		// left, 1 top right, 2 bottom left, 3 bottom right).
		var cell [4]int
		switch f {
		case wire.FmtBGGR8:
			cell = [4]int{2, 1, 1, 0}
		case wire.FmtGBRG8:
			cell = [4]int{1, 2, 0, 1}
		case wire.FmtGRBG8:
			cell = [4]int{1, 0, 2, 1}
		default:
			cell = [4]int{0, 1, 1, 2}
		}
		d := dst[:n]
		for y := range height {
			row := d[y*width : (y+1)*width]
			s := src[4*y*width : 4*(y+1)*width]
			c0, c1 := cell[2*(y&1)], cell[2*(y&1)+1]
			for x := 0; x+1 < width; x += 2 {
				row[x], row[x+1] = s[4*x+c0], s[4*x+4+c1]
			}
		}
	}
}
