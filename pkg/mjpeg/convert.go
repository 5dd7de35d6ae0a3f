package mjpeg

import (
	"errors"
	"fmt"
	"image"
)

// Errors a frame can be rejected with (wrapped with the frame's details).
var (
	// ErrUnknownEncoding: the frame's encoding is not one this package
	// converts (see Encodings).
	ErrUnknownEncoding = errors.New("unknown encoding")
	// ErrBadFrame: the frame's size, step or data length do not agree, or a
	// compressed frame does not start like a JPEG.
	ErrBadFrame = errors.New("bad frame")
)

// kind is how a pixel format is converted.
type kind int

const (
	kindYUYV   kind = iota // 4:2:2, Y0 U Y1 V
	kindUYVY               // 4:2:2, U Y0 V Y1
	kindGray8              // one byte of luma
	kindGray16             // two bytes of luma, little-endian
	kindRGB                // R G B
	kindBGR                // B G R
	kindBayer              // 8-bit Bayer mosaic
	kindJPEG               // compressed: passed through
)

// pixFormat describes an input encoding.
type pixFormat struct {
	enc  string // ROS encoding, as camera.Frame.Encoding
	kind kind
	bpp  int // bytes per pixel; 0 when compressed
	// off is the byte of a grey pixel used: the high byte of mono16.
	off int
	// bayer: index in the 2x2 cell (0 top left, 1 top right, 2 bottom
	// left, 3 bottom right) of the red and the blue sample; the other two
	// are green.
	r, b int
}

// pixFormats are the encodings pkg/camera produces (see Formats in pkg/camera/wire).
var pixFormats = []pixFormat{
	{enc: "yuv422_yuy2", kind: kindYUYV, bpp: 2},
	{enc: "uyvy", kind: kindUYVY, bpp: 2},
	{enc: "mono8", kind: kindGray8, bpp: 1},
	{enc: "mono16", kind: kindGray16, bpp: 2, off: 1}, // little-endian, as V4L2 gives it
	{enc: "rgb8", kind: kindRGB, bpp: 3},
	{enc: "bgr8", kind: kindBGR, bpp: 3},
	{enc: "bayer_rggb8", kind: kindBayer, bpp: 1, r: 0, b: 3},
	{enc: "bayer_bggr8", kind: kindBayer, bpp: 1, r: 3, b: 0},
	{enc: "bayer_gbrg8", kind: kindBayer, bpp: 1, r: 2, b: 1},
	{enc: "bayer_grbg8", kind: kindBayer, bpp: 1, r: 1, b: 2},
	{enc: "jpeg", kind: kindJPEG},
}

// Encodings returns the input encodings a Stream accepts (ROS encoding
// names, "jpeg" for compressed frames), in a stable order.
func Encodings() []string {
	out := make([]string, len(pixFormats))
	for i, p := range pixFormats {
		out[i] = p.enc
	}
	return out
}

// mono16BE is mono16 with IsBigEndian set (possible on a ROS topic): the
// high byte comes first.
var mono16BE = pixFormat{enc: "mono16", kind: kindGray16, bpp: 2, off: 0}

// lookup returns the format of a ROS encoding. It allocates nothing.
func lookup(enc string) (*pixFormat, bool) {
	for i := range pixFormats {
		if pixFormats[i].enc == enc {
			return &pixFormats[i], true
		}
	}
	return nil, false
}

// maxSize is the largest width or height accepted [px] (as pkg/camera).
const maxSize = 16384

