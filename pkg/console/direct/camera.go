package direct

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"

	"github.com/telebridge/telebridge/pkg/bulkcpu"
	"github.com/telebridge/telebridge/pkg/camera"
	"github.com/telebridge/telebridge/pkg/console"
	"github.com/telebridge/telebridge/pkg/mjpeg"
	"github.com/telebridge/telebridge/pkg/video"
	"github.com/telebridge/telebridge/pkg/video/framecode"
	"github.com/telebridge/telebridge/pkg/video/peer"
)

// cam is one camera, its MJPEG stream and its H.264 stream (nil when
// H.264 is not built). The camera captures while either has a viewer.
type cam struct {
	name   string
	dev    *camera.Camera
	stream *mjpeg.Stream
	video  *video.Family
	// viewers of each stream, for the camera's demand (videoN: of every
	// H.264 stream of the family)
	mjpegN, videoN atomic.Int64
	code           uint16 // frame counter of the frame code (camera goroutine)
	grain          grain  // Config.PatternGrain's noise (camera goroutine)
}

// MaxVariants is how many settings besides its own a camera encodes at
// most (each a separate encoder while watched).
const MaxVariants = 4

func (b *Backend) startCamera(ctx context.Context, i int, dev string) error {
	name := cameraName(i, dev)
	st, err := mjpeg.NewStream(name, b.cfg.Stream)
	if err != nil {
		return fmt.Errorf("camera %s: %w", dev, err)
	}
	cm := &cam{name: name, stream: st}
	rate := b.cfg.CameraRate
	vs, err := video.NewFamily(video.Config{Name: name, FrameRate: rate, OnViewers: func(n int) { cm.videoN.Store(int64(n)); cm.demand() }}, MaxVariants)
	switch {
	case errors.Is(err, video.ErrNoH264):
		b.noVideo = video.H264Unavailable().Error() // the same for every camera
	case err != nil:
		_ = st.Close()
		return fmt.Errorf("camera %s: %w", dev, err)
	default:
		cm.video = vs
	}
	pattern := camera.IsPattern(dev)
	var draw camera.DrawFunc
	if strings.HasPrefix(dev, WorldPrefix) {
		if draw, err = b.worldDraw(dev); err != nil {
			// Never fail to start for a camera the world cannot render.
			b.cfg.Logf("%v: showing the test pattern instead", err)
			dev, pattern = camera.PatternPrefix+name, true
		}
	}
	// The frame code band (the glass-to-glass probe) on pattern and
	// rendered cameras; the grain on pattern cameras only.
	stamp := pattern || draw != nil
	var fr video.Frame // reused: the camera goroutine is the only caller
	c, err := camera.New(camera.Config{Name: name, Device: dev, Width: b.cfg.CameraWidth, Height: b.cfg.CameraHeight, FrameRate: rate, Draw: draw}, func(f *camera.Frame) {
		// Video is bulk work: it leaves a processor to the operator's
		// commands (pkg/bulkcpu).
		bulkcpu.Acquire()
		defer bulkcpu.Release()
		if stamp && f.Encoding == "yuv422_yuy2" {
			if pattern && b.cfg.PatternGrain > 0 {
				cm.grain.addYUYV(f.Data, b.cfg.PatternGrain)
			}
			// The glass-to-glass probe: capture time and counter in the
			// top band, read back by the page from either transport.
			cm.code++
			framecode.StampYUYV(f.Data, int(f.Step), int(f.Width), int(f.Height), framecode.New(f.Header.Stamp, cm.code))
		}
		st.Feed(f)
		if cm.video != nil && cm.videoN.Load() > 0 {
			fr = video.Frame{Encoding: f.Encoding, Width: int(f.Width), Height: int(f.Height), Step: int(f.Step),
				Data: f.Data, BigEndian: f.IsBigEndian != 0, Capture: f.Header.Stamp}
			cm.video.Feed(&fr)
			fr.Data = nil
		}
	})
	if err != nil {
		_ = st.Close()
		if cm.video != nil {
			_ = cm.video.Close()
		}
		return fmt.Errorf("camera %s: %w", dev, err)
	}
	cm.dev = c
	// Nobody watching: the camera does not stream at all.
	st.OnViewers(func(n int) { cm.mjpegN.Store(int64(n)); cm.demand() })
	b.cams = append(b.cams, cm)
	b.goRun("camera "+name, &b.wg, func() error {
		defer st.Close()
		if cm.video != nil {
			defer cm.video.Close()
		}
		return c.Run(ctx)
	})
	return nil
}

// demand tells the camera how many viewers its two streams have.
func (c *cam) demand() {
	if c.dev != nil {
		c.dev.SetSubscribers(int(c.mjpegN.Load()+c.videoN.Load()), 0)
	}
}

// OpenVideo implements console.Video: the camera's H.264 stream for a
// page's caps. Pages whose caps the camera meets (no resolution or frame
// rate below the camera's) share the camera's own encoder; smaller caps
// get the encoder of their setting (peer.Caps.Fit), shared by every page
// that asks for the same (at most MaxVariants per camera). A bitrate cap
// only bounds the page's share of the link.
func (b *Backend) OpenVideo(name string, caps peer.Caps) (video.Source, error) {
	for _, c := range b.cams {
		if c.name == name {
			if c.video == nil {
				return nil, fmt.Errorf("camera %s: %s", name, b.VideoUnavailable())
			}
			w, h := b.cfg.CameraWidth, b.cfg.CameraHeight
			if n, ok := c.dev.Negotiated(); ok {
				w, h = int(n.Width), int(n.Height)
			}
			s, err := c.video.Source(caps.Fit(w, h, b.cfg.CameraRate))
			if err != nil {
				return nil, fmt.Errorf("camera %s: %w", name, err)
			}
			return s, nil
		}
	}
	return nil, fmt.Errorf("no camera %q", name)
}

// VideoUnavailable implements console.Video: why the cameras cannot be
// sent as H.264 ("" when they can).
func (b *Backend) VideoUnavailable() string {
	switch {
	case b.noVideo != "":
		return b.noVideo
	case len(b.cams) == 0:
		return "no camera"
	}
	return ""
}

var _ console.Video = (*Backend)(nil)

func (c *cam) state() console.CameraState {
	s := c.stream.Stats()
	out := console.CameraState{Name: c.name, Width: s.Width, Height: s.Height, Format: s.InputEncoding,
		Viewers: s.Viewers, OutFPS: s.FPS, BytesSec: s.BytesPerSec}
	if s.Width == 0 {
		out.Width, out.Height = s.InputWidth, s.InputHeight
	}
	if c.video != nil {
		vs := c.video.Stats()
		out.VideoViewers, out.VideoBitrate, out.VideoEncoded = vs.Viewers, vs.Bitrate, vs.Encoded
	}
	if n, ok := c.dev.Negotiated(); ok {
		out.InFPS = n.FrameRate
		if out.Format == "" {
			out.Format = n.Encoding
		}
		if out.Width == 0 {
			out.Width, out.Height = int(n.Width), int(n.Height)
		}
	}
	return out
}
