//go:build vpx

package video

// VP8 through pion/mediadevices' libvpx codec, only for the encoder
// comparison (go test -tags vpx; needs libvpx-dev). The product does not
// use it (see docs/video.md).

import (
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
