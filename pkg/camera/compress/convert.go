package compress

import (
	"fmt"
	"image"

	"github.com/telebridge/telebridge/pkg/camera"
	"github.com/telebridge/telebridge/pkg/mjpeg"
)

// Encodings returns the frame encodings Encode takes, in a stable order:
// those pkg/mjpeg converts (pkg/camera/wire's format table and its
// layout-preserving overrides), FormatJPEG among them.
func Encodings() []string { return mjpeg.Encodings() }

// isJPEG reports whether f is a compressed frame, passed through; it
// checks the start-of-image marker and allocates nothing unless it fails.
func isJPEG(f *camera.Frame) (bool, error) {
	if f.Encoding != FormatJPEG {
		return false, nil
	}
	if len(f.Data) < 4 || f.Data[0] != 0xff || f.Data[1] != 0xd8 {
		return true, fmt.Errorf("compress: jpeg frame of %d bytes without a start-of-image marker: %w", len(f.Data), ErrBadFrame)
	}
	return true, nil
}

// convert fills the encoder's reused picture from the raw frame f with
// pkg/mjpeg's converter at f's own size; a frame it refuses is an error
// wrapping ErrUnknownEncoding or ErrBadFrame.
func (e *Encoder) convert(f *camera.Frame) (image.Image, error) {
	img, err := e.conv.Full(f.Encoding, f.IsBigEndian != 0, f.Data, int(f.Width), int(f.Height), int(f.Step))
	if err != nil {
		return nil, fmt.Errorf("compress: %w", err)
	}
	return img, nil
}
