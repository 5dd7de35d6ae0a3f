package mjpeg

import (
	"fmt"
	"image"
)

// Full converts a raw frame into one of c's reused images at the frame's
// own size, as pkg/camera/compress publishes it: enc is a raw encoding of
// Encodings (not "jpeg"), bigEndian the frame's byte order (mono16 only),
// data its rows step bytes apart. 4:2:2 and grey bytes move unchanged,
// RGB and BGR become opaque RGBA, and a Bayer mosaic (even sizes) is
// demosaiced by 2x2 cells, each cell's colour on its four pixels. A frame
// it cannot convert is an error wrapping ErrUnknownEncoding or
// ErrBadFrame. Once c's image has the frame's size it allocates nothing.
func (c *Converter) Full(enc string, bigEndian bool, data []byte, width, height, step int) (image.Image, error) {
	p, _, err := checkFrame(enc, false, width, height, step, len(data))
	if err != nil {
		return nil, err
	}
	if p.kind != kindBayer {
		if p.kind == kindGray16 && bigEndian {
			p = &mono16BE
		}
		return c.convert(p, data, width, height, step, 1, width, height), nil
	}
	if width%2 != 0 || height%2 != 0 {
		return nil, fmt.Errorf("%s %dx%d: a Bayer mosaic needs even sizes: %w", enc, width, height, ErrBadFrame)
	}
	if c.rgba == nil || c.rgba.Rect.Dx() != width || c.rgba.Rect.Dy() != height {
		c.rgba = image.NewRGBA(image.Rect(0, 0, width, height))
	}
	bayerCells(c.rgba, data, step, p.r, p.b)
	return c.rgba, nil
}

// bayerCells demosaics an 8-bit Bayer mosaic (even sizes) by 2x2 cells
// at full size: red and blue as sampled, green the mean of the two greens
// rounded to nearest, written to all four pixels of the cell. ri and bi
// index the red and blue sample in the cell (see bayerOffsets).
func bayerCells(m *image.RGBA, data []byte, step, ri, bi int) {
	w, h := m.Rect.Dx(), m.Rect.Dy()
	ro, bo, g0, g1 := bayerOffsets(step, ri, bi)
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
