package framecode

import (
	"errors"
	"fmt"
	"time"
)

// Layout constants (see the package documentation).
const (
	Columns   = 40  // cells per row
	Rows      = 2   // rows of cells
	Cells     = 80  // Columns * Rows
	DataBits  = 72  // 48-bit time, 16-bit counter, 8-bit CRC
	FirstData = 4   // index of the first data cell
	White     = 235 // luma of a 1 cell (BT.601 limited range)
	Black     = 16  // luma of a 0 cell
	Neutral   = 128 // chroma in the band
	// MinContrast is the least difference between the white and the black
	// reference cells, in luma levels, for a picture to carry a code.
	MinContrast = 64
)

// Code is what a picture carries: when it was captured and its number.
type Code struct {
	Millis  int64  // capture time [ms since the Unix epoch], 48 bits used
	Counter uint16 // frame counter, wraps at 65536
}

// New returns the code of a picture captured at t with counter n.
func New(t time.Time, n uint16) Code { return Code{Millis: t.UnixMilli() & (1<<48 - 1), Counter: n} }

// Time is the capture time the code carries.
func (c Code) Time() time.Time { return time.UnixMilli(c.Millis) }

// ErrNoCode: the picture has no readable code (too small, no contrast
// between the reference cells, or a bad CRC).
var ErrNoCode = errors.New("no frame code")

// bits returns the 80 cell values (true = white) of c.
func (c Code) bits() (b [Cells]bool) {
	var p [9]byte
	for i := 0; i < 6; i++ {
		p[i] = byte(c.Millis >> (8 * (5 - i)))
	}
	p[6], p[7] = byte(c.Counter>>8), byte(c.Counter)
	p[8] = crc8(p[:8])
	b[0], b[2], b[77], b[79] = true, true, true, true
	for i := 0; i < DataBits; i++ {
		b[FirstData+i] = p[i/8]&(0x80>>(i%8)) != 0
	}
	return b
}

func crc8(p []byte) byte {
	var c byte
	for _, x := range p {
		c ^= x
		for k := 0; k < 8; k++ {
			if c&0x80 != 0 {
				c = c<<1 ^ 0x07
			} else {
				c <<= 1
			}
		}
	}
	return c
}

// colSpan is the x range [x0, x1) of column c in a picture width w [px].
func colSpan(c, w int) (x0, x1 int) { return 2 * (c * w / 80), 2 * ((c + 1) * w / 80) }

// RowHeight is the height of one row of cells in a picture of width w
// [px]; the band is Rows*RowHeight(w) high.
func RowHeight(w int) int { return 2 * (w / 80) }

// MinWidth is the narrowest picture that carries a code [px]: 4 px rows.
// Below 320 px, only widths that are multiples of 80 read reliably (the
// cell edges are rounded to even pixels).
const MinWidth = 160

// Fits reports whether a width x height picture can carry a code.
func Fits(width, height int) bool {
	return width >= MinWidth && Rows*RowHeight(width) <= height
}

// StampPlanar writes c into a planar 4:2:0 picture (I420: luma plane y
// with row stride width, chroma planes u and v with stride width/2).
// width and height are even [px]. It allocates nothing; a picture too
// small for the band (see Fits) is left as it is.
func StampPlanar(y, u, v []byte, width, height int, c Code) {
	if !Fits(width, height) {
		return
	}
	stampCells(y, width, 1, width, c)
	s := RowHeight(width)
	for yy := 0; yy < Rows*s/2; yy++ {
		for x := 0; x < width/2; x++ {
			u[yy*width/2+x], v[yy*width/2+x] = Neutral, Neutral
		}
	}
}

// StampYUYV writes c into a packed YUYV (Y0 U Y1 V) picture with rows of
// step bytes. It allocates nothing; a picture too small for the band is
// left as it is.
func StampYUYV(buf []byte, step, width, height int, c Code) {
	if !Fits(width, height) || step < 2*width {
		return
	}
	stampCells(buf, step, 2, width, c)
}

// stampCells writes the cells of c into the luma samples of a picture
// whose rows are step bytes apart and whose luma samples are pixel bytes
// apart (1: a planar luma plane; 2: packed YUYV, whose chroma byte after
// each luma sample is set to Neutral).
func stampCells(buf []byte, step, pixel, width int, c Code) {
	s := RowHeight(width)
	for i, on := range c.bits() {
		x0, x1 := colSpan(i%Columns, width)
		lvl := byte(Black)
		if on {
			lvl = White
		}
		for yy := (i / Columns) * s; yy < (i/Columns+1)*s; yy++ {
			row := buf[yy*step:]
			for x := x0; x < x1; x++ {
				row[pixel*x] = lvl
				if pixel == 2 {
					row[2*x+1] = Neutral
				}
			}
		}
	}
}

// Read reads the code from a luma plane (width x height [px], rows of
// stride bytes) of a picture of any size that keeps the aspect ratio of
// the stamped one. It allocates nothing.
func Read(luma []byte, stride, width, height int) (Code, error) {
	cell := float64(width) / Columns
	if cell < 2 || float64(Rows)*cell > float64(height) || stride < width || len(luma) < stride*(height-1)+width {
		return Code{}, fmt.Errorf("framecode: %dx%d picture: too small: %w", width, height, ErrNoCode)
	}
	var lv [Cells]float64
	for i := range lv {
		cx := (float64(i%Columns) + 0.5) * cell
		cy := (float64(i/Columns) + 0.5) * cell
		lv[i] = meanAround(luma, stride, cx, cy, cell/4)
	}
	white, black := (lv[0]+lv[2])/2, (lv[1]+lv[3])/2
	if white-black < MinContrast {
		return Code{}, fmt.Errorf("framecode: reference contrast %.0f < %d: %w", white-black, MinContrast, ErrNoCode)
	}
	thr := (white + black) / 2
	var p [9]byte
	for i := 0; i < DataBits; i++ {
		if lv[FirstData+i] > thr {
			p[i/8] |= 0x80 >> (i % 8)
		}
	}
	if crc8(p[:8]) != p[8] {
		return Code{}, fmt.Errorf("framecode: CRC mismatch: %w", ErrNoCode)
	}
	var ms int64
	for i := 0; i < 6; i++ {
		ms = ms<<8 | int64(p[i])
	}
	return Code{Millis: ms, Counter: uint16(p[6])<<8 | uint16(p[7])}, nil
}

// meanAround is the mean luma of the square of half-side r around (cx, cy).
func meanAround(luma []byte, stride int, cx, cy, r float64) float64 {
	x0, x1 := int(cx-r+0.5), int(cx+r+0.5)
	y0, y1 := int(cy-r+0.5), int(cy+r+0.5)
	if x1 <= x0 {
		x1 = x0 + 1
	}
	if y1 <= y0 {
		y1 = y0 + 1
	}
	sum, n := 0, 0
	for y := y0; y < y1; y++ {
		for x := x0; x < x1; x++ {
			sum += int(luma[y*stride+x])
			n++
		}
	}
	return float64(sum) / float64(n)
}
