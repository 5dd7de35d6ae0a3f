//go:build !nox264

package video

import (
	"errors"
	"fmt"
	"image"
	"math"

	"github.com/pion/mediadevices/pkg/codec"
	"github.com/pion/mediadevices/pkg/codec/x264"
	mdvideo "github.com/pion/mediadevices/pkg/io/video"
	"github.com/pion/mediadevices/pkg/prop"
)

// H264Available reports whether this binary has an H.264 encoder.
const H264Available = true

// x264Encoder is libx264 through pion/mediadevices (preset ultrafast,
// tune zerolatency: no B-frames, no look-ahead, sliced threads, one
// access unit per picture).
//
// The binding never sets x264's frame rate, so x264 assumes 25 Hz and
// its rate control aims at bitrate*fps/25; scale compensates.
type x264Encoder struct {
	rc    codec.ReadCloser
	ctl   interface{ ForceKeyFrame() error }
	br    codec.BitRateController
	img   image.YCbCr // points at the picture being encoded
	scale float64     // x264's assumed 25 Hz / the real frame rate
}

// x264AssumedRate is the frame rate x264 falls back to when none is set
// [Hz] (its default; the binding sets none).
const x264AssumedRate = 25.0

func newH264Encoder(cfg EncoderConfig) (Encoder, error) {
	e := &x264Encoder{scale: x264AssumedRate / cfg.FrameRate}
	p, err := x264.NewParams()
	if err != nil {
		return nil, fmt.Errorf("video: x264 params: %w", err)
	}
	p.Preset = x264.PresetUltrafast
	p.BitRate = e.scaled(cfg.Bitrate)
	p.KeyFrameInterval = max(1, int(math.Round(cfg.KeyInterval.Seconds()*cfg.FrameRate)))
	r := mdvideo.ReaderFunc(func() (image.Image, func(), error) { return &e.img, func() {}, nil })
	rc, err := p.BuildVideoEncoder(r, prop.Media{Video: prop.Video{Width: cfg.Width, Height: cfg.Height, FrameRate: float32(cfg.FrameRate)}})
	if err != nil {
		return nil, fmt.Errorf("video: open x264 %dx%d: %w", cfg.Width, cfg.Height, err)
	}
	e.rc = rc
	var ok bool
	if e.ctl, ok = rc.Controller().(interface{ ForceKeyFrame() error }); !ok {
		_ = rc.Close()
		return nil, errors.New("video: x264 binding lacks ForceKeyFrame")
	}
	if e.br, ok = rc.Controller().(codec.BitRateController); !ok {
		_ = rc.Close()
		return nil, errors.New("video: x264 binding lacks SetBitRate")
	}
	return e, nil
}

func (e *x264Encoder) scaled(bps int) int { return int(float64(bps) * e.scale) }

func (e *x264Encoder) Encode(pic *I420, key bool) ([]byte, bool, error) {
	e.img = image.YCbCr{
		Y: pic.Y, Cb: pic.U, Cr: pic.V, YStride: pic.Width, CStride: pic.Width / 2,
		SubsampleRatio: image.YCbCrSubsampleRatio420, Rect: image.Rect(0, 0, pic.Width, pic.Height),
	}
	if key {
		_ = e.ctl.ForceKeyFrame()
	}
	au, release, err := e.rc.Read()
	if release != nil {
		release()
	}
	if err != nil {
		return nil, false, fmt.Errorf("video: x264 encode: %w", err)
	}
	return au, HasIDR(au), nil
}

func (e *x264Encoder) SetBitrate(bps int) error {
	if err := e.br.SetBitRate(e.scaled(bps)); err != nil {
		return fmt.Errorf("video: x264 bitrate %d bit/s: %w", bps, err)
	}
	return nil
}

func (e *x264Encoder) Close() error { return e.rc.Close() }
