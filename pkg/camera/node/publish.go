package node

import "github.com/telebridge/telebridge/pkg/camera"

// Messages are the outgoing messages of one camera, reused frame after
// frame so that publishing allocates nothing: the frame callback calls
// Fill, then publishes Image (or Compressed) and Info. Not safe for
// concurrent use: it belongs to the camera's capture goroutine.
type Messages struct {
	Image      camera.Image           // sensor_msgs/Image, for uncompressed formats
	Compressed camera.CompressedImage // sensor_msgs/CompressedImage, for MJPG/JPEG
	Info       CameraInfo             // sensor_msgs/CameraInfo, same header as the image

	info *InfoManager
}

// NewMessages returns the messages of a camera whose camera info comes
// from info (nil: uncalibrated, size only).
func NewMessages(info *InfoManager) *Messages {
	return &Messages{info: info}
}

// Fill copies frame f into Image, or into Compressed when f is compressed
// (the one copy of the image bytes), and sets Info for the same header and
// size. It reports whether the compressed message is the one to publish.
func (m *Messages) Fill(f *camera.Frame) (compressed bool) {
	if f.Compressed {
		f.CopyToCompressed(&m.Compressed)
	} else {
		f.CopyTo(&m.Image)
	}
	m.setInfo(f)
	return f.Compressed
}

// Lend is Fill without the copy, for a publisher whose Publish makes its
// own copy of the message before returning (rclgo converts every message
// into C memory): Image.Data (or Compressed.Data) is the frame's borrowed
// buffer itself, valid only until the frame callback returns, and the
// publisher's conversion is then the one copy of the image bytes. Not
// counted in camera.Stats.Copies, which counts the package's own copies. It
// reports whether the compressed message is the one to publish.
func (m *Messages) Lend(f *camera.Frame) (compressed bool) {
	if f.Compressed {
		m.Compressed = camera.CompressedImage{Header: f.Header, Format: f.Encoding, Data: f.Data}
	} else {
		m.Image = camera.Image{Header: f.Header, Height: f.Height, Width: f.Width, Encoding: f.Encoding,
			IsBigEndian: f.IsBigEndian, Step: f.Step, Data: f.Data}
	}
	m.setInfo(f)
	return f.Compressed
}

// Release drops the references Lend took to the frame's buffer; call it
// before the frame callback returns.
func (m *Messages) Release() {
	m.Image.Data, m.Compressed.Data = nil, nil
}

func (m *Messages) setInfo(f *camera.Frame) {
	if m.info != nil {
		m.Info = m.info.Info(f.Header, f.Width, f.Height)
	} else {
		m.Info = UncalibratedInfo(f.Width, f.Height)
		m.Info.Header = f.Header
	}
}
