package wire

import (
	"fmt"
	"strings"
)

// FourCC is a V4L2 pixel format code (V4L2_PIX_FMT_*): four ASCII bytes,
// the first in the least significant byte.
type FourCC uint32

// NewFourCC builds a FourCC from its four-character name, e.g. "YUYV".
func NewFourCC(s string) (FourCC, error) {
	if len(s) != 4 {
		return 0, fmt.Errorf("camera: pixel format %q: want 4 characters: %w", s, ErrUnsupportedFormat)
	}
	return FourCC(uint32(s[0]) | uint32(s[1])<<8 | uint32(s[2])<<16 | uint32(s[3])<<24), nil
}

// String returns the four characters of f (non-printable bytes as '.').
func (f FourCC) String() string {
	var b [4]byte
	for i := range b {
		c := byte(f >> (8 * i))
		if c < 0x20 || c > 0x7e {
			c = '.'
		}
		b[i] = c
	}
	return strings.TrimRight(string(b[:]), " ")
}

// Pixel formats the package publishes without conversion.
const (
	FmtYUYV  FourCC = 'Y' | 'U'<<8 | 'Y'<<16 | 'V'<<24 // YUV 4:2:2, Y0 U Y1 V
	FmtUYVY  FourCC = 'U' | 'Y'<<8 | 'V'<<16 | 'Y'<<24 // YUV 4:2:2, U Y0 V Y1
	FmtGrey  FourCC = 'G' | 'R'<<8 | 'E'<<16 | 'Y'<<24 // 8-bit luminance
	FmtY16   FourCC = 'Y' | '1'<<8 | '6'<<16 | ' '<<24 // 16-bit luminance, little-endian
	FmtRGB24 FourCC = 'R' | 'G'<<8 | 'B'<<16 | '3'<<24 // RGB 8-8-8
	FmtBGR24 FourCC = 'B' | 'G'<<8 | 'R'<<16 | '3'<<24 // BGR 8-8-8
	FmtBGGR8 FourCC = 'B' | 'A'<<8 | '8'<<16 | '1'<<24 // Bayer 8-bit, BGGR order (V4L2 "BA81")
	FmtGBRG8 FourCC = 'G' | 'B'<<8 | 'R'<<16 | 'G'<<24 // Bayer 8-bit, GBRG order
	FmtGRBG8 FourCC = 'G' | 'R'<<8 | 'B'<<16 | 'G'<<24 // Bayer 8-bit, GRBG order
	FmtRGGB8 FourCC = 'R' | 'G'<<8 | 'G'<<16 | 'B'<<24 // Bayer 8-bit, RGGB order
	FmtMJPEG FourCC = 'M' | 'J'<<8 | 'P'<<16 | 'G'<<24 // Motion-JPEG
	FmtJPEG  FourCC = 'J' | 'P'<<8 | 'E'<<16 | 'G'<<24 // JFIF JPEG
)

// Format describes how a V4L2 pixel format is published.
type Format struct {
	FourCC FourCC // the V4L2 pixel format
	// Name is the parameter spelling of the format, e.g. "YUYV", "GRBG".
	Name string
	// Encoding is the sensor_msgs/Image encoding, e.g. "yuv422_yuy2"; for a
	// compressed format it is the sensor_msgs/CompressedImage format
	// ("jpeg").
	Encoding string
	// BytesPerPixel is the size of one pixel in the packed image [bytes];
	// 0 for compressed formats.
	BytesPerPixel int
	// Compressed is true when frames go out as sensor_msgs/CompressedImage
	// and their size varies from frame to frame.
	Compressed bool
}

// formats is the encoding map: V4L2 pixel format -> ROS encoding, one entry
// per format, no colour conversion anywhere.
var formats = []Format{
	{FmtYUYV, "YUYV", "yuv422_yuy2", 2, false},
	{FmtUYVY, "UYVY", "uyvy", 2, false},
	{FmtGrey, "GREY", "mono8", 1, false},
	{FmtY16, "Y16", "mono16", 2, false},
	{FmtRGB24, "RGB3", "rgb8", 3, false},
	{FmtBGR24, "BGR3", "bgr8", 3, false},
	{FmtBGGR8, "BGGR", "bayer_bggr8", 1, false},
	{FmtGBRG8, "GBRG", "bayer_gbrg8", 1, false},
	{FmtGRBG8, "GRBG", "bayer_grbg8", 1, false},
	{FmtRGGB8, "RGGB", "bayer_rggb8", 1, false},
	{FmtMJPEG, "MJPG", "jpeg", 0, true},
	{FmtJPEG, "JPEG", "jpeg", 0, true},
}

// formatAliases are other spellings accepted for the pixel_format parameter.
var formatAliases = map[string]FourCC{
	"BA81": FmtBGGR8, "MJPEG": FmtMJPEG, "RGB24": FmtRGB24, "BGR24": FmtBGR24,
	"Y16 ": FmtY16, "GRAY": FmtGrey, "MONO8": FmtGrey, "MONO16": FmtY16,
}

// Formats returns the supported formats in a stable order. The caller may
// modify the returned slice.
func Formats() []Format {
	return append([]Format(nil), formats...)
}

// LookupFormat returns how pixel format f is published, or false if the
// package does not publish it (it would need a conversion).
func LookupFormat(f FourCC) (Format, bool) {
	for _, e := range formats {
		if e.FourCC == f {
			return e, true
		}
	}
	return Format{}, false
}

// ParsePixelFormat returns the format named by a pixel_format parameter
// value: a format name from the table ("YUYV", "GRBG", "MJPG"), an alias
// ("MJPEG", "BA81"), case-insensitive. ErrUnsupportedFormat otherwise.
func ParsePixelFormat(name string) (Format, error) {
	n := strings.ToUpper(strings.TrimSpace(name))
	for _, e := range formats {
		if e.Name == n {
			return e, nil
		}
	}
	if f, ok := formatAliases[n]; ok {
		e, _ := LookupFormat(f)
		return e, nil
	}
	return Format{}, fmt.Errorf("camera: pixel format %q: %w", name, ErrUnsupportedFormat)
}

// bayerEncodings are the 8-bit single-channel encodings a GREY device may be
// declared to carry: some sensors deliver raw Bayer data through a format
// the driver calls GREY. Only these overrides are allowed, because they do
// not change the byte layout.
var bayerEncodings = map[string]bool{
	"bayer_bggr8": true, "bayer_gbrg8": true, "bayer_grbg8": true, "bayer_rggb8": true,
}

// ResolveEncoding returns the ROS encoding to publish for format f given
// the encoding parameter: empty means the format's own encoding; otherwise
// the override must equal it or, for an 8-bit single-channel format (GREY
// or Bayer), be one of the 8-bit Bayer or mono8 encodings (same byte layout,
// different colour filter). Anything else would need a conversion and is
// ErrBadEncoding.
func ResolveEncoding(f Format, override string) (string, error) {
	if override == "" || override == f.Encoding {
		return f.Encoding, nil
	}
	if !f.Compressed && f.BytesPerPixel == 1 && (bayerEncodings[override] || override == "mono8") {
		return override, nil
	}
	return "", fmt.Errorf("camera: encoding %q for pixel format %s: %w", override, f.Name, ErrBadEncoding)
}
