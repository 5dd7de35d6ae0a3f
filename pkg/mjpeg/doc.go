// Package mjpeg shows cameras in a browser: it encodes camera frames to
// JPEG only while someone watches and serves them as MJPEG
// (multipart/x-mixed-replace over HTTP), the format every browser shows in
// an <img> tag.
//
// # Use
//
// One Stream per camera. Its Feed is the camera's frame function, its
// viewer count drives the camera's demand, and it is an http.Handler:
//
//	s, err := mjpeg.NewStream("front", mjpeg.Config{})  // 10 Hz, quality 75
//	cam, err := camera.New(camCfg, s.Feed)
//	s.OnViewers(func(n int) { cam.SetSubscribers(n, 0) })
//	go cam.Run(ctx)
//	mux.Handle("/cameras/front.mjpg", s)
//	mux.HandleFunc("/cameras/front.jpg", s.Snapshot)
//
// # Demand
//
// A camera nobody watches costs nothing: with no viewer, Feed only counts
// the frame (no copy, no allocation), no encoder goroutine exists, and
// OnViewers(0) lets the camera turn its stream off altogether. A viewer is
// an open ServeHTTP response or a Snapshot waiting for a frame.
//
// # Formats
//
// Input is what pkg/camera delivers (Frame.Encoding, see Encodings):
//   - yuv422_yuy2 (YUYV) and uyvy: bytes moved into an image.YCbCr 4:2:2,
//     no colour math; the camera's values are encoded as they are (no
//     limited-to-full range expansion);
//   - bayer_rggb8, bayer_bggr8, bayer_gbrg8, bayer_grbg8: demosaiced by
//     2x2 cells, one RGB pixel per cell (half width and height);
//   - mono8 (and mono16, its high byte, either byte order): grey JPEG;
//   - rgb8, bgr8;
//   - jpeg (MJPG/JPEG cameras, Frame.Compressed): passed through byte for
//     byte, never decoded, scaled or re-encoded.
//
// Anything else, or a frame whose size, step and data length disagree, is
// rejected and counted (Stats.Bad, Stats.LastErr); it never panics.
// Config.MaxWidth downscales encoded frames by a power-of-two box filter.
//
// # Rate and concurrency
//
// Frames come faster than Config.Rate are skipped in Feed before any
// copy. A due frame is copied into a reused buffer and Feed returns; one
// encoder goroutine (alive only while someone watches) converts and
// encodes it with image/jpeg into reused buffers and publishes it. Each
// viewer copies the latest JPEG and writes it with no lock held; a slow
// viewer skips frames (latest wins) and never blocks another viewer, the
// encoder or the camera.
package mjpeg
