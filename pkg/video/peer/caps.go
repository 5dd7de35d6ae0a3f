package peer

import (
	"fmt"
	"math"

	"github.com/telebridge/telebridge/pkg/video"
)

// Caps are a page's limits for one camera. A zero field means "no limit
// from the page": the embedder's default setting and the congestion
// controller decide.
type Caps struct {
	MaxBitrate int     // [bit/s], 0 or within [MinCapBitrate, MaxCapBitrate]
	FrameRate  float64 // [frames/s], 0 or within [MinCapFrameRate, MaxCapFrameRate]
	Width      int     // [px], 0 or within [MinCapWidth, MaxCapWidth]; set together with Height
	Height     int     // [px], 0 or within [MinCapHeight, MaxCapHeight]; set together with Width
}

// Bounds of the caps a page may ask for; anything outside is refused with
// CodeBadCaps.
const (
	MinCapBitrate   = 50_000     // [bit/s]
	MaxCapBitrate   = 20_000_000 // [bit/s]
	MinCapFrameRate = 1          // [frames/s]
	MaxCapFrameRate = 60         // [frames/s]
	MinCapWidth     = 64         // [px]
	MaxCapWidth     = 4096       // [px]
	MinCapHeight    = 48         // [px]
	MaxCapHeight    = 2304       // [px]
)

// CapsWire is Caps as the page sends it: an absent field is no limit, a
// present one must be in range (so an explicit 0 frame rate is refused).
type CapsWire struct {
	MaxBitrate *int64   `json:"maxBitrate,omitempty"` // [bit/s]
	FrameRate  *float64 `json:"frameRate,omitempty"`  // [frames/s]
	Width      *int64   `json:"width,omitempty"`      // [px]
	Height     *int64   `json:"height,omitempty"`     // [px]
}

// Caps validates w and returns it as Caps; the error names the field and
// the allowed range.
func (w *CapsWire) Caps() (Caps, error) {
	var c Caps
	if w.MaxBitrate != nil {
		v := *w.MaxBitrate
		if v < MinCapBitrate || v > MaxCapBitrate {
			return Caps{}, fmt.Errorf("maxBitrate %d bit/s outside [%d, %d]", v, MinCapBitrate, MaxCapBitrate)
		}
		c.MaxBitrate = int(v)
	}
	if w.FrameRate != nil {
		v := *w.FrameRate
		if math.IsNaN(v) || v < MinCapFrameRate || v > MaxCapFrameRate {
			return Caps{}, fmt.Errorf("frameRate %g frames/s outside [%d, %d]", v, MinCapFrameRate, MaxCapFrameRate)
		}
		c.FrameRate = v
	}
	if (w.Width == nil) != (w.Height == nil) {
		return Caps{}, fmt.Errorf("width and height must be given together")
	}
	if w.Width != nil {
		wd, ht := *w.Width, *w.Height
		if wd < MinCapWidth || wd > MaxCapWidth || ht < MinCapHeight || ht > MaxCapHeight {
			return Caps{}, fmt.Errorf("resolution %dx%d outside [%dx%d, %dx%d]", wd, ht, MinCapWidth, MinCapHeight, MaxCapWidth, MaxCapHeight)
		}
		c.Width, c.Height = int(wd), int(ht)
	}
	return c, nil
}

// Fit returns the setting that serves caps c from a camera delivering
// width x height pictures at fps frames/s: the largest even size within
// c's box that keeps the camera's aspect ratio (never larger than the
// camera's, never below 16 px a side), and c's frame rate if it is below
// the camera's. A cap the camera already meets gives the zero video.Setting, so
// pages that ask for no less than the camera gives share its encoder.
func (c Caps) Fit(width, height int, fps float64) video.Setting {
	var s video.Setting
	if c.Width > 0 && c.Height > 0 && width > 0 && height > 0 && (c.Width < width || c.Height < height) {
		scale := min(float64(c.Width)/float64(width), float64(c.Height)/float64(height))
		even := func(v float64) int { return max(16, int(v)/2*2) }
		s.Width, s.Height = even(float64(width)*scale), even(float64(height)*scale)
		if s.Width >= width && s.Height >= height {
			s.Width, s.Height = 0, 0
		}
	}
	if c.FrameRate > 0 && (fps <= 0 || c.FrameRate < fps) {
		s.MaxFrameRate = c.FrameRate
	}
	return s
}