// checkFrame validates a frame's geometry against its data and returns
// its format and the number of bytes of data the image occupies.
func checkFrame(enc string, compressed bool, width, height, step, dataLen int) (*pixFormat, int, error) {
	p, ok := lookup(enc)
	if !ok {
		return nil, 0, fmt.Errorf("encoding %q: %w", enc, ErrUnknownEncoding)
	}
	if compressed != (p.kind == kindJPEG) {
		return nil, 0, fmt.Errorf("encoding %q with compressed=%v: %w", enc, compressed, ErrBadFrame)
	}
	if p.kind == kindJPEG {
		// The one thing checked of a passed-through frame: it starts with
		// the JPEG start-of-image marker, so a viewer is not sent noise.
		if dataLen < 4 {
			return nil, 0, fmt.Errorf("jpeg of %d bytes: %w", dataLen, ErrBadFrame)
		}
		return p, dataLen, nil
	}
	if width <= 0 || height <= 0 || width > maxSize || height > maxSize {
		return nil, 0, fmt.Errorf("%s %dx%d: size out of 1..%d: %w", enc, width, height, maxSize, ErrBadFrame)
	}
	if (p.kind == kindYUYV || p.kind == kindUYVY) && width%2 != 0 {
		return nil, 0, fmt.Errorf("%s width %d: 4:2:2 needs an even width: %w", enc, width, ErrBadFrame)
	}
	if p.kind == kindBayer && (width < 2 || height < 2) {
		return nil, 0, fmt.Errorf("%s %dx%d: bayer needs at least 2x2: %w", enc, width, height, ErrBadFrame)
	}
	row := width * p.bpp
	if step < row {
		return nil, 0, fmt.Errorf("%s %dx%d: step %d < %d: %w", enc, width, height, step, row, ErrBadFrame)
	}
	need := step*(height-1) + row
	if dataLen < need {
		return nil, 0, fmt.Errorf("%s %dx%d step %d: %d bytes of data, want %d: %w", enc, width, height, step, dataLen, need, ErrBadFrame)
	}
	return p, need, nil
}

// isJPEG reports whether b starts with the JPEG start-of-image marker.
func isJPEG(b []byte) bool { return len(b) >= 2 && b[0] == 0xff && b[1] == 0xd8 }

// maxFactor is the largest downscale factor MaxWidth can ask for.
const maxFactor = 16

// outSize returns the downscale factor and the output size for an input
// of width x height: Bayer is demosaiced by 2x2 cells (half size); the
// factor is the smallest power of two (at most maxFactor) that brings the
// width to maxWidth or less (0: native).
func outSize(p *pixFormat, width, height, maxWidth int) (f, w, h int) {
	cell := 1
	if p.kind == kindBayer {
		cell = 2
	}
	w, h = width/cell, height/cell
	f = 1
	for maxWidth > 0 && w/f > maxWidth && f < maxFactor && w/(2*f) >= 1 && h/(2*f) >= 1 {
		f *= 2
	}
	return f, w / f, h / f
}

// Converter turns raw frames into images ready for image/jpeg, reusing
// its images between frames: the Stream's encoder downscales with it,
// pkg/camera/compress converts at full size (Full). The zero Converter
// is ready. Not safe for concurrent use; an image it returns is its own,
// valid until its next conversion.
type Converter struct {
	ycc  *image.YCbCr
	gray *image.Gray
	rgba *image.RGBA
}

// convert converts data (validated by checkFrame) into a reused image,
// downscaled by the box factor f and of size w x h (from outSize).
func (c *Converter) convert(p *pixFormat, data []byte, width, height, step, f, w, h int) image.Image {
	switch p.kind {
	case kindYUYV, kindUYVY:
		if c.ycc == nil || c.ycc.Rect.Dx() != w || c.ycc.Rect.Dy() != h {
			c.ycc = image.NewYCbCr(image.Rect(0, 0, w, h), image.YCbCrSubsampleRatio422)
		}
		yo, uo, vo := 0, 1, 3
		if p.kind == kindUYVY {
			yo, uo, vo = 1, 0, 2
		}
		if f == 1 {
			CopyYUV422(c.ycc, data, step, yo, uo, vo)
		} else {
			yuv422Box(c.ycc, data, width, step, f, yo, uo, vo)
		}
		return c.ycc
	case kindGray8, kindGray16:
		if c.gray == nil || c.gray.Rect.Dx() != w || c.gray.Rect.Dy() != h {
			c.gray = image.NewGray(image.Rect(0, 0, w, h))
		}
		grayBox(c.gray, data, step, p.bpp, p.off, f)
		return c.gray
	default: // RGB, BGR, Bayer
		if c.rgba == nil || c.rgba.Rect.Dx() != w || c.rgba.Rect.Dy() != h {
			c.rgba = image.NewRGBA(image.Rect(0, 0, w, h))
		}
		switch p.kind {
		case kindRGB:
			colourBox(c.rgba, data, 3, step, 0, 1, 1, 2, f)
		case kindBGR:
			colourBox(c.rgba, data, 3, step, 2, 1, 1, 0, f)
		default:
			bayerBox(c.rgba, data, step, p.r, p.b, f)
		}
		return c.rgba
	}
}

