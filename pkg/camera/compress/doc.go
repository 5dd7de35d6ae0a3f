// Package compress turns camera frames of every pixel format pkg/camera
// delivers into JPEG, the payload of sensor_msgs/CompressedImage with
// format "jpeg" (the image_transport "compressed" convention,
// <camera>/image_raw/compressed).
//
// # Use
//
//	enc, err := compress.New(compress.DefaultQuality)
//	jpg, err := enc.Encode(frame) // in the frame callback; jpg is enc's buffer
//	publish(jpg)                  // copy or send before the next Encode
//
// # Formats
//
// Keyed on camera.Frame.Encoding (the ROS encoding). The conversion is
// pkg/mjpeg's (mjpeg.Converter.Full: one format table and one set of
// pixel loops for the browser's MJPEG and this package):
//   - yuv422_yuy2 (YUYV), uyvy: the bytes move into a 4:2:2 picture, no
//     colour maths; the camera's values are encoded as they are (V4L2
//     YUYV is nominally limited range, JPEG full range: no expansion, as
//     pkg/mjpeg does);
//   - mono8, and mono16 by its high byte (either byte order): grey JPEG;
//   - rgb8, bgr8: colour converted by image/jpeg;
//   - bayer_rggb8, bayer_bggr8, bayer_gbrg8, bayer_grbg8: demosaiced by
//     2x2 cells (red and blue as sampled, green the mean of the cell's two
//     greens), each cell's colour on its four pixels, so the JPEG keeps the
//     camera's size (and its camera_info still applies); the colour
//     resolution is that of the cells;
//   - jpeg (MJPG and JPEG cameras, Frame.Compressed): passed through
//     without a copy, never decoded or re-encoded.
//
// A frame whose encoding is unknown, or whose size, step and data length
// disagree, is refused with ErrUnknownEncoding or ErrBadFrame (pkg/mjpeg's
// sentinels); nothing panics.
//
// # Cost
//
// The Encoder reuses its picture and its output buffer: after the first
// frame of a size, Encode allocates only what image/jpeg allocates inside
// every jpeg.Encode call (5 allocations of about 380 bytes in all for a
// colour picture, 3 for a grey one, at Go 1.26); the conversion itself
// allocates nothing (TestEncodeAllocs checks it; BenchmarkEncode has the
// figures). A 640x480 YUYV frame took about 10 ms at quality 80 on this
// project's shared 2-core test machine, 30 % of one core at 30 Hz, which
// is why the node encodes only while image_raw/compressed has a
// subscriber.
//
// An Encoder is not safe for concurrent use: it belongs to the camera's
// capture goroutine.
package compress
