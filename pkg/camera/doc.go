// Package camera captures frames from V4L2 video devices through
// memory-mapped buffers and hands them, in their native pixel format, to a
// consumer that publishes them (the ROS 2 node camera_publisher, or the
// `telebridge camera` command).
//
// # Layers
//
// The package has a pure part that builds and tests on any machine, and a
// device part (files tagged linux && cgo, on go4vl's low-level v4l2
// package) that talks to the kernel:
//
//   - Pure: the parameter table of a camera and of the node (Bindings,
//     NodeBindings, on pkg/rosparam, bound to Config), topic names and the
//     QoS choice (TopicsFor, ImageQoS), the pixel format -> ROS encoding map
//     (LookupFormat), the message-shaped frame types (Frame, Image,
//     CompressedImage, CameraInfo), the subscriber state machine (Demand),
//     the monotonic -> wall clock conversion (ClockOffset), the
//     corrupted-buffer classification (Classify, SequenceGap), and the
//     calibration file reader and writer with set_camera_info
//     (ParseCalibration, Calibration.YAML, InfoManager), the reused
//     outgoing messages of a camera (Messages), and the node's decisions
//     (PlanNode, ControlChanges, Diagnose, SubscriberPoll).
//   - Device: Open negotiates format, size and frame rate, mmaps the
//     buffers and streams (Device.Start, Device.Next, Device.Stop);
//     Camera runs one device in its own goroutine, streaming only while
//     someone subscribes and reopening the device after it is lost;
//     ListDevices enumerates devices, formats, sizes and rates; controls are
//     listed and set by name, and live through Camera.SetControl.
//   - Test source: a camera whose device is "pattern:<label>" (see
//     PatternPrefix) generates frames in memory instead of opening a
//     device, through the same Camera loop, for testing the ROS node on
//     machines without cameras.
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
// the buffer to the message instead (Messages.Lend), so that its copy is
// the only one.
//
// # Timestamps
//
// Frame.Header.Stamp comes from the V4L2 buffer timestamp, read while the
// buffer is dequeued and before it is queued again. Drivers stamp with
// CLOCK_MONOTONIC; it is converted to wall-clock time with an offset
// (CLOCK_REALTIME - CLOCK_MONOTONIC) measured when the stream starts (see
// ClockOffset). If the driver does not say its stamps are monotonic, the
// time of dequeue is used instead.
package camera
