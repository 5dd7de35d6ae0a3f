package video

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/jpeg"
	"time"
)

// Frame is one camera picture in its native pixel format, as pkg/camera
// delivers it (see the camera link in camera_linux.go).
//
// Ownership: Data is lent for the duration of the call it is passed to.
type Frame struct {
	// Encoding is the pixel format by its ROS name (pkg/camera's
	// Frame.Encoding): see Encodings.
	Encoding      string
	Width, Height int       // [px]
	Step          int       // row length [bytes]; 0 for compressed formats
	Data          []byte    // the picture (borrowed)
	BigEndian     bool      // mono16 only: the high byte comes first
	Capture       time.Time // capture time of the frame (wall clock)
}

// Errors a frame is rejected with (wrapped with the frame's details).
var (
	// ErrUnknownEncoding: the frame's encoding is not in Encodings.
	ErrUnknownEncoding = errors.New("unknown encoding")
	// ErrBadFrame: size, step and data length disagree, or a compressed
	// frame does not decode.
	ErrBadFrame = errors.New("bad frame")
)

// Encodings that need no conversion because the camera encodes itself:
// EncodingH264 passes through (see AUSplitter).
const (
	EncodingH264 = "h264" // H.264 byte stream (V4L2 H264)
	EncodingNV12 = "nv12" // 4:2:0, Y plane then interleaved U V (V4L2 NV12)
	EncodingJPEG = "jpeg" // MJPG and JPEG
)

// encodings maps each input encoding to its bytes per pixel (0: compressed).
var encodings = []struct {
	name string
	bpp  int
}{
	{"yuv422_yuy2", 2}, {"uyvy", 2}, {"mono8", 1}, {"mono16", 2}, {"rgb8", 3}, {"bgr8", 3},
	{"bayer_rggb8", 1}, {"bayer_bggr8", 1}, {"bayer_gbrg8", 1}, {"bayer_grbg8", 1},
	{EncodingNV12, 1}, {EncodingJPEG, 0}, {EncodingH264, 0},
}

// Encodings returns the input encodings this package takes, in a stable
// order.
func Encodings() []string {
	out := make([]string, len(encodings))
	for i, e := range encodings {
		out[i] = e.name
	}
	return out
}

func bytesPerPixel(enc string) (int, bool) {
	for _, e := range encodings {
		if e.name == enc {
			return e.bpp, true
		}
	}
	return 0, false
}

// Converter turns camera frames into I420. YUYV and UYVY go through
// libyuv when it loads (LibyuvUnavailable), else through the Go code,
// with the same result. After the first frame of a size it allocates
// nothing, except for JPEG input (image/jpeg allocates the decoded
// picture). Not safe for concurrent use.
type Converter struct {
	jpegBuf bytes.Reader
	yuv     *yuvCall // libyuv's arguments, made at the first YUYV/UYVY frame
}

// Convert writes f into dst as I420 (BT.601 limited range). dst is
// resized to f's size, which must be even. H.264 frames are not pictures:
// they are refused with ErrUnknownEncoding (pass them through instead).
func (c *Converter) Convert(f *Frame, dst *I420) error {
	bpp, ok := bytesPerPixel(f.Encoding)
	if !ok || f.Encoding == EncodingH264 {
		return fmt.Errorf("video: frame encoding %q: %w", f.Encoding, ErrUnknownEncoding)
	}
	if f.Encoding == EncodingJPEG {
		return c.convertJPEG(f, dst)
	}
	w, h := f.Width, f.Height
	if err := dst.Resize(w, h); err != nil {
		return err
	}
	need := f.Step*(h-1) + w*bpp
	if f.Encoding == EncodingNV12 {
		need = f.Step*h + f.Step*(h/2-1) + w // Y rows then interleaved UV rows, same step
	}
	if f.Step < w*bpp || len(f.Data) < need {
		return fmt.Errorf("video: %s frame %dx%d step %d with %d bytes: %w", f.Encoding, w, h, f.Step, len(f.Data), ErrBadFrame)
	}
	dst.Capture = f.Capture
	switch f.Encoding {
	case "yuv422_yuy2":
		if l, err := libyuvLoad(); err == nil {
			c.libyuv(l.yuy2ToI420, f, dst)
		} else {
			packed422(f, dst, 0, 1, 3)
		}
	case "uyvy":
		if l, err := libyuvLoad(); err == nil {
			c.libyuv(l.uyvyToI420, f, dst)
		} else {
			packed422(f, dst, 1, 0, 2)
		}
	case "mono8":
		grey(f, dst, 1, 0)
	case "mono16":
		off := 1
		if f.BigEndian {
			off = 0
		}
		grey(f, dst, 2, off)
	case "rgb8":
		rgb(f, dst, 0, 2)
	case "bgr8":
		rgb(f, dst, 2, 0)
	case "bayer_rggb8":
		bayer(f, dst, 0, 3)
	case "bayer_bggr8":
		bayer(f, dst, 3, 0)
	case "bayer_gbrg8":
		bayer(f, dst, 2, 1)
	case "bayer_grbg8":
		bayer(f, dst, 1, 2)
	case EncodingNV12:
		nv12(f, dst)
	}
	return nil
}

