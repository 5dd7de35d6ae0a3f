package mjpeg

import (
	"errors"
	"fmt"
	"time"
)

// Config configures a Stream. The zero value of every field means its
// default.
type Config struct {
	// Rate is the most JPEG frames per second a stream publishes [Hz];
	// frames the camera delivers faster are skipped before any copy.
	// Range (0, 120], default 10.
	Rate float64
	// Quality is the JPEG quality of encoded frames, 1..100, default 75.
	// Passed-through MJPG/JPEG frames keep the camera's quality.
	Quality int
	// MaxWidth bounds the width of encoded frames [px]: the image is
	// downscaled by a box filter of 2x, 4x, ... (at most 16x) until its
	// width is at most MaxWidth. 0 (default) keeps the native size (half
	// size for Bayer, see Encodings). Passed-through frames are never
	// scaled.
	MaxWidth int
	// WriteTimeout bounds the write of one frame to one viewer [s]: a
	// viewer whose connection takes longer (a stalled client) is
	// disconnected, so it stops counting as a viewer. Default 10 s.
	WriteTimeout time.Duration
	// SnapshotTimeout bounds how long Snapshot waits for a fresh frame
	// when none is recent [s]. Default 3 s.
	SnapshotTimeout time.Duration
}

// Defaults and limits of Config.
const (
	DefaultRate            = 10.0
	DefaultQuality         = 75
	DefaultWriteTimeout    = 10 * time.Second
	DefaultSnapshotTimeout = 3 * time.Second
	MaxRate                = 120.0 // [Hz]
)

// ErrBadConfig is wrapped by NewStream's errors.
var ErrBadConfig = errors.New("bad config")

// ErrClosed is returned for requests to a closed Stream.
var ErrClosed = errors.New("stream closed")

func (c Config) normalize() (Config, error) {
	if c.Rate == 0 {
		c.Rate = DefaultRate
	}
	if !(c.Rate > 0 && c.Rate <= MaxRate) { // also rejects NaN
		return c, fmt.Errorf("rate %v Hz: want (0, %v]: %w", c.Rate, MaxRate, ErrBadConfig)
	}
	if c.Quality == 0 {
		c.Quality = DefaultQuality
	}
	if c.Quality < 1 || c.Quality > 100 {
		return c, fmt.Errorf("quality %d: want 1..100: %w", c.Quality, ErrBadConfig)
	}
	if c.MaxWidth < 0 || c.MaxWidth > maxSize {
		return c, fmt.Errorf("max width %d px: want 0..%d: %w", c.MaxWidth, maxSize, ErrBadConfig)
	}
	if c.WriteTimeout == 0 {
		c.WriteTimeout = DefaultWriteTimeout
	}
	if c.WriteTimeout < 0 {
		return c, fmt.Errorf("write timeout %v: want > 0: %w", c.WriteTimeout, ErrBadConfig)
	}
	if c.SnapshotTimeout == 0 {
		c.SnapshotTimeout = DefaultSnapshotTimeout
	}
	if c.SnapshotTimeout < 0 {
		return c, fmt.Errorf("snapshot timeout %v: want > 0: %w", c.SnapshotTimeout, ErrBadConfig)
	}
	return c, nil
}
