package video

import (
	"errors"
	"time"
)

// ErrNoH264 is wrapped by the error of NewEncoder and NewStream when libx264
// could not be loaded at run time (H264Unavailable says why). Callers fall
// back to MJPEG.
var ErrNoH264 = errors.New("no H.264 encoder: install libx264 (apt-get install libx264-164)")

// EncoderConfig sets up one encoder.
type EncoderConfig struct {
	Width, Height int     // picture size [px], even
	FrameRate     float64 // nominal frame rate [Hz]
	Bitrate       int     // initial target [bit/s]
	// KeyInterval is the longest time between two IDR pictures [s]
	// (periodic IDR). Default 2 s.
	KeyInterval time.Duration
}

// DefaultKeyInterval is the default period of IDR pictures [s].
const DefaultKeyInterval = 2 * time.Second

// Encoder turns I420 pictures into H.264 access units (Annex-B, SPS and
// PPS before every IDR) with real-time settings: no B-frames, no
// look-ahead, one access unit out for every picture in. It is not safe for
// concurrent use: one goroutine owns it.
type Encoder interface {
	// Encode encodes pic; key forces an IDR picture. It returns the access
	// unit (owned by the caller, newly allocated) and whether it is an IDR
	// picture.
	Encode(pic *I420, key bool) (au []byte, isKey bool, err error)
	// SetBitrate changes the target bitrate [bit/s] while running.
	SetBitrate(bitsPerSecond int) error
	// Close frees the encoder.
	Close() error
}

// NewEncoder opens the H.264 encoder, libx264 loaded at run time (an error
// wrapping ErrNoH264 when it cannot be loaded: see H264Unavailable).
func NewEncoder(cfg EncoderConfig) (Encoder, error) {
	if cfg.KeyInterval <= 0 {
		cfg.KeyInterval = DefaultKeyInterval
	}
	if err := (&I420{}).Resize(cfg.Width, cfg.Height); err != nil {
		return nil, err
	}
	if !(cfg.FrameRate > 0 && cfg.FrameRate <= 1000) {
		cfg.FrameRate = 30
	}
	return newH264Encoder(cfg)
}
