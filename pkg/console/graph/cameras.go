package graph

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/telebridge/telebridge/pkg/camera"
)

// Camera transports, the values of the camera_transport parameter: which
// of camera_publisher's image topics the console subscribes to.
const (
	// TransportAuto subscribes to <camera>/image_raw where it is
	// published, else to <camera>/image_raw/compressed, the only image
	// topic of a MJPG camera. The console encodes raw images at the page's
	// rate (10 Hz) itself, which costs the robot less than
	// camera_publisher encoding every frame; MJPG passes through. The
	// default.
	TransportAuto = "auto"
	// TransportCompressed always subscribes to
	// <camera>/image_raw/compressed (sensor_msgs/CompressedImage, JPEG),
	// which every camera has: MJPG cameras' own frames, other formats
	// encoded by camera_publisher at every frame. The console passes the
	// JPEG on to the page without re-encoding, and the graph carries about
	// a twelfth of the raw bytes: for a console off the robot.
	TransportCompressed = "compressed"
	// TransportRaw always subscribes to <camera>/image_raw
	// (sensor_msgs/Image), which MJPG cameras do not have.
	TransportRaw = "raw"
)

// CameraTopic is a topic the console subscribes to for one camera.
type CameraTopic struct {
	Topic      string // resolved topic name
	Compressed bool   // sensor_msgs/CompressedImage; else sensor_msgs/Image
}

// CameraTopics are a camera's two image topics and the transport that
// chooses between them.
type CameraTopics struct {
	Raw        string // <camera>/image_raw, resolved
	Compressed string // <camera>/image_raw/compressed, resolved
	Transport  string // TransportAuto, TransportCompressed or TransportRaw
}

// Choose returns the topic to subscribe to, given whether each topic has
// a publisher on the graph now. Raw and compressed take their topic
// whatever the graph says. Auto takes image_raw when it is published,
// else image_raw/compressed when that is, and reports false while
// neither is (camera_publisher not up yet: ask again later).
func (c CameraTopics) Choose(rawPublished, compressedPublished bool) (CameraTopic, bool) {
	raw, comp := CameraTopic{Topic: c.Raw}, CameraTopic{Topic: c.Compressed, Compressed: true}
	switch {
	case c.Transport == TransportRaw:
		return raw, true
	case c.Transport == TransportCompressed:
		return comp, true
	case rawPublished:
		return raw, true
	case compressedPublished:
		return comp, true
	}
	return CameraTopic{}, false
}

// ErrNotJPEG: a CompressedImage whose format is not JPEG (e.g. PNG).
var ErrNotJPEG = errors.New("compressed image is not jpeg")

// IsJPEGFormat reports whether a sensor_msgs/CompressedImage format field
// names JPEG: camera_publisher's "jpeg", or image_transport's
// compressed-plugin form "<encoding>; jpeg compressed <encoding>".
func IsJPEGFormat(format string) bool {
	f := strings.ToLower(strings.TrimSpace(format))
	return f == "jpeg" || f == "jpg" || strings.Contains(f, "jpeg compressed")
}

// CompressedFrame fills f from a sensor_msgs/CompressedImage (its header
// stamp and frame_id, format and data) for the console's MJPEG stream,
// which passes JPEG through. data is borrowed by f, as the subscription
// callback lends it. The size comes from the JPEG's frame header. A
// format other than JPEG is ErrNotJPEG, bytes that are not a JPEG
// ErrBadJPEG; f is then left unchanged.
func CompressedFrame(f *camera.Frame, stamp time.Time, frameID, format string, data []byte) error {
	if !IsJPEGFormat(format) {
		return fmt.Errorf("graph: compressed image format %q: %w", format, ErrNotJPEG)
	}
	w, h, err := JPEGSize(data)
	if err != nil {
		return err
	}
	*f = camera.Frame{Header: camera.Header{Stamp: stamp, FrameID: frameID}, Width: uint32(w), Height: uint32(h),
		Encoding: "jpeg", Compressed: true, Data: data}
	return nil
}

// ErrBadJPEG: the bytes are not a JPEG with a frame header.
var ErrBadJPEG = errors.New("not a jpeg")

// JPEGSize returns the width and height [px] of a JPEG from its frame
// header (SOFn), reading the markers before it and nothing else. It
// allocates nothing unless it fails.
func JPEGSize(b []byte) (width, height int, err error) {
	if len(b) < 4 || b[0] != 0xff || b[1] != 0xd8 {
		return 0, 0, fmt.Errorf("graph: %d bytes without a start-of-image marker: %w", len(b), ErrBadJPEG)
	}
	i := 2
	for i+4 <= len(b) {
		if b[i] != 0xff {
			return 0, 0, fmt.Errorf("graph: jpeg: byte %d is %#x, want a marker: %w", i, b[i], ErrBadJPEG)
		}
		m := b[i+1]
		switch {
		case m == 0xff: // fill byte before a marker
			i++
			continue
		case m == 0x01 || m >= 0xd0 && m <= 0xd7: // markers without a length
			i += 2
			continue
		case m == 0xd9 || m == 0xda: // end of image, start of scan: no frame header before
			return 0, 0, fmt.Errorf("graph: jpeg: marker %#x before a frame header: %w", m, ErrBadJPEG)
		}
		n := int(b[i+2])<<8 | int(b[i+3]) // segment length, with its own two bytes
		if n < 2 || i+2+n > len(b) {
			return 0, 0, fmt.Errorf("graph: jpeg: segment %#x of %d bytes at %d overruns %d: %w", m, n, i, len(b), ErrBadJPEG)
		}
		if m >= 0xc0 && m <= 0xcf && m != 0xc4 && m != 0xc8 && m != 0xcc { // SOF0..SOF15
			if n < 8 {
				return 0, 0, fmt.Errorf("graph: jpeg: frame header of %d bytes: %w", n, ErrBadJPEG)
			}
			h, w := int(b[i+5])<<8|int(b[i+6]), int(b[i+7])<<8|int(b[i+8])
			if w == 0 || h == 0 {
				return 0, 0, fmt.Errorf("graph: jpeg: size %dx%d: %w", w, h, ErrBadJPEG)
			}
			return w, h, nil
		}
		i += 2 + n
	}
	return 0, 0, fmt.Errorf("graph: jpeg: no frame header in %d bytes: %w", len(b), ErrBadJPEG)
}