func (c *Converter) libyuv(fn uintptr, f *Frame, dst *I420) {
	if c.yuv == nil {
		c.yuv = new(yuvCall)
	}
	packed422Libyuv(fn, c.yuv, f, dst)
}

// packed422 converts YUYV (y0=0, u=1, v=3) or UYVY (y0=1, u=0, v=2):
// luma copied, chroma of two rows averaged.
func packed422(f *Frame, dst *I420, y0, u, v int) {
	w, cw := f.Width, f.Width/2
	for y := 0; y < f.Height; y++ {
		row := f.Data[y*f.Step : y*f.Step+2*w]
		out := dst.Y[y*w : (y+1)*w]
		for x := range out {
			out[x] = row[2*x+y0]
		}
	}
	for y := 0; y < f.Height/2; y++ {
		r0 := f.Data[2*y*f.Step : 2*y*f.Step+2*w]
		r1 := f.Data[(2*y+1)*f.Step : (2*y+1)*f.Step+2*w]
		ou, ov := dst.U[y*cw:(y+1)*cw], dst.V[y*cw:(y+1)*cw]
		for x := range ou {
			ou[x] = uint8((int(r0[4*x+u]) + int(r1[4*x+u]) + 1) >> 1)
			ov[x] = uint8((int(r0[4*x+v]) + int(r1[4*x+v]) + 1) >> 1)
		}
	}
}

// grey copies one byte per pixel (bpp apart, at offset off) to luma;
// chroma is neutral.
func grey(f *Frame, dst *I420, bpp, off int) {
	w := f.Width
	for y := 0; y < f.Height; y++ {
		row := f.Data[y*f.Step:]
		out := dst.Y[y*w : (y+1)*w]
		for x := range out {
			out[x] = row[bpp*x+off]
		}
	}
	neutral(dst)
}

func neutral(dst *I420) {
	for i := range dst.U {
		dst.U[i], dst.V[i] = 128, 128
	}
}

// nv12 copies the luma plane and splits the interleaved chroma plane that
// follows it (same row step).
func nv12(f *Frame, dst *I420) {
	w, cw := f.Width, f.Width/2
	for y := 0; y < f.Height; y++ {
		copy(dst.Y[y*w:(y+1)*w], f.Data[y*f.Step:])
	}
	uv := f.Data[f.Height*f.Step:]
	for y := 0; y < f.Height/2; y++ {
		row := uv[y*f.Step:]
		for x := 0; x < cw; x++ {
			dst.U[y*cw+x], dst.V[y*cw+x] = row[2*x], row[2*x+1]
		}
	}
}

// BT.601 limited range from 8-bit RGB, integer arithmetic.
func lumaOf(r, g, b int) uint8 { return uint8((66*r+129*g+25*b+128)>>8 + 16) }
func chromaOf(r, g, b int) (u, v uint8) {
	return uint8((-38*r-74*g+112*b+128)>>8 + 128), uint8((112*r-94*g-18*b+128)>>8 + 128)
}

