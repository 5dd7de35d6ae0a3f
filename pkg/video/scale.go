package video

import (
	"fmt"
	"time"
)

// Scaler shrinks I420 pictures by area averaging: each output sample is
// the mean of the input samples its area covers, which keeps fine
// patterns from aliasing as a nearest-sample pick would. It only shrinks.
// It keeps its column tables between calls: no allocation once warmed up
// at a pair of sizes.
type Scaler struct {
	cols, rows             spanTable // luma
	chromaCols, chromaRows spanTable
}

// spanTable maps output columns (or rows) to input ranges for one pair
// of lengths.
type spanTable struct {
	in, out int
	lo, hi  []int // output index i covers input [lo[i], hi[i])
}

func (t *spanTable) build(in, out int) {
	if t.in == in && t.out == out {
		return
	}
	t.in, t.out = in, out
	t.lo, t.hi = make([]int, out), make([]int, out)
	for i := range out {
		t.lo[i] = i * in / out
		t.hi[i] = max((i+1)*in/out, t.lo[i]+1)
	}
}

// Scale writes src shrunk to dst's size into dst (dst.Resize first). The
// size must be no larger than src's in either direction. dst takes src's
// capture time.
func (s *Scaler) Scale(dst, src *I420) error {
	if dst.Width > src.Width || dst.Height > src.Height || dst.Width <= 0 || dst.Height <= 0 {
		return fmt.Errorf("video: scale %dx%d to %dx%d: only shrinking: %w", src.Width, src.Height, dst.Width, dst.Height, ErrBadSize)
	}
	s.cols.build(src.Width, dst.Width)
	s.rows.build(src.Height, dst.Height)
	s.chromaCols.build(src.Width/2, dst.Width/2)
	s.chromaRows.build(src.Height/2, dst.Height/2)
	shrinkPlane(dst.Y, src.Y, src.Width, &s.cols, &s.rows)
	shrinkPlane(dst.U, src.U, src.Width/2, &s.chromaCols, &s.chromaRows)
	shrinkPlane(dst.V, src.V, src.Width/2, &s.chromaCols, &s.chromaRows)
	dst.Capture = src.Capture
	return nil
}

// shrinkPlane averages src (stride inStride) into dst (stride cols.out).
func shrinkPlane(dst, src []byte, inStride int, cols, rows *spanTable) {
	if cols.in == 2*cols.out && rows.in == 2*rows.out {
		halvePlane(dst, src, inStride, cols.out, rows.out)
		return
	}
	for y := range rows.out {
		r0, r1 := rows.lo[y], rows.hi[y]
		out := dst[y*cols.out : (y+1)*cols.out]
		for x := range cols.out {
			c0, c1 := cols.lo[x], cols.hi[x]
			sum := 0
			for r := r0; r < r1; r++ {
				row := src[r*inStride+c0 : r*inStride+c1]
				for _, v := range row {
					sum += int(v)
				}
			}
			n := (r1 - r0) * (c1 - c0)
			out[x] = byte((sum + n/2) / n)
		}
	}
}

// halvePlane is shrinkPlane's common case, exactly half in both
// directions: each output sample is the rounded mean of a 2x2 block.
func halvePlane(dst, src []byte, inStride, w, h int) {
	for y := range h {
		a := src[2*y*inStride:][:2*w]
		b := src[(2*y+1)*inStride:][:2*w]
		out := dst[y*w:][:w]
		for x := range out {
			i := 2 * x
			out[x] = byte((int(a[i]) + int(a[i+1]) + int(b[i]) + int(b[i+1]) + 2) >> 2)
		}
	}
}

// decimator keeps frames at no more than a rate: a frame is kept when its
// capture time has reached the next due time (less a quarter period of
// slack for capture jitter); the due time advances one period per kept
// frame, so 30 -> 20 fps keeps two of every three frames rather than one
// of two.
type decimator struct {
	period time.Duration // 0: keep every frame
	due    time.Time
}

// keep reports whether the frame captured at t is kept.
func (d *decimator) keep(t time.Time) bool {
	if d.period <= 0 {
		return true
	}
	if d.due.IsZero() || t.Sub(d.due) > d.period { // first frame, or the camera stalled
		d.due = t
	}
	if t.Before(d.due.Add(-d.period / 4)) {
		return false
	}
	d.due = d.due.Add(d.period)
	return true
}
