// Package camera captures frames from V4L2 video devices through
// memory-mapped buffers and hands them, in their native pixel format, to a
// consumer that publishes them (the ROS 2 node camera_publisher, or the
// `telebridge camera` command).
//
// # Layers
//
// The camera has the four parts of every machine in telebridge:
//
//   - pkg/camera/wire: the V4L2 binding (buffers, ioctls, mmap, format
//     and control enumeration, the pixel format -> ROS encoding table).
//   - pkg/camera/control: the small arithmetic (timestamp offset, dropped
//     frame count, backoff, the subscriber state machine Demand).
//   - pkg/camera (this package): the runtime. The configuration of a
//     camera (Config, Normalize); Open negotiates format, size and frame
//     rate, mmaps the buffers and streams (Device.Start, Device.Next,
//     Device.Stop); controls are listed and set by name, and live through
//     Camera.SetControl; Camera runs one device in its own goroutine,
//     streaming only while someone subscribes and reopening the device
//     after it is lost; the frames it hands out (Frame, Image,
//     CompressedImage) and its counters (Stats). The V4L2 device part is
//     built for linux && cgo; Camera and the pattern sources build on
//     linux without cgo too (a device then fails to open, saying so).
//   - pkg/camera/compress: the JPEG of a frame of any pixel format, for
//     image_raw/compressed (reused buffers, MJPG passed through).
//   - pkg/camera/node: the ROS contract of camera_publisher (topics, QoS,
//     parameter tables, calibration files and camera info, the outgoing
//     messages, the node's decisions), which imports this package and is
//     never imported by it.
//
// A camera whose device is "pattern:<label>" (see PatternPrefix) is a
// test source: it generates frames in memory instead of opening a device,
// through the same Camera loop, for testing the ROS node on machines
// without cameras.
//
// # Zero copy and buffer ownership
//
// Device.Next dequeues a filled buffer (VIDIOC_DQBUF), reads its timestamp
// and sequence number, checks it, and calls the consumer with a *Frame
// whose Data is the memory-mapped driver buffer itself: nothing is copied
// before the consumer runs. The buffer is lent: it is queued back to the
// driver (VIDIOC_QBUF) as soon as the consumer returns, so the consumer must
// not keep Data (or the Frame) after it returns. The one copy in the whole
// path is the consumer's copy into the outgoing message (Frame.CopyTo),
// which Stats counts, so "zero copies before publish" can be checked. A
// publisher that copies the message itself during Publish (rclgo) lends
// the buffer to the message instead (node.Messages.Lend), so that its
// copy is the only one.
//
// # Timestamps
//
// Frame.Header.Stamp comes from the V4L2 buffer timestamp, read while the
// buffer is dequeued and before it is queued again. Drivers stamp with
// CLOCK_MONOTONIC; it is converted to wall-clock time with an offset
// (CLOCK_REALTIME - CLOCK_MONOTONIC) measured when the stream starts (see
// control.ClockOffset). If the driver does not say its stamps are
// monotonic, the time of dequeue is used instead.
package camera
