package video

import (
	"cmp"
	"errors"
	"fmt"
	"time"
)

// Config is one camera's encoded video at one setting.
type Config struct {
	// Name names the stream in errors and logs (the camera's name).
	Name string
	// FrameRate is the camera's nominal frame rate [Hz]; it sets the
	// access units' Duration and the encoder's rate control. Default 30.
	FrameRate float64
	// Bitrate is the target when no viewer has said what it wants
	// [bit/s]. Default 1 000 000.
	Bitrate int
	// MinBitrate and MaxBitrate clamp every viewer's WantBitrate
	// [bit/s]. Defaults 100 000 and 4 000 000.
	MinBitrate, MaxBitrate int
	// KeyInterval is the period of IDR pictures (periodic IDR) [s].
	// Default 2 s.
	KeyInterval time.Duration
	// KeyMerge is the shortest time between two IDR pictures forced by
	// RequestKeyFrame [s]; requests in between are merged into the next
	// one. Default 250 ms.
	KeyMerge time.Duration
	// FrameCode stamps each picture's capture time and number into its top
	// band (package framecode) before encoding: the glass-to-glass latency
	// probe. Default off.
	FrameCode bool
	// PassThrough takes H.264 frames from a camera that encodes itself
	// (Frame.Encoding "h264"): access units are cut from its byte stream,
	// never decoded or re-encoded; bitrate and keyframe requests then have
	// no effect. Default off (frames are pictures, encoded here).
	PassThrough bool
	// Width and Height, when set, are the size the pictures are encoded at
	// [px] (even): larger frames are shrunk to it (area averaging), smaller
	// ones pass at their own size. Zero: the frames' size. Not for
	// PassThrough.
	Width, Height int
	// MaxFrameRate, when set, is the most pictures a second that are
	// encoded [Hz]: frames beyond it are dropped by capture time (counted
	// in Stats.FramesDecimated). It also lowers FrameRate, which the
	// encoder's rate control uses, to it. Zero: every frame. Not for
	// PassThrough.
	MaxFrameRate float64
	// NewEncoder opens the encoder. Default NewEncoder (x264); tests
	// substitute their own.
	NewEncoder func(EncoderConfig) (Encoder, error)
	// OnViewers is called with the number of viewers whenever it changes,
	// outside the stream's locks: wire it to the camera's demand so that a
	// camera nobody watches does not capture at all. Optional.
	OnViewers func(n int)
}

// Defaults of Config.
const (
	DefaultFrameRate  = 30.0
	DefaultBitrate    = 1_000_000
	DefaultMinBitrate = 100_000
	DefaultMaxBitrate = 4_000_000
	DefaultKeyMerge   = 250 * time.Millisecond
)

// ErrBadConfig: a Config field out of range.
var ErrBadConfig = errors.New("bad stream config")

// withDefaults fills cfg's zero fields with their defaults and checks it:
// an error wraps ErrBadConfig, or ErrNoH264 for a stream to encode where
// libx264 cannot be loaded.
func (cfg Config) withDefaults() (Config, error) {
	cfg.FrameRate = cmp.Or(cfg.FrameRate, DefaultFrameRate)
	cfg.Bitrate = cmp.Or(cfg.Bitrate, DefaultBitrate)
	cfg.MinBitrate = cmp.Or(cfg.MinBitrate, DefaultMinBitrate)
	cfg.MaxBitrate = cmp.Or(cfg.MaxBitrate, DefaultMaxBitrate)
	cfg.KeyInterval = cmp.Or(cfg.KeyInterval, DefaultKeyInterval)
	cfg.KeyMerge = cmp.Or(cfg.KeyMerge, DefaultKeyMerge)
	switch {
	case !(cfg.FrameRate >= 0.1 && cfg.FrameRate <= 1000):
		return cfg, fmt.Errorf("video: stream %s: frame rate %v Hz: want 0.1..1000: %w", cfg.Name, cfg.FrameRate, ErrBadConfig)
	case cfg.MinBitrate < 10_000 || cfg.MaxBitrate > 100_000_000 || cfg.MinBitrate > cfg.MaxBitrate:
		return cfg, fmt.Errorf("video: stream %s: bitrate limits %d..%d bit/s: want 10 000 <= min <= max <= 100 000 000: %w", cfg.Name, cfg.MinBitrate, cfg.MaxBitrate, ErrBadConfig)
	case cfg.KeyInterval < 0 || cfg.KeyMerge < 0:
		return cfg, fmt.Errorf("video: stream %s: negative key interval: %w", cfg.Name, ErrBadConfig)
	case cfg.Width < 0 || cfg.Height < 0 || cfg.Width%2 != 0 || cfg.Height%2 != 0 || (cfg.Width == 0) != (cfg.Height == 0) ||
		(cfg.Width != 0 && (cfg.Width < MinSize || cfg.Height < MinSize || cfg.Width > MaxSize || cfg.Height > MaxSize)):
		return cfg, fmt.Errorf("video: stream %s: size %dx%d: want both 0 or even within %d..%d: %w", cfg.Name, cfg.Width, cfg.Height, MinSize, MaxSize, ErrBadConfig)
	case !(cfg.MaxFrameRate == 0 || cfg.MaxFrameRate >= 0.1 && cfg.MaxFrameRate <= 1000):
		return cfg, fmt.Errorf("video: stream %s: max frame rate %v Hz: want 0 or 0.1..1000: %w", cfg.Name, cfg.MaxFrameRate, ErrBadConfig)
	case cfg.PassThrough && (cfg.Width != 0 || cfg.MaxFrameRate != 0):
		return cfg, fmt.Errorf("video: stream %s: a pass-through stream cannot be resized or decimated: %w", cfg.Name, ErrBadConfig)
	}
	if cfg.MaxFrameRate != 0 {
		cfg.FrameRate = min(cfg.FrameRate, cfg.MaxFrameRate)
	}
	if cfg.NewEncoder == nil {
		if err := H264Unavailable(); err != nil && !cfg.PassThrough {
			return cfg, fmt.Errorf("video: stream %s: %w", cfg.Name, err)
		}
		cfg.NewEncoder = NewEncoder
	}
	return cfg, nil
}
