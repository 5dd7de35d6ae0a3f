package camera

import (
	"bytes"
	"fmt"
	"image"
	"image/jpeg"
	"strings"

	"github.com/telebridge/telebridge/pkg/camera/wire"
)

// PatternPrefix starts the device string of the synthetic test source
// ("pattern:front_left"): a camera whose device starts with it opens no
// V4L2 device but generates frames of its pixel_format, width, height and
// frame_rate in memory, delivered through the same consumer path (Frame,
// counters, Demand; the node's Messages) as a real device. It exists to test the
// ROS node on machines without cameras; the text after the prefix is a
// label (it keeps two test cameras' devices apart). For MJPG/JPEG the
// frames are JPEG images of the grey pattern (PatternJPEG).
const PatternPrefix = "pattern:"

// IsPattern reports whether device names the synthetic test source.
func IsPattern(device string) bool {
	return strings.HasPrefix(device, PatternPrefix) && len(device) > len(PatternPrefix)
}

// Pattern controls: the test source offers one integer control so that the
// live control path can be exercised without a device.
const (
	PatternBrightness        = "brightness" // parameter name of the control
	patternBrightnessDefault = 128
)

// PatternControl is the test source's brightness control at value v
// (V4L2_CID_BRIGHTNESS, 0..255).
func PatternControl(v int64) wire.Control {
	return wire.Control{ID: 0x00980900, Name: "Brightness", Param: PatternBrightness, Type: "integer",
		Min: 0, Max: 255, Step: 1, Default: patternBrightnessDefault, Value: v, Readable: true}
}

// FillPattern writes test image number k (moving vertical bars whose
// level follows brightness) into buf, which holds height rows of step
// bytes of format f. Luma (or every byte of a single-channel or RGB
// format) varies; the chroma bytes of YUYV and UYVY are neutral (128).
// It allocates nothing.
func FillPattern(buf []byte, f wire.Format, step, height uint32, k int, brightness int64) {
	bpp := f.BytesPerPixel
	if bpp == 0 || step == 0 {
		return
	}
	for y := uint32(0); y < height; y++ {
		row := buf[y*step : (y+1)*step]
		for p := range row {
			switch {
			case f.FourCC == wire.FmtYUYV && p%2 == 1, f.FourCC == wire.FmtUYVY && p%2 == 0:
				row[p] = 128
			default:
				x := p / bpp
				v := brightness - 64 + int64((x+8*k)%128)
				row[p] = uint8(min(max(v, 0), 255))
			}
		}
	}
}

// PatternJPEG returns test image number k as a baseline JPEG of a grey
// image width x height [px] (the luma of FillPattern), for the test
// source's compressed formats. It allocates; the source calls it when it
// opens and when brightness changes, not per frame.
func PatternJPEG(width, height, k int, brightness int64) ([]byte, error) {
	img := image.NewGray(image.Rect(0, 0, width, height))
	grey, _ := wire.LookupFormat(wire.FmtGrey)
	FillPattern(img.Pix, grey, uint32(img.Stride), uint32(height), k, brightness)
	var b bytes.Buffer
	if err := jpeg.Encode(&b, img, &jpeg.Options{Quality: 75}); err != nil {
		return nil, fmt.Errorf("test pattern jpeg: %w", err)
	}
	return b.Bytes(), nil
}
