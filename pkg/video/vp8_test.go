//go:build vpx

package video

// VP8 through pion/mediadevices' libvpx codec, only for the encoder
// comparison (go test -tags vpx; needs libvpx-dev). The product does not
// use it (see docs/video.md).

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"image"

	"github.com/pion/mediadevices/pkg/codec"
	"github.com/pion/mediadevices/pkg/codec/vpx"
	mdvideo "github.com/pion/mediadevices/pkg/io/video"
	"github.com/pion/mediadevices/pkg/prop"
)

type vp8Encoder struct {
	rc  codec.ReadCloser
	img image.YCbCr
}

func newVP8(cfg EncoderConfig) (Encoder, error) {
	p, err := vpx.NewVP8Params()
	if err != nil {
		return nil, err
	}
	p.BitRate = cfg.Bitrate
	p.KeyFrameInterval = 60
	p.RateControlEndUsage = vpx.RateControlCBR
	p.LagInFrames = 0
	e := &vp8Encoder{}
	r := mdvideo.ReaderFunc(func() (image.Image, func(), error) { return &e.img, func() {}, nil })
	e.rc, err = p.BuildVideoEncoder(r, prop.Media{Video: prop.Video{Width: cfg.Width, Height: cfg.Height, FrameRate: float32(cfg.FrameRate)}})
	if err != nil {
		return nil, fmt.Errorf("vp8: %w", err)
	}
	return e, nil
}

func (e *vp8Encoder) Encode(pic *I420, key bool) ([]byte, bool, error) {
	e.img = image.YCbCr{Y: pic.Y, Cb: pic.U, Cr: pic.V, YStride: pic.Width, CStride: pic.Width / 2,
		SubsampleRatio: image.YCbCrSubsampleRatio420, Rect: image.Rect(0, 0, pic.Width, pic.Height)}
	if key {
		_ = e.rc.Controller().(codec.KeyFrameController).ForceKeyFrame()
	}
	b, _, err := e.rc.Read()
	return b, len(b) > 0 && b[0]&1 == 0, err
}

func (e *vp8Encoder) SetBitrate(bps int) error {
	return e.rc.Controller().(codec.BitRateController).SetBitRate(bps)
}

func (e *vp8Encoder) Close() error { return e.rc.Close() }

func init() { addCandidate("vp8", candidate{open: newVP8, ext: "ivf", wrap: ivf}) }

// ivf wraps VP8 frames in an IVF file (what ffmpeg reads VP8 from).
func ivf(frames [][]byte, w, h int) []byte {
	var b bytes.Buffer
	hdr := make([]byte, 32)
	copy(hdr, "DKIF")
	binary.LittleEndian.PutUint16(hdr[6:], 32)
	copy(hdr[8:], "VP80")
	binary.LittleEndian.PutUint16(hdr[12:], uint16(w))
	binary.LittleEndian.PutUint16(hdr[14:], uint16(h))
	binary.LittleEndian.PutUint32(hdr[16:], 30)
	binary.LittleEndian.PutUint32(hdr[20:], 1)
	binary.LittleEndian.PutUint32(hdr[24:], uint32(len(frames)))
	b.Write(hdr)
	for i, f := range frames {
		var fh [12]byte
		binary.LittleEndian.PutUint32(fh[:], uint32(len(f)))
		binary.LittleEndian.PutUint64(fh[4:], uint64(i))
		b.Write(fh[:])
		b.Write(f)
	}
	return b.Bytes()
}