// CopyYUV422 copies packed 4:2:2 rows (step bytes apart) into a YCbCr
// 4:2:2 image of the same size: bytes move, no colour math. yo, uo, vo
// are the offsets of Y0, U and V in a 4-byte macropixel (Y1 is at yo+2):
// 0, 1, 3 for YUYV, 1, 0, 2 for UYVY. data must hold the image's rows.
func CopyYUV422(m *image.YCbCr, data []byte, step, yo, uo, vo int) {
	w, h := m.Rect.Dx(), m.Rect.Dy()
	cw := w / 2
	for y := 0; y < h; y++ {
		row := data[y*step : y*step+2*w]
		yr := m.Y[y*m.YStride : y*m.YStride+w]
		cb := m.Cb[y*m.CStride : y*m.CStride+cw]
		cr := m.Cr[y*m.CStride : y*m.CStride+cw]
		for i := 0; i < cw; i++ {
			px := row[4*i : 4*i+4]
			yr[2*i] = px[yo]
			yr[2*i+1] = px[yo+2]
			cb[i] = px[uo]
			cr[i] = px[vo]
		}
	}
}

// yuv422Box downscales packed 4:2:2 by f (a box filter: each output
// sample is the mean of the f x f input samples it covers) into a YCbCr
// 4:2:2 image. An output chroma sample covers two output pixels, that is
// f input chroma columns, clamped at the right edge.
func yuv422Box(m *image.YCbCr, data []byte, width, step, f, yo, uo, vo int) {
	w, h := m.Rect.Dx(), m.Rect.Dy()
	cw := (w + 1) / 2
	inC := width / 2 // input chroma columns
	for oy := 0; oy < h; oy++ {
		for ox := 0; ox < w; ox++ {
			sum := 0
			for dy := 0; dy < f; dy++ {
				row := data[(oy*f+dy)*step:]
				for dx := 0; dx < f; dx++ {
					x := ox*f + dx
					sum += int(row[(x/2)*4+yo+2*(x%2)])
				}
			}
			m.Y[oy*m.YStride+ox] = uint8(sum / (f * f))
		}
		for cx := 0; cx < cw; cx++ {
			su, sv, n := 0, 0, 0
			lo, hi := cx*f, min(cx*f+f, inC)
			for dy := 0; dy < f; dy++ {
				row := data[(oy*f+dy)*step:]
				for j := lo; j < hi; j++ {
					su += int(row[4*j+uo])
					sv += int(row[4*j+vo])
					n++
				}
			}
			if n == 0 {
				su, sv, n = 128, 128, 1
			}
			m.Cb[oy*m.CStride+cx] = uint8(su / n)
			m.Cr[oy*m.CStride+cx] = uint8(sv / n)
		}
	}
}

