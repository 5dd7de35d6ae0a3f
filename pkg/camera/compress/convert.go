package compress

import (
	"fmt"
	"image"

	"github.com/telebridge/telebridge/pkg/camera"
)

// kind is how an encoding is converted.
type kind int

const (
	kindYUYV   kind = iota // 4:2:2, Y0 U Y1 V
	kindUYVY               // 4:2:2, U Y0 V Y1
	kindMono8              // one byte of luma
	kindMono16             // two bytes of luma
	kindRGB                // R G B
	kindBGR                // B G R
	kindBayer              // 8-bit Bayer mosaic
	kindJPEG               // compressed: passed through
)

// pixFormat is an input encoding.
type pixFormat struct {
	enc  string // ROS encoding (camera.Frame.Encoding)
	kind kind
	bpp  int // bytes per pixel; 0 when compressed
	// r, b: Bayer only, the index in the 2x2 cell (0 top left, 1 top
	// right, 2 bottom left, 3 bottom right) of the red and the blue
	// sample; the other two are green.
	r, b int
}

// pixFormats are the encodings pkg/camera delivers (pkg/camera/wire's
// format table and its layout-preserving overrides).
var pixFormats = []pixFormat{
	{enc: "yuv422_yuy2", kind: kindYUYV, bpp: 2},
	{enc: "uyvy", kind: kindUYVY, bpp: 2},
	{enc: "mono8", kind: kindMono8, bpp: 1},
	{enc: "mono16", kind: kindMono16, bpp: 2},
	{enc: "rgb8", kind: kindRGB, bpp: 3},
	{enc: "bgr8", kind: kindBGR, bpp: 3},
	{enc: "bayer_rggb8", kind: kindBayer, bpp: 1, r: 0, b: 3},
	{enc: "bayer_bggr8", kind: kindBayer, bpp: 1, r: 3, b: 0},
	{enc: "bayer_gbrg8", kind: kindBayer, bpp: 1, r: 2, b: 1},
	{enc: "bayer_grbg8", kind: kindBayer, bpp: 1, r: 1, b: 2},
	{enc: FormatJPEG, kind: kindJPEG},
}

// Encodings returns the frame encodings Encode takes, in a stable order.
func Encodings() []string {
	out := make([]string, len(pixFormats))
	for i, p := range pixFormats {
		out[i] = p.enc
	}
	return out
}

// maxSize is the largest width or height [px] (pkg/camera's limit, well
// within JPEG's 65535).
const maxSize = camera.MaxSize

// check validates f's geometry against its data; it allocates nothing
// unless it fails.
func check(f *camera.Frame) (*pixFormat, error) {
	var p *pixFormat
	for i := range pixFormats {
		if pixFormats[i].enc == f.Encoding {
			p = &pixFormats[i]
			break
		}
	}
	if p == nil {
		return nil, fmt.Errorf("compress: encoding %q: %w", f.Encoding, ErrUnknownEncoding)
	}
	if p.kind == kindJPEG {
		if len(f.Data) < 4 || f.Data[0] != 0xff || f.Data[1] != 0xd8 {
			return nil, fmt.Errorf("compress: jpeg frame of %d bytes without a start-of-image marker: %w", len(f.Data), ErrBadFrame)
		}
		return p, nil
	}
	w, h, step := int(f.Width), int(f.Height), int(f.Step)
	switch {
	case w <= 0 || h <= 0 || w > maxSize || h > maxSize:
		return nil, fmt.Errorf("compress: %s %dx%d: size out of 1..%d: %w", f.Encoding, w, h, maxSize, ErrBadFrame)
	case (p.kind == kindYUYV || p.kind == kindUYVY) && w%2 != 0:
		return nil, fmt.Errorf("compress: %s width %d: 4:2:2 needs an even width: %w", f.Encoding, w, ErrBadFrame)
	case p.kind == kindBayer && (w%2 != 0 || h%2 != 0):
		return nil, fmt.Errorf("compress: %s %dx%d: a Bayer mosaic needs even sizes: %w", f.Encoding, w, h, ErrBadFrame)
	case step < w*p.bpp:
		return nil, fmt.Errorf("compress: %s %dx%d: step %d < %d: %w", f.Encoding, w, h, step, w*p.bpp, ErrBadFrame)
	}
	if need := step*(h-1) + w*p.bpp; len(f.Data) < need {
		return nil, fmt.Errorf("compress: %s %dx%d step %d: %d bytes, want %d: %w", f.Encoding, w, h, step, len(f.Data), need, ErrBadFrame)
	}
	return p, nil
}

// grey copies one byte per pixel (bpp bytes apart, the one at off) into m.
func grey(m *image.Gray, data []byte, step, bpp, off int) {
	w, h := m.Rect.Dx(), m.Rect.Dy()
	for y := 0; y < h; y++ {
		out := m.Pix[y*m.Stride : y*m.Stride+w]
		if bpp == 1 {
			copy(out, data[y*step:y*step+w])
			continue
		}
		row := data[y*step : y*step+bpp*w]
		for x := range out {
			out[x] = row[bpp*x+off]
		}
	}
}

// packedRGB copies 8-bit RGB (ri, bi: byte index of red and blue in a
// pixel) into m, opaque.
func packedRGB(m *image.RGBA, data []byte, step, ri, bi int) {
	w, h := m.Rect.Dx(), m.Rect.Dy()
	for y := 0; y < h; y++ {
		row := data[y*step : y*step+3*w]
		out := m.Pix[y*m.Stride : y*m.Stride+4*w]
		for x := 0; x < w; x++ {
			p, o := row[3*x:3*x+3], out[4*x:4*x+4]
			o[0], o[1], o[2], o[3] = p[ri], p[1], p[bi], 0xff
		}
	}
}

// bayerCells demosaics an 8-bit Bayer mosaic (even sizes) by 2x2 cells:
// red and blue as sampled, green the mean of the two greens, written to
// all four pixels of the cell. ri and bi index the red and blue sample
// in the cell (0 top left, 1 top right, 2 bottom left, 3 bottom right).
func bayerCells(m *image.RGBA, data []byte, step, ri, bi int) {
	w, h := m.Rect.Dx(), m.Rect.Dy()
	at := [4]int{0, 1, step, step + 1} // byte offset of each cell index
	var g [2]int
	k := 0
	for i := range at {
		if i != ri && i != bi {
			g[k] = at[i]
			k++
		}
	}
	ro, bo, g0, g1 := at[ri], at[bi], g[0], g[1]
	for y := 0; y < h; y += 2 {
		cells := data[y*step:]
		top := m.Pix[y*m.Stride : y*m.Stride+4*w]
		bottom := m.Pix[(y+1)*m.Stride : (y+1)*m.Stride+4*w]
		for x := 0; x < w; x += 2 {
			c := cells[x : x+step+2]
			r, gg, b := c[ro], uint8((int(c[g0])+int(c[g1])+1)/2), c[bo]
			for _, o := range [2][]byte{top[4*x : 4*x+8], bottom[4*x : 4*x+8]} {
				o[0], o[1], o[2], o[3] = r, gg, b, 0xff
				o[4], o[5], o[6], o[7] = r, gg, b, 0xff
			}
		}
	}
}