// rgb converts packed 8-bit RGB (ri, bi: byte index of red and blue in a
// pixel): luma per pixel, chroma from each 2x2 block's mean.
func rgb(f *Frame, dst *I420, ri, bi int) {
	w, cw := f.Width, f.Width/2
	for y := 0; y < f.Height; y++ {
		row := f.Data[y*f.Step : y*f.Step+3*w]
		out := dst.Y[y*w : (y+1)*w]
		for x := range out {
			p := row[3*x : 3*x+3]
			out[x] = lumaOf(int(p[ri]), int(p[1]), int(p[bi]))
		}
	}
	for y := 0; y < f.Height/2; y++ {
		r0 := f.Data[2*y*f.Step : 2*y*f.Step+3*w]
		r1 := f.Data[(2*y+1)*f.Step : (2*y+1)*f.Step+3*w]
		ou, ov := dst.U[y*cw:(y+1)*cw], dst.V[y*cw:(y+1)*cw]
		for x := range ou {
			a, b := r0[6*x:6*x+6], r1[6*x:6*x+6]
			sr := int(a[ri]) + int(a[3+ri]) + int(b[ri]) + int(b[3+ri])
			sg := int(a[1]) + int(a[4]) + int(b[1]) + int(b[4])
			sb := int(a[bi]) + int(a[3+bi]) + int(b[bi]) + int(b[3+bi])
			ou[x], ov[x] = chromaOf(sr>>2, sg>>2, sb>>2)
		}
	}
}

// bayer demosaics 8-bit Bayer data by 2x2 cells (ri, bi: index in the
// cell, 0 top left .. 3 bottom right, of the red and the blue sample; the
// other two are green). Each cell becomes one colour: the luma has half
// the sensor's resolution, as in pkg/mjpeg.
func bayer(f *Frame, dst *I420, ri, bi int) {
	w, cw := f.Width, f.Width/2
	for y := 0; y < f.Height; y += 2 {
		r0, r1 := f.Data[y*f.Step:], f.Data[(y+1)*f.Step:]
		for x := 0; x < w; x += 2 {
			cell := [4]int{int(r0[x]), int(r0[x+1]), int(r1[x]), int(r1[x+1])}
			g := 0
			for k := 0; k < 4; k++ {
				if k != ri && k != bi {
					g += cell[k]
				}
			}
			r, gg, b := cell[ri], g/2, cell[bi]
			l := lumaOf(r, gg, b)
			dst.Y[y*w+x], dst.Y[y*w+x+1], dst.Y[(y+1)*w+x], dst.Y[(y+1)*w+x+1] = l, l, l, l
			dst.U[y/2*cw+x/2], dst.V[y/2*cw+x/2] = chromaOf(r, gg, b)
		}
	}
}

// convertJPEG decodes an MJPG/JPEG frame (image/jpeg; allocates) and
// copies its planes into dst, subsampling 4:2:2 and 4:4:4 chroma to 4:2:0.
func (c *Converter) convertJPEG(f *Frame, dst *I420) error {
	c.jpegBuf.Reset(f.Data)
	img, err := jpeg.Decode(&c.jpegBuf)
	c.jpegBuf.Reset(nil)
	if err != nil {
		return fmt.Errorf("video: jpeg frame: %w: %w", ErrBadFrame, err)
	}
	b := img.Bounds()
	w, h := b.Dx()&^1, b.Dy()&^1
	if err := dst.Resize(w, h); err != nil {
		return fmt.Errorf("video: jpeg frame: %w", err)
	}
	dst.Capture = f.Capture
	switch m := img.(type) {
	case *image.Gray:
		for y := 0; y < h; y++ {
			copy(dst.Y[y*w:(y+1)*w], m.Pix[y*m.Stride:])
		}
		neutral(dst)
	case *image.YCbCr:
		for y := 0; y < h; y++ {
			copy(dst.Y[y*w:(y+1)*w], m.Y[y*m.YStride:])
		}
		cw := w / 2
		for y := 0; y < h/2; y++ {
			for x := 0; x < cw; x++ {
				ci := m.COffset(2*x, 2*y)
				dst.U[y*cw+x], dst.V[y*cw+x] = m.Cb[ci], m.Cr[ci]
			}
		}
	default:
		return fmt.Errorf("video: jpeg frame: colour model %T: %w", img, ErrBadFrame)
	}
	return nil
}