// grayBox downscales single-channel data (bpp bytes per pixel, the byte
// at off used) by f into m.
func grayBox(m *image.Gray, data []byte, step, bpp, off, f int) {
	w, h := m.Rect.Dx(), m.Rect.Dy()
	if f == 1 && bpp == 1 {
		for y := 0; y < h; y++ {
			copy(m.Pix[y*m.Stride:y*m.Stride+w], data[y*step:])
		}
		return
	}
	if f == 1 {
		for y := 0; y < h; y++ {
			row, out := data[y*step:y*step+bpp*w], m.Pix[y*m.Stride:y*m.Stride+w]
			for x := range out {
				out[x] = row[bpp*x+off]
			}
		}
		return
	}
	for oy := 0; oy < h; oy++ {
		out := m.Pix[oy*m.Stride : oy*m.Stride+w]
		for ox := range out {
			sum := 0
			for dy := 0; dy < f; dy++ {
				row := data[(oy*f+dy)*step:]
				for dx := 0; dx < f; dx++ {
					sum += int(row[(ox*f+dx)*bpp+off])
				}
			}
			out[ox] = uint8(sum / (f * f))
		}
	}
}

// colourBox fills m (opaque) with the means of f x f input samples,
// sample (x, y) starting at data[y*rowStride+x*pxStride]; red is the
// byte at offset ro, blue at bo, green the mean of the bytes at g0 and
// g1 (the same offset twice for RGB, the two greens of a Bayer cell).
func colourBox(m *image.RGBA, data []byte, pxStride, rowStride, ro, g0, g1, bo, f int) {
	w, h := m.Rect.Dx(), m.Rect.Dy()
	if f == 1 {
		for y := 0; y < h; y++ {
			row, out := data[y*rowStride:], m.Pix[y*m.Stride:y*m.Stride+4*w]
			for x := 0; x < w; x++ {
				c, o := row[x*pxStride:], out[4*x:4*x+4]
				o[0], o[1], o[2], o[3] = c[ro], uint8((int(c[g0])+int(c[g1]))/2), c[bo], 0xff
			}
		}
		return
	}
	n := f * f
	for oy := 0; oy < h; oy++ {
		out := m.Pix[oy*m.Stride : oy*m.Stride+4*w]
		for ox := 0; ox < w; ox++ {
			r, g, b := 0, 0, 0
			for dy := 0; dy < f; dy++ {
				row := data[(oy*f+dy)*rowStride:]
				for dx := 0; dx < f; dx++ {
					c := row[(ox*f+dx)*pxStride:]
					r += int(c[ro])
					g += int(c[g0]) + int(c[g1])
					b += int(c[bo])
				}
			}
			o := out[4*ox : 4*ox+4]
			o[0], o[1], o[2], o[3] = uint8(r/n), uint8(g/(2*n)), uint8(b/n), 0xff
		}
	}
}

// bayerBox demosaics an 8-bit Bayer mosaic by 2x2 cells (one output pixel
// per cell: red and blue as sampled, green the mean of the two greens;
// no interpolation across cells, so no false colour at edges) and
// downscales by f cells into m (opaque). ri and bi are the indices of the
// red and blue sample in the cell (0 top left, 1 top right, 2 bottom left,
// 3 bottom right).
func bayerBox(m *image.RGBA, data []byte, step, ri, bi, f int) {
	ro, bo, g0, g1 := bayerOffsets(step, ri, bi)
	colourBox(m, data, 2, 2*step, ro, g0, g1, bo, f)
}

// bayerOffsets returns the byte offsets, from a 2x2 cell's top left, of
// its red, blue and two green samples; ri and bi index the red and blue
// sample in the cell (0 top left, 1 top right, 2 bottom left, 3 bottom
// right) and step is the mosaic's row stride [bytes].
func bayerOffsets(step, ri, bi int) (ro, bo, g0, g1 int) {
	at := [4]int{0, 1, step, step + 1} // byte offset of each cell index
	var g [2]int
	k := 0
	for i := range at {
		if i != ri && i != bi {
			g[k] = at[i]
			k++
		}
	}
	return at[ri], at[bi], g[0], g[1]
}
