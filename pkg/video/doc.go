// Package video turns camera frames into live, encoded video for remote
// viewers: one encoder per camera and setting, shared by every viewer, and
// nothing encoded while nobody watches.
//
// The contract between the encoding side (this package) and the senders
// (WebRTC peers, plain RTP, an SFU publisher) is Source and Viewer: a
// sender subscribes a Viewer to a camera's Source, reads access units from
// it, says how many bits per second its link carries, and asks for a
// keyframe when its receiver lost one.
//
// # Use
//
//	cam, err := video.OpenCamera(video.CameraConfig{Name: "front", Device: "/dev/video0"})
//	go cam.Run(ctx)                 // captures only while someone watches
//	v, err := cam.Subscribe(64)     // the first viewer starts the encoder
//	for au := range v.AccessUnits() { send(au) }
//	v.WantBitrate(600_000)          // from the link's estimate [bit/s]
//	v.RequestKeyFrame()             // a receiver's PLI/FIR
//	v.Close()                       // the last Close stops the encoder
//
// Stream is the Source; Camera (linux, cgo) wires a pkg/camera camera to
// it, and Stream.Feed takes frames from anything else.
//
// # Encoding
//
// H.264 through libx264, loaded at run time (purego; build 164, Debian's
// libx264-164: the build needs only Go): preset ultrafast, tune
// zerolatency (no B-frames, no look-ahead, one access unit out per
// picture), Constrained Baseline profile, SPS and PPS before every IDR
// picture, an IDR picture every Config.KeyInterval (2 s), keyframe
// requests merged to at most one forced IDR per Config.KeyMerge (250 ms),
// and the bitrate changed while running (x264_encoder_reconfig) to the
// lowest WantBitrate among the viewers, clamped to [Config.MinBitrate,
// Config.MaxBitrate]. Where libx264 cannot be loaded (or NoX264Env is
// set), NewStream fails with an error wrapping ErrNoH264 that says what to
// install (H264Unavailable) and callers fall back to MJPEG. docs/video.md
// has the measurements that chose x264 over VP8.
//
// # Input
//
// Every pixel format pkg/camera delivers (Encodings: YUYV, UYVY, GREY,
// Y16, RGB, BGR, the four 8-bit Bayer orders, NV12, MJPG/JPEG) is
// converted to I420 (BT.601 limited range; YUYV and UYVY by libyuv when
// it loads at run time) with no allocation per frame
// after the first, except JPEG (image/jpeg allocates its picture). A
// camera that encodes H.264 itself passes through (Config.PassThrough):
// its byte stream is cut into access units (AUSplitter) and SPS/PPS are
// put before each IDR picture.
//
// # Fan-out and drops
//
// Every viewer gets the same AccessUnit values (shared, read-only Data).
// A viewer's channel holds Subscribe's depth; when it is full the access
// unit is dropped for that viewer and so is everything up to the next
// keyframe (Stats.ViewerDrops), so a slow viewer never blocks the encoder
// or the others and never sees a picture it cannot decode. A new viewer
// starts at a keyframe, which it asks for. When the encoder is still busy
// with earlier pictures, camera frames are skipped (Stats.FramesSkipped).
package video
